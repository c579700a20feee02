// The comparison (verdicts, pairing, the figures compared) on stores made in memory; its bootstrap is tested in
// packages/stats/src/bootstrap.test.ts, the end-to-end command over real timing stores in
// packages/tests/src/compare.test.ts.
import type { InstructionsRecord, TimingRecord } from "@ngcc-perf/schema";
import { rng } from "@ngcc-perf/stats";
import { describe, expect, it } from "vitest";
import { formatHalfWidth } from "../format.ts";
import type { LoadedStore, SystemStore } from "../load.ts";
import { alignedTable, compareStores, rowNotes, summaryText, timingRows } from "./index.ts";
import { verdictOf } from "./pair.ts";

/** Per-call values of `workers` workers around `center`, with a worker-to-worker offset and noise (seeded). */
function workers(center: number, count: number, perWorker: number, seed: number): number[][] {
  const next = rng(seed);
  const u = () => next() / 4294967296;
  return Array.from({ length: count }, () => {
    const offset = center * 0.01 * (u() - 0.5);
    return Array.from({ length: perWorker }, () => center + offset + center * 0.05 * u() ** 3);
  });
}

describe("verdicts", () => {
  it("says slower or faster only when the whole interval lies beyond the band", () => {
    expect(verdictOf({ low: 1.06, high: 1.2 }, 0.05)).toBe("slower");
    expect(verdictOf({ low: 1.03, high: 1.2 }, 0.05)).toBe("same");
    expect(verdictOf({ low: 1.01, high: 1.03 }, 0.05)).toBe("same");
    expect(verdictOf({ low: 0.8, high: 0.94 }, 0.05)).toBe("faster");
    expect(verdictOf({ low: 0.8, high: 0.96 }, 0.05)).toBe("same");
    expect(verdictOf({ low: 0.9, high: 1.1 }, 0)).toBe("same");
    // Swapping A and B swaps the verdicts (the band is symmetric in the ratio): an interval ending at 0.905 was
    // "same" under a band [1 − t, 1 + t] while its reverse, starting at 1.105, was "slower".
    const reverse = (ci: { low: number; high: number }) => ({ low: 1 / ci.high, high: 1 / ci.low });
    for (const ci of [
      { low: 0.88, high: 0.905 },
      { low: 0.88, high: 0.912 },
      { low: 0.95, high: 1.2 },
      { low: 1.08, high: 1.3 },
    ]) {
      const there = verdictOf(ci, 0.1);
      const back = verdictOf(reverse(ci), 0.1);
      expect({ there, back }).toEqual({
        there,
        back: there === "faster" ? "slower" : there === "slower" ? "faster" : "same",
      });
    }
    expect(verdictOf({ low: 0.88, high: 0.905 }, 0.1)).toBe("faster");
    expect(verdictOf({ low: 0.88, high: 0.912 }, 0.1)).toBe("same");
  });
});

function instr(instance: string, operation: string, perCall: number, status: "ok" | "failed" = "ok") {
  return {
    kind: "instructions",
    algorithmId: "kem-1",
    instance,
    buildProfile: "guide",
    operation,
    status,
    ...(status === "ok" ? { instructionsPerCall: perCall } : {}),
  } as unknown as InstructionsRecord;
}

function store(root: string, records: InstructionsRecord[], timings: TimingRecord[] = []): LoadedStore {
  const pathOf = new Map<object, string>();
  for (const r of records) pathOf.set(r, `instructions/kem-1/guide/${r.instance}__${r.operation}.json`);
  const system = { system: "x86_1", timings, instructions: records, pathOf } as unknown as SystemStore;
  return { root, systems: [system] };
}

