// Names: the algorithm's from its CRYPTO_ALGNAMEs (what they share, cut back to a word boundary — never a
// truncated word), an instance's from its CRYPTO_ALGNAME, its build variables' values or its program, never from a
// layout folder (include, src, ref, Reference_Implementation …).
import { isValidName } from "@ngcc-perf/schema";
import { LAYOUT_FOLDER } from "./layout.ts";

const SEP = /[-_ .+]/;
const kind = (c: string) => (/\d/.test(c) ? "digit" : /[A-Za-z]/.test(c) ? "letter" : "other");

/** Is position i of every name a word boundary (an end, a separator, or a letter/digit change)? */
function boundary(names: string[], i: number): boolean {
  return names.every((n) => {
    if (i === 0) return false;
    if (i >= n.length) return true;
    const a = n[i - 1] as string;
    const b = n[i] as string;
    return SEP.test(a) || SEP.test(b) || kind(a) !== kind(b);
  });
}

/** The algorithm's name: its one CRYPTO_ALGNAME, or what the sets' names share, ending at a word boundary. */
export function algorithmName(algnames: string[]): string | null {
  const names = [...new Set(algnames)];
  if (names.length === 1) return names[0] as string;
  if (names.length === 0) return null;
  let i = 0;
  const first = names[0] as string;
  while (i < first.length && names.every((n) => n[i] === first[i])) i++;
  while (i > 0 && !boundary(names, i)) i--;
  const p = first.slice(0, i).replace(/[-_ .]+$/, "");
  return p.length >= 2 ? p : null;
}

/** A name made valid for meta.json (letters, digits, `.`, `_`, `+`, `-`; a letter or digit first). */
export function validName(s: string): string {
  return s
    .replace(/[^A-Za-z0-9._+-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .replace(/-+$/, "");
}

/** Is this a folder name of the layout rather than a parameter set's? */
export const isLayoutName = (s: string) => LAYOUT_FOLDER.test(s);

/**
 * Instance names: each set's CRYPTO_ALGNAME when they are distinct (its label first with preferLabel: a
 * parameter-set folder's name), else its label (variable values, program or
 * folder) when those are distinct and not layout folders, else both joined; duplicates numbered.
 */
export function instanceNames(
  sets: Array<{ algname?: string; label: string; fallback: string }>,
  preferLabel = false,
): string[] {
  const alg = sets.map((s) => (s.algname ? validName(s.algname) : ""));
  const labels = sets.map((s) => validName(isLayoutName(s.label) ? "" : s.label));
  const distinct = (xs: string[]) => xs.every((x) => x && isValidName(x)) && new Set(xs).size === xs.length;
  let names: string[];
  if (preferLabel && distinct(labels)) names = labels;
  else if (distinct(alg)) names = alg;
  else if (distinct(labels)) names = labels;
  else names = sets.map((s, k) => validName([alg[k], labels[k]].filter(Boolean).join("-") || s.fallback) || "instance");
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n}-${k}`;
  });
}
