// The dependency list in docs/architecture.md is the package.json files' @ngcc-perf dependencies, exactly; and no
// package's src has an import circle (files that import each other, directly or around a loop).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./fixture-tools.ts";
import { importCircles, importGraph, importSpecifiers } from "./import-graph.ts";

function documented(): Map<string, string[]> {
  const text = readFileSync(join(repoRoot, "docs/architecture.md"), "utf8");
  const block = /```deps\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error("docs/architecture.md has no ```deps block");
  const deps = new Map<string, string[]>();
  for (const line of block.split("\n")) {
    const m = /^(\S+)\s*->\s*([^(]*)/.exec(line);
    if (!m) continue;
    const list = (m[2] ?? "")
      .split(",")
      .map((d) => d.trim())
      .filter(Boolean);
    deps.set(m[1] as string, list.sort());
  }
  return deps;
}

function actual(): Map<string, string[]> {
  const deps = new Map<string, string[]>();
  const dir = join(repoRoot, "packages");
  for (const name of readdirSync(dir)) {
    let pkg: { name: string; dependencies?: Record<string, string> };
    try {
      pkg = JSON.parse(readFileSync(join(dir, name, "package.json"), "utf8"));
    } catch {
      continue;
    }
    const ours = Object.keys(pkg.dependencies ?? {})
      .filter((d) => d.startsWith("@ngcc-perf/"))
      .map((d) => d.slice("@ngcc-perf/".length));
    deps.set(pkg.name.slice("@ngcc-perf/".length), ours.sort());
  }
  return deps;
}

describe("docs/architecture.md", () => {
  it("lists every package with exactly the @ngcc-perf packages its package.json depends on", () => {
    expect(Object.fromEntries(documented())).toEqual(Object.fromEntries(actual()));
  });

  it("keeps the report free of the runner, the statistics free of everything, and every package free of cycles", () => {
    const deps = actual();
    expect(deps.get("report")).toEqual(["schema", "stats"]);
    expect(deps.get("stats")).toEqual([]);
    const visit = (p: string, path: string[]): void => {
      expect(path, `cycle ${[...path, p].join(" -> ")}`).not.toContain(p);
      for (const d of deps.get(p) ?? []) visit(d, [...path, p]);
    };
    for (const p of deps.keys()) visit(p, []);
  });
});

describe("import circles", () => {
  const packages = readdirSync(join(repoRoot, "packages")).sort();

  it("finds none in any package's src", () => {
    const found: Record<string, string[]> = {};
    for (const p of packages) {
      const circles = importCircles(importGraph(join(repoRoot, "packages", p, "src")));
      if (circles.length > 0) found[p] = circles;
    }
    expect(found).toEqual({});
  });

  it("reads the imports it checks (the runner's index reaches env-check/, the kat's expect.ts rsp.ts)", () => {
    const runner = importGraph(join(repoRoot, "packages/runner/src"));
    expect(runner.get("index.ts")).toContain("env-check/index.ts");
    expect(runner.get("env-check/index.ts")).toContain("env-check/governor.ts");
    expect(importGraph(join(repoRoot, "packages/kat/src")).get("expect.ts")).toContain("rsp.ts");
  });

  it("reports a circle of any length, through type-only imports, re-exports and folder indexes", () => {
    const dir = mkdtempSync(join(tmpdir(), "ngcc-circles-"));
    try {
      mkdirSync(join(dir, "sub"));
      writeFileSync(join(dir, "a.ts"), 'import { b } from "./b.ts";\nexport const a = b;\n');
      writeFileSync(join(dir, "b.ts"), 'export {\n  c as b,\n} from "./sub/index.ts";\n');
      writeFileSync(join(dir, "sub/index.ts"), 'import type { A } from "../a.ts";\nexport const c = 1;\n');
      writeFileSync(join(dir, "leaf.ts"), 'import { a } from "./a.ts";\nimport "./a.ts";\n');
      writeFileSync(join(dir, "self.ts"), 'export const s = () => import("./self.ts");\n');
      expect(importCircles(importGraph(dir))).toEqual([
        "a.ts -> b.ts -> sub/index.ts -> a.ts (3 files: a.ts, b.ts, sub/index.ts)",
        "self.ts -> self.ts (1 file: self.ts)",
      ]);
      rmSync(join(dir, "self.ts"));
      writeFileSync(join(dir, "sub/index.ts"), "export const c = 1;\n");
      expect(importCircles(importGraph(dir))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes only import and export clauses, not code or text that mentions `from`", () => {
    const text = [
      'import { x } from "./x.ts";',
      'const s = "y from \\"./y.ts\\"";',
      "export function f() {",
      '  return g(x) /* from "./z.ts" */;',
      "}",
      'export * as w from "./w.ts";',
      'import fs from "node:fs";',
    ].join("\n");
    expect(importSpecifiers(text)).toEqual(["./x.ts", "./w.ts"]);
  });
});
