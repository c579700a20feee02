// The dependency list in docs/architecture.md is the package.json files' @ngcc-perf dependencies, exactly.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./fixture-tools.ts";

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

  it("keeps the report free of the runner and every package free of cycles", () => {
    const deps = actual();
    expect(deps.get("report")).toEqual(["schema"]);
    const visit = (p: string, path: string[]): void => {
      expect(path, `cycle ${[...path, p].join(" -> ")}`).not.toContain(p);
      for (const d of deps.get(p) ?? []) visit(d, [...path, p]);
    };
    for (const p of deps.keys()) visit(p, []);
  });
});
