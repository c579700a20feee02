// Merging record stores of one or more systems (e.g. the shards of a campaign run on several hosts):
// every input store is checked against its index (a record changed, deleted or added since the index was written,
// a missing index, a timing record whose figures contradict each other: refused, so an edit is never re-hashed into
// the merged index), every record is validated, identical duplicates are kept once, conflicting ones are refused,
// the environments of a system are combined and the index is rebuilt. Nothing is written when anything is wrong.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import {
  checkSystemIntegrity,
  type EnvironmentRecord,
  formatFileProblem,
  formatFindings,
  insideOut,
  parseRecordPath,
  recordPath,
  type StoreIndexRecord,
  systemDir,
  validateFile,
} from "@ngcc-perf/schema";
import { InputError } from "./errors.ts";
import { writeFileAtomic, writeJsonAtomic } from "./store.ts";
import { indexProfiles, listStoreFiles } from "./store-index.ts";
import { TOOL } from "./tool.ts";

/** The build profiles of the input stores' indexes of one system, by name (none: no field). */
function mergedProfiles(olds: readonly StoreIndexRecord[]): Pick<StoreIndexRecord, "buildProfiles"> {
  const buildProfiles = olds.reduce(
    (all, i) => indexProfiles(all, i.buildProfiles ?? []),
    [] as NonNullable<StoreIndexRecord["buildProfiles"]>,
  );
  return buildProfiles.length > 0 ? { buildProfiles } : {};
}

export interface MergeResult {
  out: string;
  systems: string[];
  files: number;
  duplicates: number;
}

function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith(".") || e.name.endsWith(".tmp")) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Environment fields that must agree for two stores to be one system. */
function machineFacts(env: EnvironmentRecord) {
  const { provenance: _p, campaign: _c, hostname: _h, runtime: _r, counter, ...facts } = env;
  // The counter's rate and read overhead are measured per run and vary a little; its kind and unit must agree.
  return { ...facts, counter: { kind: counter.kind, unit: counter.unit } };
}

function firstDifference(a: unknown, b: unknown, path = ""): string | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (typeof a === "object" && a && typeof b === "object" && b && !Array.isArray(a)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b as object)])) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`);
      if (d) return d;
    }
  }
  return `${path || "/"}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/** One input store's copy of a file. */
interface Copy {
  store: string;
  data: Buffer;
}

/** What was read from the input stores: every file's copies by path, and what is wrong with them. */
interface StoresRead {
  byPath: Map<string, Copy[]>;
  invalid: string[];
  unmatched: string[];
}

/** The merged files by path, each system's input indexes, and what could not be combined. */
interface Combined {
  merged: Map<string, Buffer | string>;
  indexes: Map<string, StoreIndexRecord[]>;
  duplicates: number;
  conflicts: string[];
}

export function mergeStores(stores: readonly string[], out: string): MergeResult {
  const outDir = resolve(out);
  const inputs = stores.map((s) => resolve(s));
  if (existsSync(join(outDir, "data")) && !inputs.includes(outDir)) inputs.push(outDir);
  // 1. Check every store against its index, read and validate everything.
  const { byPath, invalid, unmatched } = readStores(inputs);
  if (invalid.length > 0) refuse(unmatched, [["invalid records, nothing merged", invalid]]);
  // 2. Combine: environments per system, indexes rebuilt, everything else must be identical.
  const { merged, indexes, duplicates, conflicts } = combine(byPath);
  if (conflicts.length > 0 || unmatched.length > 0) {
    refuse(unmatched, [
      ["conflicting duplicates, nothing merged (measure each job once, e.g. with --shard K/N)", conflicts],
    ]);
  }
  const systems = [...new Set([...merged.keys()].map((r) => r.split("/")[1] as string))].sort();
  const unindexed = systems.filter((s) => (indexes.get(s) ?? []).every((i) => i.algorithms.length === 0));
  if (unindexed.length > 0) {
    throw new InputError(
      `no index.json for system(s) ${unindexed.join(", ")} in any input store, so their algorithms are unknown; nothing merged`,
    );
  }
  // 3. Write the files, then each system's index.
  for (const [rel, data] of merged) writeFileAtomic(insideOut(outDir, rel), data);
  for (const system of systems) {
    const index = mergedIndex(outDir, system, indexes.get(system) ?? [], inputs.length);
    writeJsonAtomic(recordPath(outDir, { kind: "store-index", key: { system } }), index);
  }
  return { out: outDir, systems, files: merged.size, duplicates };
}

/** The system folder and the path within it of a file's store-relative path (data/<system>/…). */
function systemAndRest(rel: string): { system: string; rest: string } {
  const [, system = "", ...rest] = rel.split("/");
  return { system, rest: rest.join("/") };
}

/** Every file of the stores by its path in the store, each system checked against its index, every record validated. */
function readStores(inputs: readonly string[]): StoresRead {
  const byPath = new Map<string, Copy[]>();
  const invalid: string[] = [];
  const unmatched: string[] = [];
  for (const store of inputs) {
    const data = join(store, "data");
    if (!existsSync(data) || !statSync(data).isDirectory()) {
      throw new InputError(`${store}: not a record store (no data/ folder)`);
    }
    for (const e of readdirSync(data, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith(".") || filesBelow(join(data, e.name)).length === 0) continue;
      unmatched.push(...formatFindings(checkSystemIntegrity(join(data, e.name))));
    }
    for (const file of filesBelow(data)) {
      const rel = relative(store, file).split(sep).join("/");
      const { system, rest } = systemAndRest(rel);
      if (!parseRecordPath(system, rest)) {
        invalid.push(`${file}: not a file of the store layout (see docs/record-schema.md)`);
        continue;
      }
      if (file.endsWith(".json")) {
        const r = validateFile(file);
        for (const e of r.errors) invalid.push(formatFileProblem(file, e));
      }
      const list = byPath.get(rel) ?? [];
      list.push({ store, data: readFileSync(file) });
      byPath.set(rel, list);
    }
  }
  return { byPath, invalid, unmatched };
}

