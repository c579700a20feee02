// Fields other steps add to a per-call record, read as optional: the decision of the published statistic
// (central.decision: by instructions counted per call, or by the distribution where valgrind cannot run), the tail
// (distribution.p999Ns beside p99Ns and maxNs) and the contention probe (contention). On section 4 and the summary:
// a statistic column with the decision's evidence, a tail column for input-dependent operations only, a ◇ mark on a
// figure published from contended workers, one legend line per mark. The records are edited after loading (the
// schema of this package's build may not know the fields yet); older records without them show none of it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validate } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCounter, formatTime } from "./format.ts";
import { loadStore } from "./load.ts";
import { renderLoadedSite } from "./site.ts";
import { jittered, miniStore, perCallRecord, prng, type Rec, readJson, recordAt, writeJson } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-evidence-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let md = "";
let summaryMd = "";
let methodMd = "";
let summary: { rows: Rec[] } = { rows: [] };
let csv: string[] = [];
const byName = new Map<string, Rec>();

beforeAll(async () => {
  const root = miniStore(join(tmp, "store"), ["kem-22"]);
  const rand = prng(11);
  for (const instance of ["Mithril-128", "Mithril-256"])
    for (const operation of ["keygen", "enc", "dec"]) {
      const file = recordAt(root, "timing", { algorithmId: "kem-22", instance, operation });
      const seed = readJson(file);
      const c = seed.aggregates.medianTrialNs;
      const mean = instance === "Mithril-128" && operation === "dec";
      const r = perCallRecord(seed, {
        workersNs: [1, 1.01, 1, 0.99].map((f) => jittered(rand, 500, c * f, mean ? 0.4 : 0.01)),
        statistic: mean ? "mean" : "median",
        reason: mean ? "mean of 2000 single calls over 4 workers: the time depends on the input" : undefined,
      });
      writeJson(file, r);
    }
  // The fields are added to the loaded records (as the instructions and timing steps will write them).
  const store = loadStore(root);
  const system = store.systems[0] as (typeof store.systems)[number];
  for (const t of system.timings) byName.set(`${t.instance} ${t.operation}`, t);
  const edit = (name: string, f: (r: Rec) => void) => f(byName.get(name) as Rec);
  edit("Mithril-128 dec", (r) => {
    r.central.decision = {
      by: "instructions",
      profile: "guide",
      calls: 16,
      minInstructions: 210_000,
      maxInstructions: 3_100_000,
      relativeSpread: 13.8,
      threshold: 0.01,
      inputDependent: true,
    };
    r.distribution.p999Ns = (r.distribution.p99Ns + r.distribution.maxNs) / 2;
  });
  edit("Mithril-128 keygen", (r) => {
    r.central.decision = {
      by: "instructions",
      profile: "guide",
      calls: 16,
      minInstructions: 368_694,
      maxInstructions: 368_800,
      relativeSpread: 0.0003,
      threshold: 0.01,
      inputDependent: false,
    };
  });
  edit("Mithril-256 enc", (r) => {
    r.central.decision = { by: "distribution", why: "valgrind could not run the build" };
    r.contention = {
      probe: "add-throughput",
      threshold: 3.5,
      workers: [1, 2, 3, 4].map((worker) => ({ worker, addsPerCycle: worker < 3 ? 2.9 : 3.9, contended: worker < 3 })),
      state: "mixed",
      publishedFrom: "all",
    };
  });
  edit("Mithril-256 dec", (r) => {
    r.contention = {
      probe: "add-throughput",
      threshold: 3.5,
      workers: [1, 2, 3, 4].map((worker) => ({
        worker,
        addsPerCycle: worker === 1 ? 2.9 : 3.9,
        contended: worker === 1,
      })),
      state: "mixed",
      publishedFrom: "uncontended",
    };
    // distribution is of the 3 uncontended workers (sampling and samples list all 4).
    r.distribution.calls = 1500;
    r.distribution.n = 1500;
  });
  edit("Mithril-128 enc", (r) => {
    // 5 samples of the first worker left out (switched out in them); another worker over the cap kept its 2.
    const per = r.sampling.samplesPerWorker as number[];
    const kept = per.map((x, i) => (i === 0 ? x - 5 : x));
    r.sampling.switchedOut = { listed: 7, dropped: 5, workersOverCap: 1, cap: 0.25, keptPerWorker: kept };
    r.distribution.n = kept.reduce((a, b) => a + b, 0);
    r.distribution.calls = r.distribution.n * r.sampling.batch;
  });
  edit("Mithril-256 enc", (r) => {
    r.sampling.contendedMs = 1250;
  });
  const out = join(tmp, "out");
  await renderLoadedSite(store, { out, formats: ["md"] });
  md = readFileSync(join(out, "site", "arm_1", "kem-22.md"), "utf8");
  summaryMd = readFileSync(join(out, "site", "arm_1", "summary.md"), "utf8");
  methodMd = readFileSync(join(out, "site", "arm_1", "method.md"), "utf8");
  summary = JSON.parse(readFileSync(join(out, "site", "arm_1", "summary.json"), "utf8"));
  csv = readFileSync(join(out, "site", "arm_1", "summary.csv"), "utf8").split("\r\n");
});

const rowOf = (page: string, instance: string, op: string) =>
  page.split("\n").find((l) => l.startsWith(`| \`${instance}\` | ${op} |`)) ?? "";

