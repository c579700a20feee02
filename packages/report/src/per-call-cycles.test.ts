// Per-call records that probed the core clock (distribution.coreClock, distribution.cycles, central.cycles, the
// target on cycles): the counter column gives the estimated core cycles, each figure has its own ± (the time's
// beside the time, the cycles' beside the cycles), the † mark sits on the ± of the figure the target applied to, and
// the method line names the probe and the clock range the workers saw.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validate } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCounter, formatHalfWidth, formatTime } from "./format.ts";
import { renderSite } from "./site.ts";
import {
  jittered,
  miniStore,
  perCallRecord,
  prng,
  type Rec,
  readJson,
  recordAt,
  reindex,
  writeJson,
} from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-cycles-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The cycles blocks of a record whose workers ran at the given clocks (Hz), the target on cycles. */
function withCycles(r: Rec, workerHz: number[], cyclesHalfWidth: number): Rec {
  const statistic = r.central.statistic;
  const perWorker = r.distribution.workerMediansNs.map((ns: number, i: number) => (ns * (workerHz[i] as number)) / 1e9);
  const value =
    (statistic === "mean" ? r.distribution.meanNs : r.distribution.medianNs) * (workerHz[0] as number) * 1e-9;
  r.sampling.target.figure = "cycles";
  r.sampling.layouts = { padBytes: [0, 16, 32, 48], workerPadBytes: [0, 16, 32] };
  r.samples = r.samples.map((s: Rec) => ({ ...s, clockDeltas: s.counterDeltas.map(() => 9100) }));
  r.distribution.coreClock = {
    method: "add-chain",
    adds: 16384,
    workerHz,
    minHz: Math.min(...workerHz),
    maxHz: Math.max(...workerHz),
  };
  r.distribution.cycles = {
    meanCycles: r.distribution.meanNs * 4.4,
    medianCycles: value,
    p5Cycles: value * 0.98,
    p25Cycles: value * 0.99,
    p75Cycles: value * 1.01,
    p95Cycles: value * 1.02,
    workerMediansCycles: perWorker,
    workerMeansCycles: perWorker,
    workerSpread: 0.002,
  };
  r.central.cycles = {
    value,
    ci95: { low: value * (1 - cyclesHalfWidth), high: value * (1 + cyclesHalfWidth) },
    relativeHalfWidth: cyclesHalfWidth,
    metTarget: cyclesHalfWidth <= r.sampling.target.relativeHalfWidth,
  };
  return r;
}

const records = new Map<string, Rec>();
let md = "";
let method = "";

beforeAll(async () => {
  const root = miniStore(join(tmp, "store"), ["kem-22"]);
  const rand = prng(7);
  for (const instance of ["Mithril-128", "Mithril-256", "Mithril-512"])
    for (const operation of ["keygen", "enc", "dec"]) {
      const file = recordAt(root, "timing", { algorithmId: "kem-22", instance, operation });
      const seed = readJson(file);
      const c = seed.aggregates.medianTrialNs;
      // Workers at two clocks 4 % apart: the time's interval is wide (missed), the cycles' is not — except on
      // Mithril-512 enc, whose cycles missed the target too.
      const r = perCallRecord(seed, {
        workersNs: [1, 1.04, 1].map((f) => jittered(rand, 2000, c * f, 0.005)),
        stoppedBy: instance === "Mithril-512" && operation === "enc" ? "budget" : "target",
      });
      withCycles(r, [4.5e9, 4.33e9, 4.5e9], instance === "Mithril-512" && operation === "enc" ? 0.013 : 0.004);
      const v = validate("timing", r);
      expect(v.valid, JSON.stringify(v.errors)).toBe(true);
      writeJson(file, r);
      records.set(`${instance} ${operation}`, r);
    }
  reindex(join(root, "data", "arm_1"));
  await renderSite(root, { out: join(tmp, "out"), formats: ["md"] });
  md = readFileSync(join(tmp, "out", "site", "arm_1", "kem-22.md"), "utf8");
  method = readFileSync(join(tmp, "out", "site", "arm_1", "method.md"), "utf8");
});

describe("per-call records with estimated core cycles", () => {
  it("give the estimated mean cycles in the counter column and say what they are", () => {
    expect(md).toContain("| instance | operation | mean cycles (est.) | mean time |");
    const k = records.get("Mithril-128 keygen") as Rec;
    expect(md).toContain(`| \`Mithril-128\` | keygen | ${formatCounter(k.distribution.cycles.meanCycles)} |`);
    expect(md).toContain("Cycles are estimated core cycles: each sample's time × the core clock its worker measured");
    expect(md).not.toContain("time-stamp counter: TSC ticks");
  });

  it("show each figure with its own interval, and mark only the operation whose cycles missed the target", () => {
    const k = records.get("Mithril-128 keygen") as Rec;
    expect(k.central.metTarget).toBe(false); // the time's interval: wide, as the clock moved between workers
    // The time's ± after the time, the cycles' ± after the cycles; † on the cycles' ± (the target was on them).
    expect(md).toContain("| median per call | ± | cycles per call (est.) | ± cycles | n (workers × calls) |");
    expect(md).toContain(
      `| ${formatTime(k.central.valueNs)} | ${formatHalfWidth(k.central.relativeHalfWidth)} | ${formatCounter(k.central.cycles.value)} | ${formatHalfWidth(0.004)} | 6000 (3 × 2000) |`,
    );
    expect(md.match(/ †/g)?.length).toBe(1);
    expect(md).toMatch(/\| `Mithril-512` \| enc \|[^\n]*\| ±1\.3% † \| 6000 \(3 × 2000\) \|/);
    expect(md).toContain(
      "† Precision target (±1% on the estimated core cycles) not reached, marked on the ± it applied to: stopped by the 2 s sampling budget (1 row).",
    );
    expect(md).toContain(
      "Each ± is the 95% interval of the figure before it: the time's under ±, the estimated core cycles' under ± cycles. Sampling stopped on the estimated core cycles' interval (every row)",
    );
  });

  it("name the probe, the clock range and the figure the target applied to", () => {
    expect(md).toContain(
      "After every sample a dependent chain of 16384 one-cycle adds estimated the core clock: 4.33–4.50 GHz across the workers",
    );
    expect(md).toContain("The precision target is on the estimated core cycles");
    expect(md).toContain(
      "The workers rotated over code layouts: the instance's code 0, 16, 32, 48 bytes past a 64-byte boundary, one layout per worker in turn.",
    );
    expect(method).toMatch(/\| target applies to \| estimated core cycles/);
    expect(method).toMatch(
      /\| core clock \(probe after every sample\) \| 4\.33 GHz to 4\.50 GHz \(9 of 9 operations probed, 16384 adds per probe\) \|/,
    );
    expect(method).toContain(
      "Target not reached: 1 of 9 operations (stopped by budget (1); target on estimated core cycles (1))",
    );
  });
});
