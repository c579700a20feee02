// Sources and include folders when no build system says them (the folder fallback): the set folder's .c files and
// those of the shared folders whose headers the set includes — with "…" or with <…> when the header is the
// package's own (it resolves inside the package) — or that have no header of their own and include the set's.
import { basename, dirname, join } from "node:path";
import { filesIn, isFile, readSome, stripComments } from "./util.ts";

export interface SourcePlan {
  sources: string[];
  includeDirs: string[];
  /** Headers the sources include (found in the set and shared folders). */
  headers: string[];
  leftOut: Array<{ file: string; why: string }>;
  randombytesSource?: string;
}

/** The headers a file includes, "…" and <…> (the caller keeps those found inside the package). */
export const includesOf = (text: string) =>
  [...stripComments(text).matchAll(/^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)/gm)].map((m) => ({
    name: (m[1] ?? m[2]) as string,
    angle: m[2] !== undefined,
  }));

/** A textual first guess (the objects' symbols decide later): a definition of randombytes or a renamed one. */
export function definesRandombytes(text: string): boolean {
  return /\b(?:\w+_)?randombytes\s*\([^;{)]*\)\s*\{/.test(stripComments(text));
}

export function definesMain(text: string): boolean {
  return /\bint\s+main\s*\([^;{)]*\)\s*\{/.test(stripComments(text));
}

export function planSources(setDir: string, shared: string[]): SourcePlan {
  const searchDirs = [setDir, ...shared];
  const find = (inc: { name: string; angle: boolean }, from: string): string | null => {
    for (const d of inc.angle ? searchDirs : [from, ...searchDirs]) {
      const p = join(d, inc.name);
      if (isFile(p)) return p;
    }
    return null;
  };
  const leftOut: SourcePlan["leftOut"] = [];
  let randombytesSource: string | undefined;
  // The submitter's randombytes stays a candidate: its object's symbols decide (a macro may rename it).
  const candidate = (file: string): boolean => {
    const text = readSome(file);
    if (definesMain(text)) {
      leftOut.push({ file, why: "defines main (a test or KAT program, not the scheme)" });
      return false;
    }
    return true;
  };
  const own = filesIn(setDir, ".c").filter(candidate);
  const reachCache = new Map<string, Set<string>>();
  const reach = (root: string): Set<string> => {
    const cached = reachCache.get(root);
    if (cached) return cached;
    const found = new Set<string>();
    const queue = [root];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      for (const inc of includesOf(readSome(file))) {
        const p = find(inc, dirname(file));
        if (!p || found.has(p) || p === root) continue;
        found.add(p);
        queue.push(p);
      }
    }
    reachCache.set(root, found);
    return found;
  };
  const headers = new Set<string>();
  const includedC = new Set<string>();
  const add = (file: string) => {
    for (const p of reach(file)) (p.endsWith(".c") ? includedC : headers).add(p);
  };
  own.forEach(add);
  const stems = new Set(searchDirs.flatMap((d) => filesIn(d, ".h")).map((h) => basename(h, ".h")));
  const sources = [...own];
  const usedDirs = new Set<string>([setDir]);
  const considered = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of shared) {
      const dirUsed = [...headers].some((h) => dirname(h) === d);
      for (const c of filesIn(d, ".c")) {
        if (considered.has(c) || includedC.has(c)) continue;
        const stem = basename(c, ".c");
        const reachesSet = [...reach(c)].some((h) => dirname(h) === setDir);
        const headerReached = [...headers].some((h) => basename(h, ".h") === stem);
        if (!(headerReached || (!stems.has(stem) && (dirUsed || reachesSet)))) continue;
        considered.add(c);
        changed = true;
        if (!candidate(c)) continue;
        sources.push(c);
        add(c);
      }
    }
  }
  for (const h of headers) {
    const d = dirname(h);
    if (shared.includes(d)) usedDirs.add(d);
  }
  for (const c of sources) usedDirs.add(dirname(c));
  return {
    sources: sources.filter((c) => !includedC.has(c)),
    includeDirs: searchDirs.filter((d) => usedDirs.has(d)),
    headers: [...headers].sort(),
    leftOut,
    ...(randombytesSource ? { randombytesSource } : {}),
  };
}

/** The package's headers a set of sources reaches ("…" and <…> found in `dirs`), for reading their text. */
export function headersReached(sources: string[], dirs: string[]): string[] {
  const found = new Set<string>();
  const queue = [...sources];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    for (const inc of includesOf(readSome(file))) {
      for (const d of inc.angle ? dirs : [dirname(file), ...dirs]) {
        const p = join(d, inc.name);
        if (!isFile(p)) continue;
        if (!found.has(p) && !sources.includes(p)) {
          found.add(p);
          queue.push(p);
        }
        break;
      }
    }
  }
  return [...found].sort();
}
