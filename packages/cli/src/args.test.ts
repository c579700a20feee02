// The campaign commands' path and shard arguments, in process (issue 25, item 7): `--out ''` would write the
// store into the current folder, and `--shard 1/99999999999999999999` was accepted (Number rounds it).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseShard } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "./index.ts";
import { checkOutDir } from "./out-dir.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-cli-args-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the CLI in process from `cwd`; its exit code and what it printed on stderr. */
async function cli(cwd: string, ...argv: string[]): Promise<{ code: number; err: string }> {
  const lines: string[] = [];
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(argv, { out: () => {}, err: (l) => lines.push(l) });
    return { code, err: lines.join("\n") };
  } finally {
    process.chdir(before);
  }
}

function campaignIn(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "campaign.yaml");
  writeFileSync(file, "name: args\nsystem: test_1\nalgorithms:\n  - { id: kem-1, source: { submission: missing } }\n");
  return file;
}

describe("--out", () => {
  it("refuses an empty or blank path, naming the flag", () => {
    for (const out of ["", "   ", "\t"]) {
      expect(() => checkOutDir(out)).toThrow(/^--out "[^"]*": expected a non-empty path/);
    }
    expect(() => checkOutDir("", "the default --out")).toThrow(/^the default --out "": expected a non-empty path/);
    expect(checkOutDir(join(tmp, "fresh"))).toBe(join(tmp, "fresh"));
  });

  it("run --out '' exits 2 and writes nothing into the current folder", async () => {
    const dir = join(tmp, "run-empty-out");
    const file = campaignIn(dir);
    for (const command of ["run", "kat", "time", "sizes", "profile"]) {
      const r = await cli(dir, command, file, "--out", "");
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(new RegExp(`^ngcc-perf ${command}: --out "": expected a non-empty path`));
    }
    expect(readdirSync(dir)).toEqual(["campaign.yaml"]);
  });

  it("report, compare and merge refuse --out '' too", async () => {
    const dir = join(tmp, "other-empty-out");
    mkdirSync(dir);
    for (const argv of [
      ["report", dir, "--out", " "],
      ["compare", dir, dir, "--out", ""],
      ["merge", dir, "--out", ""],
    ]) {
      const r = await cli(dir, ...argv);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/--out "\s*": expected a non-empty path/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("--shard", () => {
  it("parses K/N with 1 ≤ K ≤ N ≤ 65536 and nothing else", () => {
    expect(parseShard("1/1")).toEqual({ index: 1, count: 1 });
    expect(parseShard("3/4")).toEqual({ index: 3, count: 4 });
    expect(parseShard(" 2/65536 ")).toEqual({ index: 2, count: 65536 });
    for (const bad of [
      "1/99999999999999999999",
      "99999999999999999999/99999999999999999999",
      "1/9007199254740993",
      "1/65537",
      "0/3",
      "4/3",
      "1/0",
      "1.5/3",
      "1/3.0",
      "-1/3",
      "+1/3",
      "1e3/2e3",
      "0x1/0x2",
      "1/",
      "/3",
      "1:3",
      "",
    ]) {
      expect(parseShard(bad), bad).toBeNull();
    }
  });

  it("run exits 2 naming the flag and what it expects", async () => {
    const dir = join(tmp, "shard");
    const file = campaignIn(dir);
    for (const shard of ["1/99999999999999999999", "0/3", "4/3", "1/0", "1.5/3"]) {
      const r = await cli(dir, "run", file, "--shard", shard, "--out", join(dir, "out"));
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(`--shard takes K/N, whole numbers with 1 ≤ K ≤ N ≤ 65536 (e.g. 2/4), not "${shard}"`);
    }
    expect(readdirSync(dir)).toEqual(["campaign.yaml"]);
  });
});
