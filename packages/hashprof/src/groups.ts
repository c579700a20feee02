// The profiler's symbol groups: the campaign's `profiler.groups`, else the defaults for the kind of
// submission (NGCC: the ICCS placeholders and the DRNG; PQClean: its common/ fips202 and sha2 functions and
// PQCLEAN_randombytes).
import type { Campaign, InstanceSpec } from "@ngcc-perf/runner";
import type { GroupSpec } from "./objects.ts";

export const NGCC_DEFAULT_GROUPS: GroupSpec[] = [
  { name: "hash", label: "pseudohash/XOF/sm3", symbols: ["pseudohash", "pseudoXOF", "sm3hash"], symbolLabels: {} },
  { name: "drng", label: "DRNG", symbols: ["randombytes"], symbolLabels: { randombytes: "drng" } },
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

/** The groups to wrap for an instance. */
export function groupsFor(campaign: Campaign, spec: InstanceSpec): GroupSpec[] {
  const configured = campaign.config.profiler?.groups;
  if (configured && Object.keys(configured).length > 0) {
    return Object.entries(configured).map(([name, g]) => ({
      name,
      ...(g.label ? { label: g.label } : {}),
      symbols: [...new Set(g.symbols)],
      symbolLabels: g.symbolLabels ?? {},
    }));
  }
  return spec.namespace.startsWith("PQCLEAN_") ? PQCLEAN_DEFAULT_GROUPS : NGCC_DEFAULT_GROUPS;
}

/** The group that holds the DRNG: named drng, else the one holding randombytes. */
export function drngGroup(groups: readonly GroupSpec[]): GroupSpec | undefined {
  return groups.find((g) => g.name === "drng") ?? groups.find((g) => g.symbols.some((s) => /randombytes/i.test(s)));
}

/** The hash (placeholder) groups: every group but the DRNG's. */
export function hashGroups(groups: readonly GroupSpec[]): GroupSpec[] {
  const d = drngGroup(groups);
  return groups.filter((g) => g !== d);
}
