// Every package is installable on its own: pack each one, install its tarball (with the tarballs of the
// @ngcc-perf packages it depends on, as npm would fetch them) into an empty npm project, import its main
// export from plain Node ESM; for the CLI run `ngcc-perf --help`; for the runner build a real instance.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./fixture-tools.ts";

const PACKAGES = ["stats", "schema", "runner", "kat", "hashprof", "sizes", "report", "cli"] as const;
const tmp = mkdtempSync(join(tmpdir(), "ngcc-pack-all-"));
const tarballs = new Map<string, string>();
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function deps(name: string): string[] {
  const pkg = JSON.parse(readFileSync(join(repoRoot, "packages", name, "package.json"), "utf8"));
  return Object.keys(pkg.dependencies ?? {})
    .filter((d) => d.startsWith("@ngcc-perf/"))
    .map((d) => d.slice("@ngcc-perf/".length));
}

/** The package and every @ngcc-perf package it needs, transitively. */
function closure(name: string, seen = new Set<string>()): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  return [name, ...deps(name).flatMap((d) => closure(d, seen))];
}

beforeAll(() => {
  const dest = join(tmp, "tarballs");
  mkdirSync(dest);
  for (const name of PACKAGES) {
    const before = new Set(readdirSync(dest));
    execFileSync("pnpm", ["pack", "--pack-destination", dest], {
      cwd: join(repoRoot, "packages", name),
      stdio: "pipe",
    });
    const made = readdirSync(dest).find((f) => !before.has(f));
    if (!made) throw new Error(`pnpm pack made no tarball for ${name}`);
    tarballs.set(name, join(dest, made));
  }
}, 300_000);

function install(name: string): string {
  const project = join(tmp, `use-${name}`);
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: `use-${name}`, private: true, type: "module" }));
  const files = closure(name).map((n) => tarballs.get(n) as string);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...files], {
    cwd: project,
    stdio: "pipe",
  });
  return project;
}

describe.each(PACKAGES)("@ngcc-perf/%s installed alone", (name) => {
  it("imports its main export from plain ESM", () => {
    const project = install(name);
    writeFileSync(
      join(project, "check.mjs"),
      `const m = await import("@ngcc-perf/${name}");\nconsole.log(JSON.stringify(Object.keys(m).sort()));\n`,
    );
    const keys = JSON.parse(
      execFileSync(process.execPath, ["check.mjs"], { cwd: project, encoding: "utf8" }),
    ) as string[];
    expect(keys.length).toBeGreaterThan(0);
    if (name === "cli") {
      const help = execFileSync(join(project, "node_modules/.bin/ngcc-perf"), ["--help"], { encoding: "utf8" });
      expect(help).toMatch(/Usage: ngcc-perf <command>/);
      expect(keys).toContain("main");
    }
    if (name === "runner") {
      // The C sources travel inside the package: the counter probe builds and runs from the install.
      writeFileSync(
        join(project, "probe.mjs"),
        'import { probeCounter } from "@ngcc-perf/runner";\nconsole.log(JSON.stringify(await probeCounter("gcc")));\n',
      );
      const probe = JSON.parse(execFileSync(process.execPath, ["probe.mjs"], { cwd: project, encoding: "utf8" }));
      expect(probe.available).toContain("clock_gettime");
    }
  }, 300_000);
});
