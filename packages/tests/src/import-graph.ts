// The import graph of a package's src: which of its own files each file imports (relative specifiers only, type-only
// imports and re-exports included: a circle of types is still a circle of concerns), and the circles in it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** file (relative to the src folder, with "/") → the files of the same folder tree it imports. */
export type ImportGraph = Map<string, string[]>;

// A top-level import or export with a `from` (biome puts each at the start of a line; the clause between holds only
// names, braces, commas, `*`, `as` and `type`), a bare `import "x"`, and a dynamic `import("x")`.
const FROM = /^(?:import|export)\s[\w$*{},\s]*?\bfrom\s*["']([^"']+)["']/gm;
const BARE = /^import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The relative specifiers a TypeScript file's text imports or re-exports from. */
export function importSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const re of [FROM, BARE, DYNAMIC]) for (const m of text.matchAll(re)) out.push(m[1] as string);
  return out.filter((s) => s.startsWith("."));
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** Where a relative specifier leads: the file itself, with .ts for .js, or the folder's index.ts. */
function target(from: string, spec: string, files: Set<string>): string | null {
  const p = resolve(dirname(from), spec);
  for (const c of [p, p.replace(/\.js$/, ".ts"), `${p}.ts`, join(p, "index.ts")]) if (files.has(c)) return c;
  return null;
}

/** The import graph of every .ts file under `srcDir` (tests included: nothing may import them). */
export function importGraph(srcDir: string): ImportGraph {
  const files = existsSync(srcDir) ? tsFiles(srcDir) : [];
  const set = new Set(files);
  const name = (f: string) => relative(srcDir, f).split("\\").join("/");
  const graph: ImportGraph = new Map();
  for (const f of files) {
    const deps = new Set<string>();
    for (const spec of importSpecifiers(readFileSync(f, "utf8"))) {
      const t = target(f, spec, set);
      if (t !== null) deps.add(name(t));
    }
    graph.set(name(f), [...deps].sort());
  }
  return graph;
}

/**
 * The import circles of a graph: each strongly connected component of more than one file (or a file that imports
 * itself), as one circle through all of it written "a -> b -> … -> a", starting at its first file by name.
 */
export function importCircles(graph: ImportGraph): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const c: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(c.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((c) => circleThrough(graph, c)).sort();
}

/** A path from the component's first file back to it, within the component (breadth first: a shortest one). */
function circleThrough(graph: ImportGraph, component: string[]): string {
  const start = component[0] as string;
  const inside = new Set(component);
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(from.get(path[0] as string) as string);
        return `${[...path, start].join(" -> ")} (${component.length === 1 ? "1 file" : `${component.length} files`}: ${component.join(", ")})`;
      }
      if (inside.has(w) && !from.has(w) && w !== start) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return component.join(", ");
}
