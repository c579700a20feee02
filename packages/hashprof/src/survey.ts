// The symmetric-primitive survey of an algorithm, from its built objects: which placeholder (hash group)
// and DRNG symbols its code references, which primitives it brings itself (constant fingerprints, function
// names), which of its functions are only shims over a placeholder, and which compile-time switches change
// the answer. A curated notes file may add or override the wording; the record keeps both apart.
import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { type AlgorithmSpec, type Campaign, InputError, type InstanceSpec, TOOL } from "@ngcc-perf/runner";
import type { SurveyRecord } from "@ngcc-perf/schema";
import { parse as parseYaml } from "yaml";
import type { AnalysedObject, ProfileBuild, Variant } from "./build.ts";
import { primitiveFromName } from "./fingerprints.ts";
import { drngGroup, placeholderGroups } from "./groups.ts";
import type { GroupSpec } from "./objects.ts";

export type Verdict = "ICCS-only" | "mixed" | "bypass";
const VERDICTS: readonly Verdict[] = ["ICCS-only", "mixed", "bypass"];

/** Library calls a shim may make besides its placeholder. */
const HARMLESS = new Set(["memcpy", "memset", "memmove", "__memcpy_chk", "__memset_chk", "__stack_chk_fail"]);

export interface OwnPrimitive {
  name: string;
  evidence: string;
}

export interface InstanceFinding {
  instance: string;
  defines: string[];
  verdict: Verdict;
  placeholders: string[];
  drng: string[];
  ownPrimitives: OwnPrimitive[];
  shims: Array<{ symbol: string; forwardsTo: string }>;
  /** Where randomness comes from besides the DRNG (/dev/urandom, getrandom() …). */
  entropySources: string[];
}

export function verdictOf(ownPrimitives: number, placeholders: number): Verdict {
  if (ownPrimitives > 0) return placeholders > 0 ? "mixed" : "bypass";
  return placeholders > 0 ? "ICCS-only" : "bypass";
}

/** Which of the instance's own functions reach a placeholder through its call graph. */
function placeholderReach(own: readonly AnalysedObject[], placeholders: ReadonlySet<string>) {
  const callees = new Map<string, Set<string>>();
  for (const e of own.flatMap((o) => o.edges))
    callees.set(e.caller, (callees.get(e.caller) ?? new Set()).add(e.callee));
  const reaches = new Map<string, boolean>();
  const reachesPlaceholder = (fn: string, seen = new Set<string>()): boolean => {
    const known = reaches.get(fn);
    if (known !== undefined) return known;
    if (seen.has(fn)) return false;
    seen.add(fn);
    const r = [...(callees.get(fn) ?? [])].some((c) => placeholders.has(c) || reachesPlaceholder(c, seen));
    reaches.set(fn, r);
    return r;
  };
  return { callees: (fn: string) => [...(callees.get(fn) ?? [])], reachesPlaceholder };
}

type Reach = ReturnType<typeof placeholderReach>;
type OwnFunction = { name: string; object: AnalysedObject };

/** Functions named after a primitive whose only calls are placeholders (and harmless library calls). */
function shimsOf(functions: readonly OwnFunction[], placeholders: ReadonlySet<string>, reach: Reach) {
  const shims: InstanceFinding["shims"] = [];
  for (const { name } of functions) {
    if (!primitiveFromName(name) || placeholders.has(name)) continue;
    const cs = reach.callees(name);
    const targets = cs.filter((c) => placeholders.has(c));
    if (targets.length > 0 && cs.every((c) => placeholders.has(c) || HARMLESS.has(c))) {
      shims.push({ symbol: name, forwardsTo: targets.sort().join(", ") });
    }
  }
  return shims;
}

