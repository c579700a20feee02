// Issue 14, "Store integrity", end to end through the built `ngcc-perf` on copies of the committed seed store: an
// edited record (meanNs × 1000, still schema-valid) is named by validate, refused by report and merge with nothing
// written; a deleted record is named "deleted" rather than shown as not measured; a stray record is "not indexed";
// an edit whose hash was fixed in index.json by hand is still caught by the figures' identities; `ngcc-perf index`
// refuses the contradictory edit, and after a deliberate, consistent edit makes validate, report and merge pass.
import { createHash } from "node:crypto";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixturesDir, makeTempDir, runCli } from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-store-integrity-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => {
  const r = runCli(args, 120_000);
  return { ...r, all: r.stdout + r.stderr };
};
const STACK = /\n\s+at .+\(.*:\d+:\d+\)|node:internal/;
const KEYGEN = "records/kem-22/guide/Mithril-128__keygen.json";

let n = 0;
function store(): { root: string; dir: string } {
  const root = join(tmp, `store-${n++}`);
  cpSync(join(fixturesDir, "seed-store"), root, { recursive: true });
  return { root, dir: join(root, "data", "arm_1") };
}
// biome-ignore lint/suspicious/noExplicitAny: records are edited untyped here.
type Rec = any;
const readJson = (p: string): Rec => JSON.parse(readFileSync(p, "utf8"));
const writeJson = (p: string, v: unknown) => writeFileSync(p, `${JSON.stringify(v, null, 2)}\n`);
function editMean(file: string, factor: number, fixOps: boolean): void {
  const r = readJson(file);
  r.aggregates.meanNs *= factor;
  if (fixOps) r.aggregates.opsPerSecond = 1e9 / r.aggregates.meanNs;
  writeJson(file, r);
}

describe("store integrity (issue 14)", () => {
  it("an edited record fails validate, report and merge, naming the file; nothing is written", () => {
    const { root, dir } = store();
    const file = join(dir, KEYGEN);
    editMean(file, 1000, false);
    expect(cli("validate", file).stdout).not.toMatch(/must be/); // still schema-valid

    const v = cli("validate", root);
    expect(v.code).toBe(2);
    expect(v.stdout).toContain(`${file}: changed since the index was written`);
    expect(v.all).not.toMatch(STACK);

    const site = join(tmp, "site-edited");
    const r = cli("report", root, "--out", site);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: changed since the index was written`);
    expect(r.stderr).toContain("ngcc-perf index");
    expect(r.all).not.toMatch(STACK);
    expect(existsSync(join(site, "site"))).toBe(false);

    const merged = join(tmp, "merged-edited");
    const m = cli("merge", root, store().root, "--out", merged);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain(`${file}: changed since the index was written`);
    expect(m.all).not.toMatch(STACK);
    expect(existsSync(merged)).toBe(false);
  });

  it("a deleted record is named as deleted, not shown as not measured; a stray record is not indexed", () => {
    const a = store();
    const gone = join(a.dir, "records/kem-22/guide/Mithril-256__enc.json");
    rmSync(gone);
    for (const args of [
      ["validate", a.root],
      ["report", a.root, "--out", join(tmp, "site-deleted")],
      ["merge", a.root, "--out", join(tmp, "merged-deleted")],
    ]) {
      const r = cli(...args);
      expect(r.code, args[0]).toBe(2);
      expect(r.all, args[0]).toContain(`${gone}: deleted: index.json lists it`);
    }
    expect(existsSync(join(tmp, "site-deleted", "site"))).toBe(false);
    expect(existsSync(join(tmp, "merged-deleted"))).toBe(false);

    const b = store();
    const stray = join(b.dir, "kat/kem-22/guide/Mithril-128.log");
    writeFileSync(stray, "a KAT log nobody indexed\n");
    for (const args of [
      ["validate", b.root],
      ["report", b.root, "--out", join(tmp, "site-stray")],
    ]) {
      const r = cli(...args);
      expect(r.code, args[0]).toBe(2);
      expect(r.all, args[0]).toContain(
        `${stray}: not indexed: the file is in the store, but index.json does not list it`,
      );
    }
  });

  it("an edit whose hash was fixed in index.json by hand is caught by the figures' identities", () => {
    const { root, dir } = store();
    const file = join(dir, KEYGEN);
    editMean(file, 1000, true);
    const index = readJson(join(dir, "index.json"));
    const data = readFileSync(file);
    Object.assign(
      index.files.find((f: Rec) => f.path === KEYGEN),
      { sha256: createHash("sha256").update(data).digest("hex"), bytes: data.length },
    );
    writeJson(join(dir, "index.json"), index);
    const identity =
      /Mithril-128__keygen\.json:\d+:\d+ \/aggregates\/meanNs is 100806477\.\d+, but Σ ns \/ n of the trials = 100806\.\d+/;
    for (const args of [
      ["validate", root],
      ["report", root, "--out", join(tmp, "site-rehashed")],
      ["merge", root, "--out", join(tmp, "merged-rehashed")],
      ["index", root],
    ]) {
      const r = cli(...args);
      expect(r.code, args[0]).toBe(2);
      expect(r.all, args[0]).toMatch(identity);
      expect(r.all, args[0]).not.toContain("changed since the index was written");
    }
    expect(existsSync(join(tmp, "merged-rehashed"))).toBe(false);
  });

  it("after a deliberate, consistent edit, `ngcc-perf index` makes validate, report and merge pass", () => {
    const { root, dir } = store();
    const file = join(dir, KEYGEN);
    const r = readJson(file);
    r.memory.peakRssKiB = 1600;
    r.provenance.note = "peak RSS corrected by hand";
    writeJson(file, r);
    expect(cli("validate", root).code).toBe(2);
    const i = cli("index", root);
    expect(i.code, i.all).toBe(0);
    expect(i.stderr).toMatch(new RegExp(`\\n  changed +${KEYGEN}\\n`));
    expect(cli("validate", root).code).toBe(0);
    const site = join(tmp, "site-reindexed");
    const rep = cli("report", root, "--out", site, "--format", "md");
    expect(rep.code, rep.all).toBe(0);
    expect(readFileSync(join(site, "site", "arm_1", "kem-22.md"), "utf8")).toContain("1600");
    const merged = join(tmp, "merged-reindexed");
    const m = cli("merge", root, "--out", merged);
    expect(m.code, m.all).toBe(0);
    expect(cli("validate", merged).code).toBe(0);
  });
});
