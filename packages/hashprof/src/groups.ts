import {
  type AlgorithmSpec,
  type Campaign,
  InputError,
  type InstanceSpec,
  type ResolvedCampaign,
} from "@ngcc-perf/runner";
import type { GroupSpec } from "./objects.ts";

/** The functions the ICCS API (iccs.h) declares. */
export const ICCS_FUNCTIONS: readonly string[] = ["pseudohash", "pseudoXOF", "sm3hash", "randombytes"];

export const NGCC_DEFAULT_GROUPS: GroupSpec[] = [
  { name: "hash", label: "pseudohash/XOF/sm3", symbols: ["pseudohash", "pseudoXOF", "sm3hash"], symbolLabels: {} },
  { name: "drng", label: "DRNG", symbols: ["randombytes"], symbolLabels: { randombytes: "drng" } },
];

/** A submission that calls no ICCS function: its randomness is ngcc-perf's plain NIST randombytes. */
export const PLAIN_DEFAULT_GROUPS: GroupSpec[] = [
  { name: "drng", label: "randombytes", symbols: ["randombytes"], symbolLabels: {} },
];

const shakeFns = (v: string) => [
  `${v}`,
  `${v}_absorb`,
  `${v}_squeezeblocks`,
  `${v}_ctx_release`,
  `${v}_ctx_clone`,
  `${v}_inc_init`,
  `${v}_inc_absorb`,
  `${v}_inc_finalize`,
  `${v}_inc_squeeze`,
  `${v}_inc_ctx_clone`,
  `${v}_inc_ctx_release`,
];
const sha3Fns = (v: string) => [
  `${v}`,
  `${v}_inc_init`,
  `${v}_inc_absorb`,
  `${v}_inc_finalize`,
  `${v}_inc_ctx_clone`,
  `${v}_inc_ctx_release`,
];
const sha2Fns = (v: string) => [
  `${v}`,
  `${v}_inc_init`,
  `${v}_inc_blocks`,
  `${v}_inc_finalize`,
  `${v}_inc_ctx_clone`,
  `${v}_inc_ctx_release`,
];

/** Every public function of PQClean's common/fips202.h and common/sha2.h (checked with nm). */
export const PQCLEAN_HASH_SYMBOLS: string[] = [
  ...shakeFns("shake128"),
  ...shakeFns("shake256"),
  ...sha3Fns("sha3_256"),
  ...sha3Fns("sha3_384"),
  ...sha3Fns("sha3_512"),
  ...sha2Fns("sha224"),
  ...sha2Fns("sha256"),
  ...sha2Fns("sha384"),
  ...sha2Fns("sha512"),
];

export const PQCLEAN_DEFAULT_GROUPS: GroupSpec[] = [
  { name: "hash", label: "fips202/sha2", symbols: PQCLEAN_HASH_SYMBOLS, symbolLabels: {} },
  { name: "drng", label: "DRNG", symbols: ["PQCLEAN_randombytes"], symbolLabels: { PQCLEAN_randombytes: "drng" } },
];

type ConfiguredGroups = NonNullable<Campaign["config"]["profiler"]>["groups"];
type AlgorithmProfiler = { groups: ConfiguredGroups; replaceCampaignGroups?: boolean };