/** Own primitives per object: constant fingerprints, and primitive-named functions that reach no placeholder. */
function ownPrimitivesOf(
  own: readonly AnalysedObject[],
  functions: readonly OwnFunction[],
  placeholders: ReadonlySet<string>,
  reach: Reach,
): OwnPrimitive[] {
  const byObject = new Map(
    own.map((o) => [
      o,
      {
        fingerprints: o.fingerprints.map((f) => f.evidence),
        names: [] as string[],
        primitive: o.fingerprints.map((f) => f.primitive),
      },
    ]),
  );
  for (const { name, object } of functions) {
    const p = primitiveFromName(name);
    const entry = byObject.get(object);
    if (!p || !entry || placeholders.has(name) || reach.reachesPlaceholder(name)) continue;
    entry.names.push(name);
    if (!entry.primitive.includes(p)) entry.primitive.push(p);
  }
  const found: OwnPrimitive[] = [];
  for (const [o, e] of byObject) {
    if (e.fingerprints.length === 0 && e.names.length === 0) continue;
    const evidence = [
      `${o.object.split("/").pop()} (from ${o.source.split("/").pop()})`,
      ...(e.fingerprints.length ? [`constants: ${e.fingerprints.join("; ")}`] : []),
      ...(e.names.length ? [`symbols: ${e.names.sort().join(", ")}`] : []),
    ].join(", ");
    for (const p of [...new Set(e.primitive)]) found.push({ name: p, evidence });
  }
  return found;
}

/** The survey's finding for one variant (timing or KAT build) of one instance. */
export function findingOf(instance: string, variant: Variant, groups: readonly GroupSpec[]): InstanceFinding {
  const own = variant.objects.filter((o) => o.role === "instance");
  const hashSyms = new Set(placeholderGroups(groups).flatMap((g) => g.symbols));
  const drngSyms = new Set(drngGroup(groups)?.symbols ?? []);
  const refs = new Set(own.flatMap((o) => o.undefined));
  const placeholders = [...hashSyms].filter((s) => refs.has(s)).sort();
  const drng = [...drngSyms].filter((s) => refs.has(s)).sort();
  const placeholderSet = new Set([...hashSyms, ...drngSyms]);
  const reach = placeholderReach(own, placeholderSet);
  const functions = own.flatMap((o) => [...o.defined, ...o.locals].map((name) => ({ name, object: o })));
  const ownPrimitives = ownPrimitivesOf(own, functions, placeholderSet, reach);
  return {
    instance,
    defines: variant.defines,
    verdict: verdictOf(ownPrimitives.length, placeholders.length),
    placeholders,
    drng,
    ownPrimitives,
    shims: shimsOf(functions, placeholderSet, reach),
    entropySources: [...new Set(own.flatMap((o) => o.entropySources))].sort(),
  };
}

export interface SurveyNote {
  verdict?: Verdict;
  text?: string;
  source: string;
}