/** Refuses the merge: a store that does not match its index is reported with whatever else is wrong. */
function refuse(unmatched: readonly string[], sections: Array<[string, string[]]>): never {
  const all: Array<[string, readonly string[]]> = [
    [
      `stores that do not match their index, nothing merged (if the records were edited on purpose, check them and rebuild the store's index with "ngcc-perf index <store>" first)`,
      unmatched,
    ],
    ...sections,
  ];
  throw new InputError(
    all
      .filter(([, lines]) => lines.length > 0)
      .map(([title, lines]) => `${title}:\n${lines.join("\n")}`)
      .join("\n"),
  );
}

/** The copies of every path combined: indexes set aside, environments merged, anything else kept once when identical. */
function combine(byPath: ReadonlyMap<string, Copy[]>): Combined {
  const c: Combined = { merged: new Map(), indexes: new Map(), duplicates: 0, conflicts: [] };
  for (const [rel, copies] of [...byPath.entries()].sort()) {
    const { system, rest } = systemAndRest(rel);
    const kind = parseRecordPath(system, rest)?.kind;
    if (kind === "store-index") {
      c.indexes.set(system, [
        ...(c.indexes.get(system) ?? []),
        ...copies.map((copy) => JSON.parse(copy.data.toString("utf8"))),
      ]);
      continue;
    }
    if (kind === "environment" && copies.length > 1) {
      const env = mergedEnvironment(rel, copies, c.conflicts);
      if (env !== null) {
        c.merged.set(rel, env);
        c.duplicates += copies.length - 1;
      }
      continue;
    }
    const first = copies[0] as Copy;
    const other = copies.find((copy) => !copy.data.equals(first.data));
    if (other) {
      c.conflicts.push(`${rel}: differs between ${first.store} and ${other.store}`);
      continue;
    }
    c.duplicates += copies.length - 1;
    c.merged.set(rel, first.data);
  }
  return c;
}

/**
 * One system's environment from several stores: the first, its campaign from the earliest start to the latest end
 * (none while one is open); null, with the conflicts noted, when the machines differ.
 */
function mergedEnvironment(rel: string, copies: readonly Copy[], conflicts: string[]): string | null {
  const envs = copies.map((c) => JSON.parse(c.data.toString("utf8")) as EnvironmentRecord);
  const first = envs[0] as EnvironmentRecord;
  let ok = true;
  envs.slice(1).forEach((e, i) => {
    const d = firstDifference(machineFacts(first), machineFacts(e));
    if (d) {
      ok = false;
      conflicts.push(
        `${rel}: the machines differ between ${copies[0]?.store} and ${copies[i + 1]?.store} (${d}); a store holds one system`,
      );
    }
  });
  if (!ok) return null;
  const starts = envs.map((e) => e.campaign.start).sort();
  const ends = envs.map((e) => e.campaign.end);
  const end = ends.includes(null) ? null : ([...ends].sort().pop() ?? null);
  const env: EnvironmentRecord = { ...first, campaign: { ...first.campaign, start: starts[0] as string, end } };
  return `${JSON.stringify(env, null, 2)}\n`;
}

/** A system's index in the merged store: the input indexes' algorithms, systems and re-hashes, its files listed anew. */
function mergedIndex(
  outDir: string,
  system: string,
  olds: readonly StoreIndexRecord[],
  inputs: number,
): StoreIndexRecord {
  const algorithms = new Map<string, StoreIndexRecord["algorithms"][number]>();
  for (const idx of olds) for (const a of idx.algorithms) algorithms.set(a.id, a);
  const allSystems = [...new Set(olds.flatMap((i) => i.systems ?? [system]))];
  const campaign = olds.find((i) => i.campaign)?.campaign;
  // Every deliberate re-hash of an input store's files stays on record, once, oldest first.
  const seen = new Set<string>();
  const reindexed = olds
    .flatMap((i) => i.reindexed ?? [])
    .filter((r) => !seen.has(JSON.stringify(r)) && seen.add(JSON.stringify(r)))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return {
    kind: "store-index",
    schemaVersion: 1,
    provenance: {
      origin: olds.every((i) => i.provenance.origin === "synthesized") && olds.length > 0 ? "synthesized" : "measured",
      tool: TOOL,
      createdAt: new Date().toISOString(),
      note: `merged from ${inputs} store(s) by ngcc-perf merge`,
    },
    system,
    algorithms: [...algorithms.values()],
    files: listStoreFiles(systemDir(outDir, system)),
    ...(allSystems.length > 0 ? { systems: allSystems.includes(system) ? allSystems : [...allSystems, system] } : {}),
    ...(campaign ? { campaign } : {}),
    ...mergedProfiles(olds),
    ...(reindexed.length > 0 ? { reindexed } : {}),
  };
}