describe("compareStores", () => {
  it("compares instruction counts exactly, lists one-sided and failed measurements, gates on a rise", () => {
    const a = store("/a", [instr("P-1", "enc", 1000), instr("P-1", "dec", 2000), instr("P-1", "keygen", 10)]);
    const b = store("/b", [
      instr("P-1", "enc", 1001),
      instr("P-1", "dec", 2000),
      instr("P-1", "keygen", 0, "failed"),
      instr("P-2", "enc", 5),
    ]);
    const c = compareStores(a, b, { a: "A", b: "B" });
    expect(c.instructions.map((x) => [x.key.operation, x.verdict])).toEqual([
      ["enc", "more"],
      ["dec", "same"],
    ]);
    expect(c.unmatched.map((u) => [u.key.instance, u.key.operation, u.where])).toEqual([
      ["P-1", "keygen", "failed-b"],
      ["P-2", "enc", "only-b"],
    ]);
    // One instruction more in 1000 is within the 5 % band: no gate; 10 % more is.
    expect(c.regressed).toBe(false);
    const worse = compareStores(a, store("/c", [instr("P-1", "enc", 1100)]), { a: "A", b: "C" });
    expect(worse.regressed).toBe(true);
    expect(compareStores(a, a, { a: "A", b: "A" }).instructions.every((x) => x.verdict === "same")).toBe(true);
  });

  it("pairs two build profiles of one store with --profiles", () => {
    const o2 = { ...instr("P-1", "enc", 900), buildProfile: "o2" } as InstructionsRecord;
    const s = store("/s", [instr("P-1", "enc", 1000), o2]);
    const c = compareStores(s, s, { a: "S", b: "S" }, { profiles: { a: "guide", b: "o2" } });
    expect(c.instructions).toHaveLength(1);
    expect(c.instructions[0]).toMatchObject({ a: 1000, b: 900, verdict: "fewer" });
    expect(c.unmatched).toEqual([]);
  });
});

describe("alignedTable", () => {
  it("pads every column and right-aligns the numeric ones", () => {
    const t = alignedTable(
      ["name", "x"],
      [
        ["a", "1.5"],
        ["long name", "10.25"],
      ],
      [1],
    );
    expect(t.split("\n")).toEqual(["name           x", "---------  -----", "a            1.5", "long name  10.25"]);
  });
});

/** A hand-made per-call timing record (counter in ns) of kem-1 P-1 `operation`, from per-worker values, with a
 * contention block when given. Only the fields the comparison reads, plus the published figure's interval. */
function perCallTiming(
  operation: string,
  values: number[][],
  relativeHalfWidth: number,
  contention?: {
    state: "uncontended" | "contended" | "mixed";
    publishedFrom: "uncontended" | "all";
    contended: number;
  },
): TimingRecord {
  // distribution and central are of the uncontended workers when the record published from them (samples: all).
  const published =
    contention?.publishedFrom === "uncontended" ? values.filter((_, i) => i >= contention.contended) : values;
  const all = published.flat().sort((x, y) => x - y);
  const median = all[Math.floor(all.length / 2)] as number;
  return {
    kind: "timing",
    algorithmId: "kem-1",
    instance: "P-1",
    buildProfile: "guide",
    operation,
    status: "ok",
    method: "per-call",
    counter: { unit: "ns" },
    aggregates: { meanNs: median },
    sampling: {
      batch: 1,
      workers: values.length,
      samplesPerWorker: values.map((w) => w.length),
      target: { relativeHalfWidth: 0.01, budgetMs: 1000, minWorkers: 4, figure: "time" },
    },
    samples: values.map((w, i) => ({ worker: i + 1, counterDeltas: w })),
    distribution: { medianNs: median, meanNs: median, calls: all.length },
    central: {
      statistic: "median",
      valueNs: median,
      ci95Ns: { low: median * (1 - relativeHalfWidth), high: median * (1 + relativeHalfWidth) },
      relativeHalfWidth,
      metTarget: false,
      reason: "median",
    },
    ...(contention
      ? {
          contention: {
            probe: "add-throughput",
            threshold: 3.5,
            workers: values.map((_, i) => ({
              worker: i + 1,
              addsPerCycle: i < contention.contended ? 2.8 : 3.9,
              contended: i < contention.contended,
            })),
            state: contention.state,
            publishedFrom: contention.publishedFrom,
          },
        }
      : {}),
  } as unknown as TimingRecord;
}

