// @ngcc-perf/schema is installed on its own by other projects: pack it and its one @ngcc-perf dependency,
// @ngcc-perf/stats, install the tarballs with plain npm into an empty project (as npm would fetch them), and use it
// from plain Node ESM. Also run publint over both packages.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const schemaPkg = join(repo, "packages", "schema");
const statsPkg = join(repo, "packages", "stats");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-pack-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("@ngcc-perf/schema from a plain npm project", () => {
  it.each([
    ["schema", schemaPkg],
    ["stats", statsPkg],
  ])("publint finds nothing in @ngcc-perf/%s", (_, pkg) => {
    const r = spawnSync(process.execPath, [join(repo, "node_modules/publint/src/cli.js"), "--strict", pkg], {
      encoding: "utf8",
    });
    expect(r.stdout + r.stderr).not.toMatch(/warning|error|suggestion/i);
    expect(r.status).toBe(0);
  });

  it("installs from its tarball and validates a record from plain ESM", () => {
    for (const pkg of [schemaPkg, statsPkg])
      execFileSync("pnpm", ["pack", "--pack-destination", tmp], { cwd: pkg, stdio: "pipe" });
    const tarballs = readdirSync(tmp).filter((f) => f.endsWith(".tgz"));
    expect(tarballs).toHaveLength(2);
    const project = join(tmp, "consumer");
    execFileSync("mkdir", ["-p", project]);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    const files = tarballs.map((t) => join(tmp, t));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...files], {
      cwd: project,
      stdio: "pipe",
    });
    const record = readFileSync(join(schemaPkg, "examples", "timing.json"), "utf8");
    writeFileSync(join(project, "record.json"), record);
    writeFileSync(
      join(project, "check.mjs"),
      [
        'import { readFileSync } from "node:fs";',
        'import { createRequire } from "node:module";',
        'import { validate, validateText } from "@ngcc-perf/schema";',
        "const require = createRequire(import.meta.url);",
        'const schemaPath = require.resolve("@ngcc-perf/schema/schemas/timing.schema.json");',
        'const schema = JSON.parse(readFileSync(schemaPath, "utf8"));',
        'const record = JSON.parse(readFileSync("record.json", "utf8"));',
        'const ok = validate("timing", record);',
        'record.memory.peakRssKiB = "big";',
        'const bad = validateText(JSON.stringify(record, null, 2), "r.json");',
        "console.log(JSON.stringify({ id: schema.$id, ok: ok.valid, bad: bad.errors }));",
      ].join("\n"),
    );
    const out = JSON.parse(execFileSync(process.execPath, ["check.mjs"], { cwd: project, encoding: "utf8" }));
    expect(out.id).toBe("https://ngcc-perf.dev/schemas/v1/timing.schema.json");
    expect(out.ok).toBe(true);
    expect(out.bad).toEqual([
      expect.objectContaining({ pointer: "/memory/peakRssKiB", message: "must be integer", line: expect.any(Number) }),
    ]);
  }, 180_000);
});
