// Store integrity on copies of the committed seed store: a clean copy matches its index; an edited, deleted or
// added record, a missing, invalid or foreign index and bad index entries are each named with their path; the
// identities of timing records catch an edit whose hash was fixed in the index by hand; nothing throws.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkStoreIntegrity,
  checkSystemIntegrity,
  formatFindings,
  type IntegrityFinding,
  storeFiles,
  systemDirsOf,
  timingIdentities,
} from "./integrity.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const seed = join(repo, "fixtures", "seed-store");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-integrity-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const KEYGEN = "records/kem-22/guide/Mithril-128__keygen.json";

// biome-ignore lint/suspicious/noExplicitAny: records are edited untyped here.
type Rec = any;
const readJson = (p: string): Rec => JSON.parse(readFileSync(p, "utf8"));
const writeJson = (p: string, v: unknown) => writeFileSync(p, `${JSON.stringify(v, null, 2)}\n`);

let n = 0;
/** A fresh copy of the seed store; returns its system folder data/arm_1. */
function copy(): string {
  const root = join(tmp, `store-${n++}`);
  cpSync(seed, root, { recursive: true });
  return join(root, "data", "arm_1");
}

const problems = (findings: IntegrityFinding[]) => findings.map((f) => `${f.problem} ${f.path}`);

/** Rebuilds the index's file list by hand (what a person fixing the hash in index.json does). */
function rehash(dir: string): void {
  const index = readJson(join(dir, "index.json"));
  index.files = storeFiles(dir);
  writeJson(join(dir, "index.json"), index);
}

