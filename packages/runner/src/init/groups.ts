// Profiler groups proposed from the kept objects' symbols: the submission's own SHA-3/SHAKE, SHA-2, AES, SM3 and
// ChaCha (the primitive's own functions, not the scheme's wrappers that call them), the ICCS placeholders, and the
// randombytes the code calls (a macro-renamed one by its symbol).
import type { UnitSymbols } from "./units.ts";

/** A profiler group as meta.json's `profiler.groups` holds it. */
export interface InitGroup {
  symbols: string[];
  label: string;
  kind: "hash" | "drng" | "other";
}

export const ICCS_HASH = ["sm3hash", "pseudohash", "pseudoXOF"];

const PRIMITIVES: Array<{ group: string; label: string; kind: InitGroup["kind"]; re: RegExp }> = [
  { group: "sha3", label: "SHA-3/SHAKE (the submission's own)", kind: "hash", re: /keccak|shake|sha3|fips202/i },
  {
    group: "sha2",
    label: "SHA-2 (the submission's own)",
    kind: "hash",
    re: /sha2(24|56)|sha384|sha512|sha2_|^sha2$/i,
  },
  { group: "aes", label: "AES (the submission's own)", kind: "other", re: /aes/i },
  { group: "sm3", label: "SM3 (the submission's own)", kind: "hash", re: /sm3/i },
  { group: "chacha", label: "ChaCha (the submission's own)", kind: "other", re: /chacha|salsa20/i },
];

export interface ObjectSymbols {
  /** Function symbol -> the source defining it. */
  defined: Map<string, string>;
  undefined: Set<string>;
  /** Source -> the symbols its object uses but does not define. */
  uses: Map<string, Set<string>>;
}

export function objectSymbols(units: Iterable<UnitSymbols>): ObjectSymbols {
  const out: ObjectSymbols = { defined: new Map(), undefined: new Set(), uses: new Map() };
  const all = new Set<string>();
  for (const u of units) {
    for (const sym of u.functions) if (!out.defined.has(sym)) out.defined.set(sym, u.source);
    for (const sym of u.defined) all.add(sym);
    for (const sym of u.used) out.undefined.add(sym);
    out.uses.set(u.source, new Set([...(out.uses.get(u.source) ?? []), ...u.used]));
  }
  for (const sym of all) out.undefined.delete(sym);
  return out;
}

export function proposeGroups(
  symbols: ObjectSymbols,
  iccs: { hash: string[]; drng: string[] } | null,
  randombytes: string[] = ["randombytes", "PQCLEAN_randombytes"],
): Record<string, InitGroup> {
  const groups: Record<string, InitGroup> = {};
  for (const p of PRIMITIVES) {
    const matching = [...symbols.defined.entries()].filter(([s]) => p.re.test(s) && !(iccs && ICCS_HASH.includes(s)));
    const wrapper = (src: string) =>
      [...(symbols.uses.get(src) ?? [])].some((u) => p.re.test(u) && symbols.defined.has(u));
    const own = matching.filter(([, src]) => !wrapper(src));
    const chosen = (own.length > 0 ? own : matching).map(([s]) => s).sort();
    if (chosen.length > 0) groups[p.group] = { symbols: chosen, label: p.label, kind: p.kind };
  }
  if (iccs) {
    if (iccs.hash.length > 0)
      groups.hash = { symbols: iccs.hash, label: "ICCS placeholder hash functions", kind: "hash" };
    if (iccs.drng.length > 0) groups.drng = { symbols: iccs.drng, label: "ICCS DRNG", kind: "drng" };
  } else {
    const rng = [...new Set(randombytes)].filter((s) => symbols.undefined.has(s));
    if (rng.length > 0) groups.drng = { symbols: rng, label: "randombytes", kind: "drng" };
  }
  return groups;
}