/** The campaign's curated notes: profiler.notes (a YAML file) over each algorithm's surveyNotes. */
export function curatedNotes(campaign: Campaign): Map<string, SurveyNote> {
  const notes = new Map<string, SurveyNote>();
  const campaignFile = relative(process.cwd(), campaign.file) || campaign.file;
  for (const a of campaign.config.algorithms) {
    if (a.surveyNotes) notes.set(a.id, { text: a.surveyNotes, source: `${campaignFile} (surveyNotes of ${a.id})` });
  }
  const file = campaign.config.profiler?.notes;
  if (!file) return notes;
  const path = resolve(campaign.dir, file);
  if (!existsSync(path)) throw new InputError(`${campaignFile}: /profiler/notes: ${path} does not exist`);
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, "utf8"));
  } catch (err) {
    throw new InputError(`${path}: not valid YAML: ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new InputError(`${path}: expected a mapping of algorithm id → { verdict, text }`);
  }
  for (const [id, v] of Object.entries(doc as Record<string, unknown>)) {
    const where = `${path}: /${id}`;
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      throw new InputError(`${where}: expected { verdict, text }`);
    }
    const entry = v as Record<string, unknown>;
    for (const k of Object.keys(entry)) {
      if (k !== "verdict" && k !== "text") throw new InputError(`${where}/${k}: unknown key (expected verdict, text)`);
    }
    if (entry.verdict !== undefined && !VERDICTS.includes(entry.verdict as Verdict)) {
      throw new InputError(
        `${where}/verdict: expected one of ${VERDICTS.join(", ")}, got ${JSON.stringify(entry.verdict)}`,
      );
    }
    if (entry.text !== undefined && (typeof entry.text !== "string" || entry.text.trim() === "")) {
      throw new InputError(`${where}/text: expected a non-empty string`);
    }
    notes.set(id, {
      ...(entry.verdict ? { verdict: entry.verdict as Verdict } : {}),
      ...(entry.text ? { text: entry.text as string } : {}),
      source: relative(process.cwd(), path) || path,
    });
  }
  return notes;
}

const list = (xs: readonly string[]) =>
  xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;

const flag = (d: string) => (d.startsWith("-D") ? d : `-D${d}`);

type Built = { spec: InstanceSpec; build: ProfileBuild };
type Switch = { define: string; effect: string };

/** Switches between the KAT build and the timing build of an instance (e.g. the DRNG only with -DKAT_BUILD). */
function katSwitches(built: readonly Built[], findings: readonly InstanceFinding[]): Switch[] {
  return built.flatMap(({ spec, build }, i): Switch[] => {
    const t = findings[i];
    if (!build.kat || !t) return [];
    const added = build.kat.defines.filter((d) => !build.timing.defines.includes(d));
    if (added.length === 0) return [];
    const k = findingOf(spec.instance, build.kat, build.groups);
    const define = added.map(flag).join(" ");
    if (k.drng.length > 0 && t.drng.length === 0) {
      const other = t.entropySources.length ? `; otherwise ${t.entropySources.join(", ")}` : "";
      const effect = `DRNG (${k.drng.join(", ")}) only with ${define}${other} — the timing build bypasses the DRNG`;
      return [{ define, effect }];
    }
    if (JSON.stringify(k.placeholders) !== JSON.stringify(t.placeholders) || k.verdict !== t.verdict) {
      const effect = `KAT build: ${k.verdict}, placeholders ${list(k.placeholders) || "none"}; timing build: ${t.verdict}`;
      return [{ define, effect }];
    }
    return [];
  });
}

/** Switches between instances compiled from one folder with different defines (e.g. -DPUFFIN_OWN_KECCAK). */
function defineSwitches(built: readonly Built[], findings: readonly InstanceFinding[], switches: Switch[]): void {
  const pairs = built.flatMap((a, i) => built.map((b, j) => ({ a, b, fa: findings[i], fb: findings[j] })));
  for (const { a, b, fa, fb } of pairs) {
    if (!fa || !fb || a.spec.apiDir !== b.spec.apiDir) continue;
    const extra = b.spec.defines.filter((d) => !a.spec.defines.includes(d));
    if (extra.length === 0 || a.spec.defines.some((d) => !b.spec.defines.includes(d))) continue;
    if (fa.verdict === fb.verdict && fa.ownPrimitives.length === fb.ownPrimitives.length) continue;
    const define = extra.map(flag).join(" ");
    const own = [...new Set(fb.ownPrimitives.map((p) => p.name))];
    const effect = `with ${define}: ${fb.verdict}${own.length ? ` (own ${list(own)})` : ""}; without: ${fa.verdict}`;
    if (!switches.some((s) => s.define === define && s.effect === effect)) switches.push({ define, effect });
  }
}

/** The algorithm's own primitives over its instances, the evidence naming the instances they were found in. */
function mergedOwnPrimitives(findings: readonly InstanceFinding[]): OwnPrimitive[] {
  const merged: OwnPrimitive[] = [];
  for (const f of findings) {
    for (const p of f.ownPrimitives) {
      const prev = merged.find((x) => x.name === p.name);
      const inst = f.instance;
      if (prev) {
        if (!prev.evidence.includes(inst)) prev.evidence = prev.evidence.replace(/^in ([^:]+):/, `in $1, ${inst}:`);
      } else merged.push({ name: p.name, evidence: `in ${inst}: ${p.evidence}` });
    }
  }
  return merged;
}

/** The generated one-line summary, in the words of the groups: "placeholders" only for the ICCS placeholders. */
function summaryText(
  findings: readonly InstanceFinding[],
  ownPrimitives: readonly OwnPrimitive[],
  shims: readonly InstanceFinding["shims"][number][],
  switches: readonly Switch[],
  groups: readonly GroupSpec[],
): string {
  const parts: string[] = [];
  const hashUsed = [...new Set(findings.flatMap((f) => f.placeholders))].sort();
  const shortList = (xs: readonly string[]) =>
    xs.length > 5 ? `${xs.slice(0, 4).join(", ")} and ${xs.length - 4} more` : list(xs);
  // "placeholders" are the ICCS placeholder functions (groups marked iccs); a submission's own or a library's hash
  // functions (PQClean's fips202/sha2 groups, a NIST submission's SHA-3) are named by their groups' labels.
  const used = placeholderGroups(groups).filter((g) => g.symbols.some((s) => hashUsed.includes(s)));
  const iccs = used.length > 0 && used.every((g) => g.iccs === true);
  const labels = [...new Set(used.map((g) => g.label ?? g.name))];
  const word = iccs ? "ICCS placeholders" : `${labels.length ? list(labels) : "profiled hash"} functions`;
  parts.push(hashUsed.length ? `${word} ${shortList(hashUsed)}` : "no profiled hash function referenced");
  if (ownPrimitives.length) {
    const withOwn = findings.filter((f) => f.ownPrimitives.length).map((f) => f.instance);
    const names = list([...new Set(ownPrimitives.map((p) => p.name))]);
    parts.push(withOwn.length === findings.length ? `own ${names}` : `own ${names} in ${list(withOwn)}`);
  }
  const first = shims[0];
  if (first) {
    const eg = ` (e.g. ${first.symbol} → ${first.forwardsTo.split(", ")[0]})`;
    parts.push(`${shims.length} shim${shims.length > 1 ? "s" : ""} over ${iccs ? "placeholders" : "them"}${eg}`);
  }
  const drngSwitch = switches.find((s) => s.effect.startsWith("DRNG"));
  if (drngSwitch) parts.push(drngSwitch.effect.replace(/ — .*$/, ""));
  else if (findings.every((f) => f.drng.length === 0)) parts.push("no DRNG call");
  return parts.join("; ");
}

/** The groups as the survey record names them. */
function groupFacts(groups: readonly GroupSpec[]) {
  return groups.map((g) => ({
    name: g.name,
    ...(g.label ? { label: g.label } : {}),
    ...(g.kind ? { kind: g.kind } : {}),
    ...(g.iccs !== undefined ? { iccs: g.iccs } : {}),
    ...(g.source ? { source: g.source } : {}),
  }));
}

/** The automatic finding of an algorithm from its instances' findings. */
function automaticFinding(built: readonly Built[], findings: readonly InstanceFinding[]) {
  const groups = [...new Map(built.flatMap((b) => b.build.groups).map((g) => [g.name, g])).values()];
  const switches = katSwitches(built, findings);
  defineSwitches(built, findings, switches);
  const verdicts = new Set(findings.map((f) => f.verdict));
  const verdict: Verdict = verdicts.has("mixed") || verdicts.size > 1 ? "mixed" : (findings[0]?.verdict ?? "ICCS-only");
  const ownPrimitives = mergedOwnPrimitives(findings);
  const shims = [...new Map(findings.flatMap((f) => f.shims).map((s) => [`${s.symbol}→${s.forwardsTo}`, s])).values()];
  return {
    verdict,
    placeholders: [...new Set(findings.flatMap((f) => [...f.placeholders, ...f.drng]))].sort(),
    ownPrimitives,
    shims,
    switches,
    text: summaryText(findings, ownPrimitives, shims, switches, groups),
    groups: groupFacts(groups),
    instances: findings.map((f) => ({
      instance: f.instance,
      verdict: f.verdict,
      placeholders: f.placeholders,
      drng: f.drng,
      ownPrimitives: [...new Set(f.ownPrimitives.map((p) => p.name))],
      defines: f.defines.map(flag),
    })),
  };
}

/**
 * The survey record of an algorithm under one build profile, from its instances' profiling builds under that
 * profile.
 */
export function surveyAlgorithm(
  campaign: Campaign,
  alg: Pick<AlgorithmSpec, "id">,
  built: readonly Built[],
  buildProfile: string,
): SurveyRecord {
  const findings = built.map(({ spec, build }) => findingOf(spec.instance, build.timing, build.groups));
  const automatic = automaticFinding(built, findings);
  const note = curatedNotes(campaign).get(alg.id);
  const curated = note
    ? {
        ...(note.verdict ? { verdict: note.verdict } : {}),
        ...(note.text ? { text: note.text } : {}),
        source: note.source,
      }
    : undefined;
  return {
    kind: "survey",
    schemaVersion: 1,
    provenance: { origin: "measured", tool: TOOL, createdAt: new Date().toISOString() },
    algorithmId: alg.id,
    verdict: curated?.verdict ?? automatic.verdict,
    system: campaign.system,
    buildProfile,
    automatic,
    ...(curated ? { curated } : {}),
    text: curated?.text ?? automatic.text,
  };
}