function timingStore(root: string, timings: TimingRecord[]): LoadedStore {
  const pathOf = new Map<object, string>();
  for (const t of timings) pathOf.set(t, `records/kem-1/guide/${t.instance}__${t.operation}.json`);
  const system = { system: "x86_1", timings, instructions: [], pathOf } as unknown as SystemStore;
  return { root, systems: [system] };
}

describe("compareStores and contention", () => {
  const slow = 1.3;
  const mixed = { state: "mixed", publishedFrom: "all", contended: 1 } as const;
  const clean = { state: "mixed", publishedFrom: "uncontended", contended: 1 } as const;
  const allClean = { state: "uncontended", publishedFrom: "all", contended: 0 } as const;

  it("compares figures published in different contention states over their uncontended workers, else no verdict", () => {
    // B's first worker contended and twice as slow, the other three as fast as A's: B published from all four.
    const bEnc = [...workers(2000, 1, 200, 2), ...workers(1000, 3, 200, 8)];
    const a = timingStore("/a", [
      perCallTiming("enc", workers(1000, 4, 200, 1), 0.02, clean),
      perCallTiming("dec", workers(1000, 4, 200, 3), 0.02, clean),
      perCallTiming("keygen", workers(1000, 4, 200, 5), 0.02, clean),
    ]);
    const b = timingStore("/b", [
      perCallTiming("enc", bEnc, 0.03, mixed),
      perCallTiming("dec", workers(1000 * slow, 4, 200, 4), 0.03, allClean),
      // Three of four contended: one uncontended worker is too few to compare over.
      perCallTiming("keygen", workers(1000 * slow, 4, 200, 6), 0.03, { ...mixed, contended: 3 }),
    ]);
    const c = compareStores(a, b, { a: "A", b: "B" }, { resamples: 200 });
    const of = (op: string) => c.timings.find((t) => t.key.operation === op);
    // enc: A from its 3 uncontended workers, B from all 4: compared over the uncontended ones (3 and 3): same.
    expect(of("enc")).toMatchObject({
      verdict: "same",
      contention: { a: "uncontended", b: "mixed" },
      uncontendedWorkers: { a: 3, b: 3 },
    });
    expect(of("enc")?.ratio).toBeGreaterThan(0.97);
    expect(of("enc")?.ratio).toBeLessThan(1.03);
    // Each side's own interval is of its published figure, not of the one compared: not shown.
    expect(of("enc")?.bRelativeHalfWidth).toBeUndefined();
    // dec: B published from all workers, none contended: the same state as A's, so compared as published (slower).
    expect(of("dec")).toMatchObject({ verdict: "slower", contention: { a: "uncontended", b: "uncontended" } });
    expect(of("dec")?.uncontendedWorkers).toBeUndefined();
    // keygen: B has one uncontended worker: no verdict, whatever the ratio.
    expect(of("keygen")?.verdict).toBe("not-comparable");
    expect(of("keygen")?.ratio).toBeGreaterThan(1.2);
    expect(c.counts).toMatchObject({ same: 1, faster: 0, slower: 1, notComparable: 1 });
    expect(summaryText(c)).toContain("1 not comparable (different contention states, too few uncontended workers)");
    expect(rowNotes(c)).toContain(
      "kem-1/P-1 keygen [guide]: not comparable: measured in different contention states (A from its 3 uncontended of 4 workers, B from all 4 workers, mixed), and B has fewer than 2 uncontended workers.",
    );
    expect(rowNotes(c)).toContain(
      "kem-1/P-1 enc [guide]: published in different contention states (A from its 3 uncontended of 4 workers, B from all 4 workers, mixed): compared over the uncontended workers only (A 3, B 3).",
    );
    expect(timingRows(c).find((r) => r[0]?.includes("keygen"))?.[6]).toBe("not comparable");
    // Only dec's slower verdict fails the gate.
    expect(c.regressed).toBe(true);
    const onlyKeygen = compareStores(
      timingStore("/a", [perCallTiming("keygen", workers(1000, 4, 200, 1), 0.02, clean)]),
      timingStore("/b", [perCallTiming("keygen", workers(1000 * slow, 4, 200, 2), 0.03, { ...mixed, contended: 3 })]),
      { a: "A", b: "B" },
      { resamples: 200 },
    );
    expect(onlyKeygen.regressed).toBe(false);
  });

  it("leaves out the samples a worker was switched out in, as the record's figures do", () => {
    // B: A's calls again, with a preemption (a 4 ms slice, 4000 × the call) in 1 of every 200 samples, each
    // listed as switched out. The mean is published: unlisted, the slices would make B's mean some twenty times A's.
    const base = workers(1000, 6, 400, 11);
    const withSlices = base.map((w) => w.map((x, j) => (j % 200 === 7 ? x + 4_000_000 : x)));
    const mean = (t: TimingRecord) => {
      Object.assign(t.central as object, { statistic: "mean" });
      return t;
    };
    const listed = (t: TimingRecord, list: boolean) => {
      if (list) for (const w of t.samples ?? []) Object.assign(w, { switchedOut: [7, 207] });
      return t;
    };
    const a = timingStore("/a", [mean(perCallTiming("verify", base, 0.01))]);
    const b = (list: boolean) => timingStore("/b", [listed(mean(perCallTiming("verify", withSlices, 0.01)), list)]);
    const c = compareStores(a, b(true), { a: "A", b: "B" }, { resamples: 200, threshold: 0.01 });
    expect(c.timings[0]?.verdict).toBe("same");
    expect(c.timings[0]?.ci95.high).toBeLessThan(1.01);
    // The same samples without the list: the slices are in B's calls, and the mean moves with them.
    const u = compareStores(a, b(false), { a: "A", b: "B" }, { resamples: 200, threshold: 0.01 });
    expect(u.timings[0]?.ci95.low).toBeGreaterThan(1.01);
  });

  it("compares as before when a record has no contention probe, and shows each side's own interval", () => {
    const a = timingStore("/a", [perCallTiming("enc", workers(1000, 4, 200, 1), 0.021)]);
    const b = timingStore("/b", [perCallTiming("enc", workers(1000 * slow, 4, 200, 2), 0.034, mixed)]);
    const c = compareStores(a, b, { a: "A", b: "B" }, { resamples: 200 });
    expect(c.timings[0]).toMatchObject({ verdict: "slower", aRelativeHalfWidth: 0.021, bRelativeHalfWidth: 0.034 });
    expect(c.timings[0]?.contention).toEqual({ a: null, b: "mixed" });
    const row = timingRows(c)[0] as string[];
    expect(row[2]).toMatch(new RegExp(` ${formatHalfWidth(0.021).replace(".", "\\.")}$`));
    expect(row[3]).toMatch(new RegExp(` ${formatHalfWidth(0.034).replace(".", "\\.")}$`));
  });

  it("resamples only the workers the figure was published from (the uncontended ones), as the figure itself", () => {
    // A: 2 uncontended workers and 3 contended ones twice as slow, published from the 2; B: 5 uncontended workers.
    const slowA = [...workers(2000, 3, 200, 5), ...workers(1000, 2, 200, 6)];
    const a = timingStore("/a", [
      perCallTiming("enc", slowA, 0.02, { state: "mixed", publishedFrom: "uncontended", contended: 3 }),
    ]);
    const b = timingStore("/b", [
      perCallTiming("enc", workers(1000, 5, 200, 7), 0.02, {
        state: "uncontended",
        publishedFrom: "all",
        contended: 0,
      }),
    ]);
    const c = compareStores(a, b, { a: "A", b: "B" }, { resamples: 300 });
    const t = c.timings[0];
    expect(t?.contention).toEqual({ a: "uncontended", b: "uncontended" });
    expect(t?.ratio).toBeGreaterThan(0.95);
    expect(t?.ratio).toBeLessThan(1.05);
    // With the contended workers' samples in the bootstrap the interval would sit near 0.5.
    expect(t?.ci95.low).toBeGreaterThan(0.9);
    expect(t?.verdict).toBe("same");
  });
});