describe("section 4 with the decision, the tail and the contention state", () => {
  it("gives the decision's evidence per row and the tail of the input-dependent operation only", () => {
    expect(md).toContain("| median | ± | n | tail per call (p99 · p99.9 · max / calls) | statistic chosen by |");
    const d = byName.get("Mithril-128 dec") as Rec;
    expect(rowOf(md, "Mithril-128", "dec")).toContain(
      `| p99 ${formatTime(d.distribution.p99Ns)} · p99.9 ${formatTime(d.distribution.p999Ns)} · max ${formatTime(d.distribution.maxNs)} / 2000 calls | 210.0 k–3.10 M instructions per call over 16 inputs (varies by 1380%, above the 1% threshold) |`,
    );
    // Work that barely varies: the median, its evidence, no tail.
    expect(rowOf(md, "Mithril-128", "keygen")).toContain(
      `| — | ${formatCounter(368_694)}–${formatCounter(368_800)} instructions per call over 16 inputs (varies by 0.03%, within the 1% threshold) |`,
    );
    expect(rowOf(md, "Mithril-256", "enc")).toContain("| — | distribution rule: valgrind could not run the build |");
    // A record without a decision: nothing invented.
    expect(rowOf(md, "Mithril-256", "keygen")).toMatch(/\| — \| — \|$/);
  });

  it("marks the figure published from all workers in a mixed state, not the one published from uncontended ones", () => {
    expect(rowOf(md, "Mithril-256", "enc")).toMatch(/\| \d[^|]* ◇ \|/);
    expect(rowOf(md, "Mithril-256", "dec")).not.toContain("◇");
    // Its n: the calls of the workers the figure is published from.
    expect(rowOf(md, "Mithril-256", "dec")).toContain("| 1500 (3 × 500) |");
    expect(md.match(/◇/g)?.length).toBe(2); // the row and its legend line
    expect(md).toContain(
      "◇ Published from every worker, contended ones included (too few uncontended workers): the add-throughput probe read a contended core in some (mixed) or all (contended) of the row's workers (mixed 1 row)",
    );
    expect(md).toContain("‡ The mean per call over the varied inputs is published, not the median");
  });
});

describe("the summary and its exports with the new fields", () => {
  it("carry the tail, the decision and the contention state, and summary.json is a valid summary", () => {
    const v = validate("summary", summary);
    expect(v.valid, JSON.stringify(v.errors)).toBe(true);
    const d = summary.rows.find((r) => r.instance === "Mithril-128" && r.operation === "dec");
    const rec = byName.get("Mithril-128 dec") as Rec;
    expect(d).toMatchObject({
      inputDependent: true,
      decidedBy: "instructions",
      instructionsPerCallMin: 210_000,
      instructionsPerCallMax: 3_100_000,
      p99Ns: rec.distribution.p99Ns,
      p999Ns: rec.distribution.p999Ns,
      maxNs: rec.distribution.maxNs,
      calls: 2000,
      contentionState: null,
    });
    const e = summary.rows.find((r) => r.instance === "Mithril-256" && r.operation === "enc");
    expect(e).toMatchObject({ decidedBy: "distribution", contentionState: "mixed", publishedFrom: "all" });
    const k = summary.rows.find((r) => r.instance === "Mithril-256" && r.operation === "keygen");
    expect(k).toMatchObject({ decidedBy: null, inputDependent: false, p999Ns: null });
    const header = (csv[0] as string).split(",");
    const line = (csv.find((l) => l.includes(",Mithril-128,") && l.includes(",dec,")) as string).split(",");
    const at = (h: string) => line[header.indexOf(h)];
    expect(at("p999_ns")).toBe(String(rec.distribution.p999Ns));
    expect(at("input_dependent")).toBe("true");
    expect(at("decided_by")).toBe("instructions");
    expect(rowOf(summaryMd, "Mithril-256", "enc")).toBeDefined();
    expect(summaryMd).toMatch(/\| enc \| [^|]+ ◇ \|/);
    expect(summaryMd).toContain("tail per call (p99 · p99.9 · max / calls)");
  });
});

describe("the method page with the new fields", () => {
  it("counts how the statistics were decided and the contention states the figures were published in", () => {
    expect(methodMd).toContain(
      "| statistic decided by | the per-call distribution (a record without a decision) (3), instructions counted per call (2), the per-call distribution (instructions not counted) (1) |",
    );
    expect(methodMd).toContain(
      "| contention (throughput probe), figures published from | not probed (4), all workers, mixed (1), uncontended workers (1) |",
    );
  });
  it("counts the samples left out for a switch and the time on contended workers; n is of the samples kept", () => {
    const enc = byName.get("Mithril-128 enc") as Rec;
    const all = [...byName.values()]
      .filter((t) => t.method === "per-call")
      .reduce((a, t) => a + (t.sampling.samplesPerWorker as number[]).reduce((x: number, y: number) => x + y, 0), 0);
    expect(methodMd).toContain(
      `| samples left out: the worker's process was switched out during them | 5 of ${all} samples, in 1 of 6 operations; 1 worker(s) switched out in more than 25% of their samples kept them all |`,
    );
    expect(methodMd).toContain("| sampling on contended workers, on top of the budget | 1.25 s in 1 of 6 operations |");
    const kept = enc.sampling.switchedOut.keptPerWorker as number[];
    const span = Math.min(...kept) === Math.max(...kept) ? `${kept[0]}` : `${Math.min(...kept)}–${Math.max(...kept)}`;
    expect(rowOf(md, "Mithril-128", "enc")).toContain(`| ${enc.distribution.calls} (${kept.length} × ${span}) |`);
  });
});