describe("checkSystemIntegrity", () => {
  it("finds nothing in the committed stores, whose index lists exactly the files a walk finds", () => {
    for (const dir of [join(seed, "data", "arm_1"), join(repo, "fixtures", "rounding-store", "data", "edge_1")]) {
      const r = checkSystemIntegrity(dir);
      expect(r.findings, dir).toEqual([]);
      expect(r.index?.files).toEqual(r.files);
    }
    expect(storeFiles(join(seed, "data", "arm_1"))).toHaveLength(212);
  });

  it("names a record edited after the index was written (meanNs × 1000, still schema-valid)", () => {
    const dir = copy();
    const r = readJson(join(dir, KEYGEN));
    r.aggregates.meanNs *= 1000;
    writeJson(join(dir, KEYGEN), r);
    const result = checkSystemIntegrity(dir);
    expect(problems(result.findings)).toEqual([
      `changed ${KEYGEN}`,
      `inconsistent ${KEYGEN}`, // meanNs ≠ Σ ns / n
      `inconsistent ${KEYGEN}`, // opsPerSecond ≠ 1e9 / meanNs
    ]);
    const [changed] = result.findings;
    expect(changed?.message).toMatch(
      /^changed since the index was written: SHA-256 [0-9a-f]{16}…, the index says [0-9a-f]{16}…$/, // same size
    );
    const lines = formatFindings(result, "store/data/arm_1");
    expect(lines[0]).toBe(`store/data/arm_1/${KEYGEN}: ${changed?.message}`);
    expect(lines[1]).toMatch(
      /^store\/data\/arm_1\/records\/kem-22\/guide\/Mithril-128__keygen\.json:\d+:\d+ \/aggregates\/meanNs is 100806477\.2\d*, but Σ ns \/ n of the trials = 100806\.477\d* \(the figures contradict each other: edited by hand\?\)$/,
    );
    expect(lines[2]).toMatch(/ \/aggregates\/opsPerSecond is 9919\.99\d*, but 1e9 \/ meanNs = 9\.919\d*/);
    // Without the identities only the hash speaks.
    expect(problems(checkSystemIntegrity(dir, { consistency: false }).findings)).toEqual([`changed ${KEYGEN}`]);
  });

  it("catches an edit whose hash was also fixed in the index by hand, by the identities alone", () => {
    const dir = copy();
    const r = readJson(join(dir, KEYGEN));
    r.aggregates.meanNs *= 1000;
    r.aggregates.opsPerSecond = 1e9 / r.aggregates.meanNs; // the edit made self-consistent as far as it goes
    writeJson(join(dir, KEYGEN), r);
    rehash(dir);
    const result = checkSystemIntegrity(dir);
    expect(problems(result.findings)).toEqual([`inconsistent ${KEYGEN}`]);
    expect(result.findings[0]?.pointer).toBe("/aggregates/meanNs");
    expect(result.findings[0]?.line).toBeGreaterThan(1);
  });

  it("names a deleted record, a record the index does not list, and a changed size", () => {
    const dir = copy();
    rmSync(join(dir, "records/kem-22/guide/Mithril-256__dec.json"));
    writeFileSync(
      join(dir, "records/kem-22/guide/Mithril-1024__dec.json"),
      readFileSync(join(dir, "records/kem-22/guide/Mithril-512__dec.json")),
    );
    writeFileSync(join(dir, "environment.json"), `${readFileSync(join(dir, "environment.json"), "utf8")}\n`);
    // Not part of the layout, so not part of the index: ignored, as are temporaries and dot-files.
    writeFileSync(join(dir, "records/kem-22/notes.txt"), "x");
    writeFileSync(join(dir, "records/kem-22/guide/Mithril-128__enc.json.123.1.tmp"), "{");
    writeFileSync(join(dir, ".DS_Store"), "x");
    const result = checkSystemIntegrity(dir);
    expect(problems(result.findings)).toEqual([
      "changed environment.json",
      "not-indexed records/kem-22/guide/Mithril-1024__dec.json",
      "deleted records/kem-22/guide/Mithril-256__dec.json",
    ]);
    const byPath = new Map(result.findings.map((f) => [f.path, f.message]));
    expect(byPath.get("environment.json")).toMatch(/; 1590 bytes, the index says 1589$/);
    expect(byPath.get("records/kem-22/guide/Mithril-256__dec.json")).toMatch(
      /^deleted: index\.json lists it \(timing, \d+ bytes\), but there is no such file$/,
    );
    expect(byPath.get("records/kem-22/guide/Mithril-1024__dec.json")).toBe(
      "not indexed: the file is in the store, but index.json does not list it",
    );
  });

  it("says so when the index is missing, invalid or another system's, and names entries it cannot check", () => {
    const missing = copy();
    rmSync(join(missing, "index.json"));
    const r1 = checkSystemIntegrity(missing);
    expect(problems(r1.findings)).toEqual(["no-index index.json"]);
    expect(r1.findings[0]?.message).toContain("ngcc-perf index");
    expect(r1.index).toBeNull();

    const broken = copy();
    writeFileSync(join(broken, "index.json"), '{"kind": "store-index", ');
    const r2 = checkSystemIntegrity(broken);
    expect(problems(r2.findings)).toEqual(["invalid-index index.json"]);
    expect(r2.findings[0]?.message).toMatch(/^not a valid store index: 1:\d+ \(root\) not valid JSON/);

    const foreign = copy();
    const index = readJson(join(foreign, "index.json"));
    writeJson(join(foreign, "index.json"), { ...index, system: "x86_1" });
    expect(checkSystemIntegrity(foreign).findings[0]?.message).toBe(
      'the index of system "x86_1", but it is in the folder of system "arm_1"',
    );

    const entries = copy();
    const idx = readJson(join(entries, "index.json"));
    const kat = idx.files.find((f: Rec) => f.path === "kat/kem-22/guide/Mithril-128.json");
    const env = idx.files.find((f: Rec) => f.path === "environment.json");
    kat.kind = "timing";
    delete env.sha256;
    idx.files.push({ path: "records/kem-22/Mithril-128__keygen.json", kind: "timing", sha256: "0".repeat(64) });
    idx.files.push({ ...idx.files[5] });
    writeJson(join(entries, "index.json"), idx);
    const r4 = checkSystemIntegrity(entries);
    expect(r4.findings.map((f) => `${f.path}: ${f.message}`)).toEqual([
      "environment.json: index.json gives no SHA-256 for it, so it cannot be checked",
      `${idx.files[5].path}: listed twice in index.json`,
      "kat/kem-22/guide/Mithril-128.json: listed in index.json as timing, but a file at this place holds kat",
      "records/kem-22/Mithril-128__keygen.json: listed in index.json, but not a place of the store layout (see docs/record-schema.md)",
    ]);
  });

  it("checks one file or one folder of a system folder alone", () => {
    const dir = copy();
    const r = readJson(join(dir, KEYGEN));
    r.memory.peakRssKiB += 1;
    writeJson(join(dir, KEYGEN), r);
    rmSync(join(dir, "sizes/kem-02/guide.json"));
    expect(problems(checkSystemIntegrity(dir, { within: KEYGEN }).findings)).toEqual([`changed ${KEYGEN}`]);
    expect(checkSystemIntegrity(dir, { within: KEYGEN }).files).toHaveLength(1);
    expect(problems(checkSystemIntegrity(dir, { within: "records/kem-22" }).findings)).toEqual([`changed ${KEYGEN}`]);
    expect(problems(checkSystemIntegrity(dir, { within: "sizes" }).findings)).toEqual([
      "deleted sizes/kem-02/guide.json",
    ]);
    expect(checkSystemIntegrity(dir, { within: "records/kem-02" }).findings).toEqual([]);
  });

  it("never throws for what the files hold", () => {
    const dir = copy();
    writeFileSync(join(dir, KEYGEN), Buffer.from([0, 1, 2, 255, 254]));
    writeFileSync(
      join(dir, "records/kem-22/guide/Mithril-128__enc.json"),
      `{"kind": "timing", "x": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    );
    writeFileSync(join(dir, "index.json"), "[".repeat(100_000));
    rmSync(join(dir, "records/kem-22/guide/Mithril-128__dec.json"));
    mkdirSync(join(dir, "records/kem-22/guide/Mithril-128__dec.json/inside"), { recursive: true });
    const r = checkSystemIntegrity(dir);
    expect(problems(r.findings)).toEqual(["invalid-index index.json"]);
    cpSync(join(seed, "data", "arm_1", "index.json"), join(dir, "index.json"));
    expect(problems(checkSystemIntegrity(dir).findings)).toEqual([
      "deleted records/kem-22/guide/Mithril-128__dec.json", // a folder at its place is not the file
      "changed records/kem-22/guide/Mithril-128__enc.json",
      `changed ${KEYGEN}`,
    ]);
    rehash(dir);
    const again = checkSystemIntegrity(dir);
    expect(again.index).not.toBeNull();
    expect(problems(again.findings)).toEqual([]);
  });
});

describe("systemDirsOf and checkStoreIntegrity", () => {
  it("finds the system folder a path lies in, or every one below it", () => {
    const dir = copy();
    const root = dirname(dirname(dir));
    expect(systemDirsOf(join(dir, KEYGEN))).toEqual([{ dir, system: "arm_1", within: KEYGEN }]);
    expect(systemDirsOf(join(dir, "records"))).toEqual([{ dir, system: "arm_1", within: "records" }]);
    expect(systemDirsOf(dir)).toEqual([{ dir, system: "arm_1", within: "" }]);
    expect(systemDirsOf(root)).toEqual([{ dir, system: "arm_1", within: "" }]);
    expect(systemDirsOf(join(root, "data"))).toEqual([{ dir, system: "arm_1", within: "" }]);
    // fixtures/compare-recorded/{a,b}, fixtures/rounding-store, fixtures/seed-store.
    expect(systemDirsOf(join(repo, "fixtures")).map((r) => r.system)).toEqual(["test_1", "test_1", "edge_1", "arm_1"]);
    expect(systemDirsOf(join(repo, "packages", "schema", "examples"))).toEqual([]);
    expect(systemDirsOf(join(tmp, "nowhere"))).toEqual([]);
    expect(checkStoreIntegrity(root).map((s) => [s.system, s.findings.length])).toEqual([["arm_1", 0]]);
  });
});

describe("timingIdentities", () => {
  const record = () => readJson(join(seed, "data", "arm_1", KEYGEN));
  /** Trials of these many calls at 100 ns (1 counter unit) each, and the aggregates that follow from them. */
  const trialsOf = (r: Rec, calls: number[]) => {
    r.trials = calls.map((n) => ({ iterations: n, counterDelta: n, ns: 100 * n }));
    Object.assign(r.aggregates, {
      n: calls.reduce((a, b) => a + b, 0),
      trials: calls.length,
      meanNs: 100,
      meanCounter: 1,
      opsPerSecond: 1e7,
      minTrialNs: 100,
      medianTrialNs: 100,
      maxTrialNs: 100,
    });
  };

  it("holds for every timing record of the committed stores", () => {
    for (const f of storeFiles(join(seed, "data", "arm_1"))) {
      if (f.kind !== "timing") continue;
      expect(timingIdentities(readJson(join(seed, "data", "arm_1", f.path))), f.path).toEqual([]);
    }
  });

  it("names the figure that does not follow from the trials or from the mean", () => {
    const cases: Array<[(r: Rec) => void, string[]]> = [
      [(r) => (r.aggregates.n += 1), ["/aggregates/n"]],
      [(r) => (r.aggregates.trials = 4), ["/aggregates/trials"]],
      [(r) => (r.aggregates.opsPerSecond *= 1.001), ["/aggregates/opsPerSecond"]],
      [(r) => (r.aggregates.meanCounter *= 0.99), ["/aggregates/meanCounter"]],
      [(r) => (r.trials[0].ns += 1_000_000), ["/aggregates/meanNs", "/aggregates/medianTrialNs"]],
      [(r) => (r.aggregates.medianTrialNs = 99_000), ["/aggregates/medianTrialNs"]],
      [(r) => (r.aggregates.minTrialNs = 1), ["/aggregates/minTrialNs"]],
    ];
    for (const [edit, pointers] of cases) {
      const r = record();
      edit(r);
      expect(
        timingIdentities(r).map((e) => e.pointer),
        edit.toString(),
      ).toEqual(pointers);
    }
  });

  it("allows half a unit of rounding per trial, and a record without figures (a failure)", () => {
    const r = record();
    for (const t of r.trials) t.ns = Math.round(t.ns / 3);
    for (const k of ["meanNs", "medianTrialNs", "minTrialNs", "maxTrialNs"]) r.aggregates[k] /= 3;
    r.aggregates.opsPerSecond *= 3;
    for (const t of r.trials) t.counterDelta = Math.round(t.counterDelta / 3);
    r.aggregates.meanCounter /= 3;
    expect(timingIdentities(r)).toEqual([]);
    expect(timingIdentities({ kind: "timing", status: "failed" })).toEqual([]);
    expect(timingIdentities({ kind: "kat" })).toEqual([]);
    expect(timingIdentities(null)).toEqual([]);
    expect(timingIdentities({ kind: "timing", trials: "x", aggregates: { meanNs: "fast" } })).toEqual([]);
  });

  it("checks a per-call record's distribution and central figure", () => {
    const r = record();
    r.method = "per-call";
    r.sampling = { batch: 2, samplesPerWorker: [10, 10] };
    trialsOf(r, [20, 20]);
    r.distribution = { n: 20, calls: 40, meanNs: 101, medianNs: 99 };
    r.central = { statistic: "median", valueNs: 99, ci95Ns: { low: 98, high: 100 } };
    expect(timingIdentities(r)).toEqual([]);
    r.central.valueNs = 99_000;
    expect(timingIdentities(r).map((e) => e.message)).toEqual([
      expect.stringMatching(/^is 99000, but the median of the distribution \(distribution\.medianNs\) = 99 /),
      expect.stringMatching(/^is 99000, outside its own 95 % interval 98 … 100 /),
    ]);
    r.central = { statistic: "mean", valueNs: 101, ci95Ns: { low: 100, high: 102 } };
    r.distribution.calls = 41;
    r.sampling.samplesPerWorker = [10, 11];
    expect(timingIdentities(r).map((e) => e.pointer)).toEqual([
      "/distribution/n",
      "/distribution/calls",
      "/aggregates/n",
    ]);
  });

  it("counts only the samples kept when some were switched out, and checks keptPerWorker against the rule", () => {
    const r = record();
    r.method = "per-call";
    // Worker 1 switched out in 2 of 10 samples (left out), worker 2 in 3 of 10 (over the cap: all kept).
    r.sampling = {
      batch: 1,
      samplesPerWorker: [10, 10],
      switchedOut: { listed: 5, dropped: 2, workersOverCap: 1, cap: 0.25, keptPerWorker: [8, 10] },
    };
    r.samples = [
      { worker: 1, counterDeltas: Array(10).fill(100), switchedOut: [3, 7] },
      { worker: 2, counterDeltas: Array(10).fill(100), switchedOut: [0, 1, 2] },
    ];
    trialsOf(r, [8, 10]);
    r.distribution = { n: 18, calls: 18, meanNs: 100, medianNs: 100 };
    r.central = { statistic: "median", valueNs: 100, ci95Ns: { low: 99, high: 101 } };
    expect(timingIdentities(r)).toEqual([]);
    // A hand edit that keeps worker 2's samples short of the rule's count is named.
    r.sampling.switchedOut.keptPerWorker = [8, 7];
    expect(timingIdentities(r).map((e) => e.pointer)).toEqual([
      "/sampling/switchedOut/keptPerWorker/1",
      "/distribution/n",
    ]);
  });

  it("counts only the uncontended workers' samples in a distribution published from them", () => {
    const r = record();
    r.method = "per-call";
    r.sampling = { batch: 2, samplesPerWorker: [10, 7, 10] };
    trialsOf(r, [20, 14, 20]);
    r.distribution = { n: 20, calls: 40, meanNs: 101, medianNs: 99 };
    r.central = { statistic: "median", valueNs: 99, ci95Ns: { low: 98, high: 100 } };
    const workers = [false, true, false].map((contended, i) => ({ worker: i + 1, addsPerCycle: 3, contended }));
    r.contention = { publishedFrom: "uncontended", workers };
    expect(timingIdentities(r)).toEqual([]);
    // Published from all: every worker's samples count, and the aggregates are the distribution's calls.
    r.contention.publishedFrom = "all";
    expect(timingIdentities(r).map((e) => e.pointer)).toEqual(["/distribution/n", "/aggregates/n"]);
    r.contention.publishedFrom = "uncontended";
    r.distribution = { n: 27, calls: 54, meanNs: 101, medianNs: 99 };
    expect(timingIdentities(r).map((e) => e.message)).toEqual([
      expect.stringMatching(/^is 27, but sampling.samplesPerWorker adds up to 20 over the uncontended workers/),
    ]);
  });
});
