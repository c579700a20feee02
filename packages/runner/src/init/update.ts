// init --update: an existing meta.json kept field by field (also per instance, matched by name), what the draft
// has and it lacks added (new instances, missing fields), and the manifest rewritten for the KAT files the
// instances name. Returns the merged meta.json and what was kept, added and rewritten.
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export interface Merged {
  meta: Json;
  kept: string[];
  added: string[];
}

/** Fields of `draft` missing in `mine` added (one level into objects such as kat and api); `mine`'s kept. */
function mergeObject(mine: Json, draft: Json, at: string, out: Merged): Json {
  const merged: Json = { ...mine };
  for (const [k, v] of Object.entries(draft)) {
    if (!(k in mine)) {
      merged[k] = v;
      out.added.push(`${at}${k}`);
    } else if (isObject(mine[k]) && isObject(v) && k !== "profiler") {
      merged[k] = mergeObject(mine[k] as Json, v, `${at}${k}.`, out);
    }
  }
  return merged;
}

export function mergeMeta(mine: Json, draft: Json): Merged {
  const out: Merged = { meta: {}, kept: [], added: [] };
  const top: Json = {};
  for (const [k, v] of Object.entries(mine)) {
    if (k !== "instances") out.kept.push(k);
    top[k] = v;
  }
  for (const [k, v] of Object.entries(draft)) {
    if (k === "instances") continue;
    if (!(k in mine)) {
      top[k] = v;
      out.added.push(k);
    }
  }
  const mineInstances = Array.isArray(mine.instances) ? (mine.instances as Json[]) : [];
  const draftInstances = Array.isArray(draft.instances) ? (draft.instances as Json[]) : [];
  const instances: Json[] = [];
  for (const m of mineInstances) {
    const d = draftInstances.find((x) => x.name === m.name);
    if (!d) {
      out.kept.push(`instance ${String(m.name)} (init did not find it; kept as written)`);
      instances.push(m);
      continue;
    }
    const before = out.added.length;
    instances.push(mergeObject(m, d, `instance ${String(m.name)}: `, out));
    if (out.added.length === before) out.kept.push(`instance ${String(m.name)}`);
  }
  for (const d of draftInstances) {
    if (mineInstances.some((m) => m.name === d.name)) continue;
    instances.push(d);
    out.added.push(`instance ${String(d.name)}`);
    if (
      Array.isArray(top.parameterSets) &&
      typeof d.parameterSet === "string" &&
      !top.parameterSets.includes(d.parameterSet)
    ) {
      top.parameterSets = [...top.parameterSets, d.parameterSet];
      out.added.push(`parameterSets: ${d.parameterSet}`);
    }
  }
  // The original order of the fields, then the added ones.
  out.meta = { ...top, instances };
  if ("instances" in mine) {
    const ordered: Json = {};
    for (const k of Object.keys(mine)) ordered[k] = out.meta[k];
    for (const k of Object.keys(out.meta)) if (!(k in ordered)) ordered[k] = out.meta[k];
    out.meta = ordered;
  }
  return out;
}