/** What the submission's meta.json says about ICCS and its own profiler groups (a PQClean scheme has none). */
export interface MetaProfilerFacts {
  /** meta.json's iccs: its hash and DRNG symbols, or null when the submission calls no ICCS function. */
  iccs: { hash: string[]; drng: string[] } | null;
  profiler?: AlgorithmProfiler;
  file: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const SYMBOL = /^[A-Za-z_][A-Za-z0-9_]*$/;
const GROUP_NAME = /^[a-z][a-z0-9_]*$/;
const GROUP_KEYS = ["symbols", "label", "symbolLabels", "kind", "iccs"];
const KINDS = ["hash", "drng", "other"];

/** Checks an algorithm's profiler (meta.json's or the campaign's algorithms[].profiler); errors name the pointer. */
export function checkAlgorithmProfiler(v: unknown, where: string): AlgorithmProfiler {
  const bad = (pointer: string, expected: string) => new InputError(`${where}${pointer}: ${expected}`);
  if (!isObject(v)) throw bad("", "expected { groups: { <name>: { symbols: [...] } }, replaceCampaignGroups? }");
  for (const k of Object.keys(v))
    if (k !== "groups" && k !== "replaceCampaignGroups")
      throw bad(`/${k}`, "unknown field; expected one of groups, replaceCampaignGroups");
  if (v.replaceCampaignGroups !== undefined && typeof v.replaceCampaignGroups !== "boolean")
    throw bad("/replaceCampaignGroups", "expected true or false");
  if (!isObject(v.groups)) throw bad("/groups", "expected a mapping of group name → { symbols: [...] }");
  for (const [name, g] of Object.entries(v.groups)) {
    const at = `/groups/${name}`;
    if (!GROUP_NAME.test(name)) throw bad(at, "a group name is lower case letters, digits and _");
    if (!isObject(g)) throw bad(at, "expected { symbols: [...], label?, symbolLabels?, kind?, iccs? }");
    for (const k of Object.keys(g))
      if (!GROUP_KEYS.includes(k)) throw bad(`${at}/${k}`, `unknown field; expected one of ${GROUP_KEYS.join(", ")}`);
    if (!Array.isArray(g.symbols) || g.symbols.length === 0) throw bad(`${at}/symbols`, "expected a list of symbols");
    for (const [i, s] of g.symbols.entries())
      if (typeof s !== "string" || !SYMBOL.test(s)) throw bad(`${at}/symbols/${i}`, "expected a C identifier");
    if (g.label !== undefined && (typeof g.label !== "string" || g.label === ""))
      throw bad(`${at}/label`, "expected a non-empty string");
    if (g.symbolLabels !== undefined) {
      if (!isObject(g.symbolLabels)) throw bad(`${at}/symbolLabels`, "expected a mapping of symbol → label");
      for (const [s, l] of Object.entries(g.symbolLabels))
        if (typeof l !== "string") throw bad(`${at}/symbolLabels/${s}`, "expected a string");
    }
    if (g.kind !== undefined && !KINDS.includes(g.kind as string))
      throw bad(`${at}/kind`, `expected one of ${KINDS.join(", ")}`);
    if (g.iccs !== undefined && typeof g.iccs !== "boolean") throw bad(`${at}/iccs`, "expected true or false");
  }
  return v as unknown as AlgorithmProfiler;
}

/** The ICCS and profiler facts of a submission's meta.json, as the campaign's resolution read it (AlgorithmSpec.meta). */
export function metaProfilerFacts(read: AlgorithmSpec["meta"]): MetaProfilerFacts | null {
  if (!read) return null;
  const { path: file, json: meta } = read;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  const iccs = isObject(meta.iccs) ? { hash: list(meta.iccs.hash), drng: list(meta.iccs.drng) } : null;
  const facts: MetaProfilerFacts = {
    iccs,
    file,
    ...(meta.profiler !== undefined && meta.profiler !== null
      ? { profiler: checkAlgorithmProfiler(meta.profiler, `${file}: /profiler`) }
      : {}),
  };
  return facts;
}

/** The longest prefix ending in "_" that every symbol has and none is: what the calls column leaves out. */
export function commonSymbolPrefix(symbols: readonly string[]): string {
  if (symbols.length < 2) return "";
  let prefix = symbols[0] as string;
  for (const s of symbols) while (!s.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const cut = prefix.lastIndexOf("_");
  prefix = cut < 0 ? "" : prefix.slice(0, cut + 1);
  while (prefix && symbols.some((s) => s.length <= prefix.length)) {
    const shorter = prefix.slice(0, -1).lastIndexOf("_");
    prefix = shorter < 0 ? "" : prefix.slice(0, shorter + 1);
  }
  return prefix;
}

/** The calls column's names: explicit symbolLabels, else each symbol without its group's common prefix. */
export function shortLabels(symbols: readonly string[], explicit: Readonly<Record<string, string>>) {
  const prefix = commonSymbolPrefix(symbols);
  const labels: Record<string, string> = {};
  for (const s of symbols) {
    const l = explicit[s] ?? (prefix ? s.slice(prefix.length) : undefined);
    if (l !== undefined) labels[s] = l;
  }
  for (const [s, l] of Object.entries(explicit)) labels[s] ??= l;
  return labels;
}

function fromConfig(configured: ConfiguredGroups, source: NonNullable<GroupSpec["source"]>): GroupSpec[] {
  return Object.entries(configured).map(([name, g]) => ({
    name,
    ...(g.label ? { label: g.label } : {}),
    symbols: [...new Set(g.symbols)],
    symbolLabels: g.symbolLabels ?? {},
    ...(g.kind ? { kind: g.kind } : {}),
    ...(g.iccs !== undefined ? { iccs: g.iccs } : {}),
    source,
  }));
}

/** Adds groups to a list, a group of the same name replacing the one there (in its place). */
function overlay(base: GroupSpec[], extra: AlgorithmProfiler | undefined, source: "meta" | "algorithm") {
  if (!extra) return base;
  const groups = fromConfig(extra.groups, source);
  if (extra.replaceCampaignGroups) return groups;
  const out = base.map((g) => groups.find((x) => x.name === g.name) ?? g);
  for (const g of groups) if (!out.some((x) => x.name === g.name)) out.push(g);
  return out;
}

/** The group's kind and ICCS-ness, made explicit: ICCS only for a submission whose meta.json names ICCS functions. */
function settle(groups: GroupSpec[], iccsNames: ReadonlySet<string> | null): GroupSpec[] {
  const drng = drngGroup(groups);
  const settled = groups.map((g) => {
    const kind = g.kind ?? (g === drng ? "drng" : "hash");
    const iccs = g.iccs ?? (iccsNames !== null && g.symbols.every((s) => iccsNames.has(s)));
    return { ...g, kind, iccs, symbolLabels: shortLabels(g.symbols, g.symbolLabels), source: g.source ?? "default" };
  });
  // A shortened name that another symbol has (or is shown as) would read as that symbol: such a one keeps its name.
  const shown = new Map<string, number>();
  const see = (name: string) => shown.set(name, (shown.get(name) ?? 0) + 1);
  for (const g of settled) for (const s of g.symbols) see(g.symbolLabels[s] ?? s);
  const symbols = new Set(settled.flatMap((g) => g.symbols));
  return settled.map((g, i) => {
    const explicit = groups[i]?.symbolLabels ?? {};
    const labels = { ...g.symbolLabels };
    for (const s of g.symbols) {
      const l = labels[s];
      if (l === undefined || explicit[s] !== undefined) continue;
      if ((symbols.has(l) && l !== s) || (shown.get(l) ?? 0) > 1) delete labels[s];
    }
    return { ...g, symbolLabels: labels };
  });
}

/** The groups to wrap for an instance. */
export function groupsFor(campaign: ResolvedCampaign, spec: InstanceSpec): GroupSpec[] {
  const alg = campaign.config.algorithms.find((a) => a.id === spec.algorithmId);
  const meta = metaProfilerFacts(campaign.algorithms.find((a) => a.id === spec.algorithmId)?.meta ?? null);
  const configured = campaign.config.profiler?.groups;
  let groups: GroupSpec[];
  if (configured && Object.keys(configured).length > 0) groups = fromConfig(configured, "campaign");
  else if (spec.namespace.startsWith("PQCLEAN_")) groups = PQCLEAN_DEFAULT_GROUPS;
  else if (meta && meta.iccs === null) groups = PLAIN_DEFAULT_GROUPS;
  else groups = NGCC_DEFAULT_GROUPS;
  groups = overlay(groups, meta?.profiler, "meta");
  const algProfiler = (alg as { profiler?: AlgorithmProfiler } | undefined)?.profiler;
  groups = overlay(groups, algProfiler, "algorithm");
  const iccsNames = meta?.iccs ? new Set([...ICCS_FUNCTIONS, ...meta.iccs.hash, ...meta.iccs.drng]) : null;
  return settle(groups, iccsNames);
}

/** The group that holds the DRNG: the one of kind drng, else named drng, else the one holding randombytes. */
export function drngGroup(groups: readonly GroupSpec[]): GroupSpec | undefined {
  return (
    groups.find((g) => g.kind === "drng") ??
    groups.find((g) => g.name === "drng" && g.kind === undefined) ??
    groups.find((g) => g.kind === undefined && g.symbols.some((s) => /randombytes/i.test(s)))
  );
}

/** The hash (placeholder) groups: every group but the DRNG's (and any other group of kind drng). */
export function hashGroups(groups: readonly GroupSpec[]): GroupSpec[] {
  const d = drngGroup(groups);
  return groups.filter((g) => g !== d && g.kind !== "drng");
}

/**
 * The groups the survey counts as placeholders: the ICCS hash groups when there are any (a submission's own SHA-3
 * group beside them is its own code, not a placeholder), else every hash group (a library's hash functions, e.g.
 * PQClean's common/ fips202 and sha2, play the placeholders' part).
 */
export function placeholderGroups(groups: readonly GroupSpec[]): GroupSpec[] {
  const hash = hashGroups(groups).filter((g) => g.kind !== "other");
  const iccs = hash.filter((g) => g.iccs === true);
  return iccs.length > 0 ? iccs : hash;
}
