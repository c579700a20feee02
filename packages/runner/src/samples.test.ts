import { readFileSync } from "node:fs";
import { validate } from "@ngcc-perf/schema";
import {
  distributionOf,
  perCallNs,
  predictionHalfWidth,
  shapeOf,
  workerSpread,
  workersHalfWidth,
} from "@ngcc-perf/stats";
import { describe, expect, it } from "vitest";
import {
  addsPerCycle,
  CONTENDED_SHARE,
  centralOf,
  contentionOf,
  coreClockHz,
  cyclesFigures,
  publishedWorkers,
  stopDecision,
  summarizeSamples,
  X86_64_ALONE_ADDS_PER_CYCLE,
} from "./samples.ts";

/** Deterministic PRNG (mulberry32): uniform in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(rand: () => number, mean: number, sd: number): number {
  const u = 1 - rand();
  const v = rand();
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

describe("the record's blocks", () => {
  it("makes blocks a timing record accepts", () => {
    const workers = [
      [3, 1, 5, 2, 4],
      [6, 100, 7, 9, 8],
    ];
    const d = distributionOf(
      workers,
      workers.map((w) => w.map((v) => v * 2.4)),
      3,
    );
    const record = JSON.parse(readFileSync(new URL("../../schema/examples/timing.json", import.meta.url), "utf8"));
    const central = centralOf(d, workers, { statistic: "auto", target: 0.01 });
    const result = validate("timing", { ...record, distribution: d, central });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    const bare = distributionOf(workers);
    expect(validate("timing", { ...record, distribution: bare }).valid).toBe(true);
  });
});

describe("centralOf", () => {
  it("publishes the mean for a discrete, wide distribution (rejection rounds)", () => {
    const rand = prng(7);
    // rounds ~ geometric(p = 0.25) from 1: each call 35 µs + rounds × 70 µs
    const geometric = () => {
      let rounds = 1;
      while (rand() >= 0.25) rounds++;
      return 35_000 + 70_000 * rounds;
    };
    const workers = [0, 1, 2].map(() => Array.from({ length: 2000 }, geometric));
    const d = distributionOf(workers, workers);
    const c = centralOf(d, workers, { statistic: "auto", target: 0.01 });
    expect(c.statistic).toBe("mean");
    expect(c.valueNs).toBe(d.meanNs);
    expect(c.valueCounter).toBeCloseTo(d.meanNs, 6);
    expect(c.reason).toMatch(
      /^mean of 6000 single calls over 3 workers: the per-call distribution is wide \(its 5th percentile \d+ % below the median\): the time depends on the input$/,
    );
    // the mean of a geometric × 70 µs + 35 µs: 35 + 70 · 4 = 315 µs
    expect(Math.abs(c.valueNs - 315_000) / 315_000).toBeLessThan(0.03);
    const median = centralOf(d, workers, { statistic: "median", target: 0.01 });
    expect(median.statistic).toBe("median");
    expect(median.reason).toMatch(/as the campaign asks, though the per-call distribution is wide/);
  });

  it("publishes the median for a tight distribution, with the pooled interval", () => {
    const rand = prng(11);
    const workers = [0, 1, 2].map(() => Array.from({ length: 2000 }, () => normal(rand, 100_000, 1_000)));
    const counter = workers.map((w) => w.map((v) => v * 2.4));
    const d = distributionOf(workers, counter);
    const c = centralOf(d, workers, { statistic: "auto", target: 0.01 });
    expect(c.statistic).toBe("median");
    expect(c.valueNs).toBe(d.medianNs);
    expect(c.valueCounter).toBeCloseTo(d.medianNs * 2.4, 6);
    expect(c.reason).toBe("median of 6000 single calls over 3 workers");
    const pooledHalf = Math.max(d.medianNs - d.medianCi95Ns.low, d.medianCi95Ns.high - d.medianNs);
    expect(c.ci95Ns.high - c.valueNs).toBeGreaterThanOrEqual(pooledHalf - 1e-9);
    expect(c.relativeHalfWidth).toBeCloseTo((c.ci95Ns.high - c.ci95Ns.low) / 2 / c.valueNs, 12);
    expect(c.metTarget).toBe(true);
    const forced = centralOf(d, workers, { statistic: "mean", target: 0.01 });
    expect(forced.statistic).toBe("mean");
    expect(forced.reason).toMatch(/^mean of 6000 single calls over 3 workers, as the campaign asks \(.*narrow/);
  });

  it("the decision by instruction counts decides the auto statistic, whatever the distribution; the campaign's still wins", () => {
    const rand = prng(13);
    // A busy machine: a third of the calls preempted, the fast side wide enough for the distribution rule's mean.
    const noisy = () => (rand() < 0.3 ? normal(rand, 40_000, 300) : normal(rand, 60_000, 300));
    const workers = [0, 1, 2].map(() => Array.from({ length: 2000 }, noisy));
    const d = distributionOf(workers, workers);
    expect(centralOf(d, workers, { statistic: "auto", target: 0.01 }).statistic).toBe("mean");
    const counted = {
      by: "instructions" as const,
      profile: "guide",
      calls: 16,
      minInstructions: 601_510,
      maxInstructions: 602_942,
      relativeSpread: 0.0024,
      threshold: 0.1,
      inputDependent: false,
    };
    const c = centralOf(d, workers, { statistic: "auto", target: 0.01, decision: counted });
    expect(c.statistic).toBe("median");
    expect(c.valueNs).toBe(d.medianNs);
    expect(c.decision).toEqual(counted);
    expect(c.reason).toBe(
      "median of 6000 single calls over 3 workers: the instructions per call (16 counted calls under guide: 601,510–602,942) vary by 0.24 %, not more than 10 %: the work does not depend on the input",
    );
    const dependent = { ...counted, maxInstructions: 23_677_250, relativeSpread: 3.22, inputDependent: true };
    const tight = [0, 1, 2].map(() => Array.from({ length: 2000 }, () => normal(rand, 100_000, 1_000)));
    const dt = distributionOf(tight, tight);
    const m = centralOf(dt, tight, { statistic: "auto", target: 0.01, decision: dependent });
    expect(m.statistic).toBe("mean");
    expect(m.reason).toMatch(/vary by 322 %, more than 10 %: the work depends on the input$/);
    // Asked for by the campaign: no decision recorded, the campaign's statistic.
    const asked = centralOf(dt, tight, { statistic: "median", target: 0.01, decision: dependent });
    expect(asked.statistic).toBe("median");
    expect(asked.decision).toBeUndefined();
    expect(asked.reason).toMatch(/as the campaign asks/);
    // No count: the distribution decides, and says why the counts did not.
    const why = { by: "distribution" as const, why: "valgrind (callgrind) is not installed" };
    const f = centralOf(dt, tight, { statistic: "auto", target: 0.01, decision: why });
    expect(f.statistic).toBe("median");
    expect(f.decision).toEqual(why);
    expect(f.reason).toMatch(/narrow \(instructions not counted: valgrind \(callgrind\) is not installed\)$/);
  });

  it("keeps the median for a constant-time operation on a busy machine (interference only adds time)", () => {
    const rand = prng(5);
    // 60 µs calls; 30 % of them preempted or interrupted for 5–80 µs more: the IQR is wide, the fast side is not.
    const noisy = () => normal(rand, 60_000, 300) + (rand() < 0.3 ? 5_000 + rand() * 75_000 : 0);
    const workers = [0, 1, 2].map(() => Array.from({ length: 2000 }, noisy));
    const d = distributionOf(workers, workers);
    expect((d.p75Ns - d.p25Ns) / d.medianNs).toBeGreaterThan(0.1);
    expect(centralOf(d, workers, { statistic: "auto", target: 0.01 }).statistic).toBe("median");
  });

  it("widens the interval by the spread between workers", () => {
    const rand = prng(3);
    const centres = [100_000, 102_000, 104_000];
    const workers = centres.map((m) => Array.from({ length: 2000 }, () => normal(rand, m, 200)));
    const d = distributionOf(workers, workers);
    const c = centralOf(d, workers, { statistic: "median", target: 0.01 });
    const pooledHalf = Math.max(d.medianNs - d.medianCi95Ns.low, d.medianCi95Ns.high - d.medianNs);
    const m = d.workerMediansNs;
    const [m0 = 0, m1 = 0, m2 = 0] = m;
    const mm = (m0 + m1 + m2) / 3;
    const sdW = Math.sqrt(m.reduce((a, v) => a + (v - mm) ** 2, 0) / 2);
    // A prediction interval of a repeat run of 3 workers: t(2) · sd · √(1/3 + 1/3).
    const workersHalf = 4.303 * sdW * Math.sqrt(2 / 3);
    expect(workersHalf).toBeGreaterThan(10 * pooledHalf);
    expect(c.ci95Ns.high - c.valueNs).toBeCloseTo(workersHalf, 6);
    expect(c.valueNs - c.ci95Ns.low).toBeCloseTo(workersHalf, 6);
    // The rule before it: a confidence interval of this run's figure, t(2) · sd / √3.
    const old = centralOf(d, workers, { statistic: "median", target: 0.01, interval: "confidence" });
    expect(old.ci95Ns.high - old.valueNs).toBeCloseTo((4.303 * sdW) / Math.sqrt(3), 6);
    expect(c.relativeHalfWidth).toBeGreaterThan(0.03);
    expect(c.metTarget).toBe(false);
    expect(d.workerSpread).toBeCloseTo((m2 - m0) / m1, 12);

    // one worker: nothing to widen by
    const first = workers.slice(0, 1);
    const one = distributionOf(first, first);
    const c1 = centralOf(one, first, { statistic: "auto", target: 0.01 });
    // one worker: two runs' pooled figures each carry the pooled interval's error, √2 × its half-width
    const half1 = Math.max(one.medianNs - one.medianCi95Ns.low, one.medianCi95Ns.high - one.medianNs);
    expect(c1.ci95Ns.high - c1.valueNs).toBeCloseTo(Math.SQRT2 * half1, 9);
    expect(c1.reason).toBe("median of 2000 single calls over 1 worker");
  });

  it("names batches in the reason", () => {
    const workers = [[10, 11, 12, 10, 11, 10, 11]];
    const d = distributionOf(workers, workers, 4);
    expect(centralOf(d, workers, { statistic: "auto", target: 0.5 }).reason).toBe(
      "median per call of 7 samples of 4 calls (28 calls) over 1 worker",
    );
  });

  it("needs counter figures and matching workers", () => {
    const d = distributionOf([[1, 2, 3]]);
    expect(() => centralOf(d, [[1, 2, 3]], { statistic: "auto", target: 0.01 })).toThrow(/counter/);
    const e = distributionOf([[1, 2, 3]], [[1, 2, 3]]);
    expect(() => centralOf(e, [[1], [2]], { statistic: "auto", target: 0.01 })).toThrow(/workers/);
  });
});

describe("summarizeSamples", () => {
  it("takes the worker spread over the statistic published", () => {
    const workers = [
      [100, 100, 100, 400],
      [100, 200, 300, 400],
      [100, 100, 400, 400],
    ];
    const { distribution, central } = summarizeSamples(workers, workers, 1, { statistic: "mean", target: 0.01 });
    expect(central.statistic).toBe("mean");
    expect(distribution.workerMeansNs).toEqual([175, 250, 250]);
    expect(distribution.workerSpread).toBeCloseTo(75 / 250, 12);
    expect(workerSpread(distribution.workerMediansNs)).toBeCloseTo((250 - 100) / 250, 12);
    expect(workerSpread([5])).toBe(0);
  });
});

describe("stopDecision", () => {
  const met = { metTarget: true };
  const missed = { metTarget: false };
  const base = { minWorkers: 3, elapsedMs: 500, budgetMs: 2000, quick: false };
  it("continues until the target is met by enough workers or the budget is spent", () => {
    expect(stopDecision({ ...base, central: undefined, workers: 0 })).toBe("continue");
    expect(stopDecision({ ...base, central: met, workers: 2 })).toBe("continue");
    expect(stopDecision({ ...base, central: missed, workers: 5 })).toBe("continue");
    expect(stopDecision({ ...base, central: met, workers: 3 })).toBe("target");
    expect(stopDecision({ ...base, central: missed, workers: 4, elapsedMs: 2000 })).toBe("budget");
    expect(stopDecision({ ...base, central: met, workers: 2, elapsedMs: 2500 })).toBe("budget");
    expect(stopDecision({ ...base, central: met, workers: 3, elapsedMs: 2500 })).toBe("target");
  });
  it("does not count contended workers' time against the budget, up to the allowance on top of it", () => {
    const c = { ...base, central: missed, workers: 6, contendedBudgetMs: 2000 };
    // 2500 ms spent, 1500 of them on contended workers: 1000 ms of uncontended sampling, the budget is 2000.
    expect(stopDecision({ ...c, elapsedMs: 2500, contendedMs: 1500 })).toBe("continue");
    expect(stopDecision({ ...c, elapsedMs: 3500, contendedMs: 1500 })).toBe("budget");
    // Contended time beyond the allowance counts again: at most budget + allowance in all.
    expect(stopDecision({ ...c, elapsedMs: 3900, contendedMs: 3900 })).toBe("continue");
    expect(stopDecision({ ...c, elapsedMs: 4000, contendedMs: 4000 })).toBe("budget");
    // No allowance (0): contended time counts like any other.
    expect(stopDecision({ ...c, contendedBudgetMs: 0, elapsedMs: 2000, contendedMs: 1500 })).toBe("budget");
    // The target still stops it at once.
    expect(stopDecision({ ...c, central: met, elapsedMs: 2500, contendedMs: 1500 })).toBe("target");
  });
  it("stops a quick run after its first worker", () => {
    expect(stopDecision({ ...base, quick: true, central: undefined, workers: 0 })).toBe("continue");
    expect(stopDecision({ ...base, quick: true, central: missed, workers: 1 })).toBe("quick");
  });
});

describe("core clock and estimated cycles", () => {
  const tsc = { unit: "tsc-ticks", rateHz: 2.5e9, overhead: 40 };

  it("coreClockHz: adds ÷ (median probe − overhead) × the counter's rate; null without a rate or a probe", () => {
    // 16384 adds in 9,000 ticks + 40 of overhead at 2.5 GHz: 16384 / 9000 × 2.5e9 Hz; the outlier does not count.
    expect(coreClockHz({ adds: 16384, deltas: [9040, 9040, 90400] }, tsc)).toBeCloseTo((16384 / 9000) * 2.5e9, 0);
    expect(coreClockHz({ adds: 1000, deltas: [500] }, { unit: "ns", rateHz: 1e9 })).toBeCloseTo(2e9, 0);
    expect(coreClockHz({ adds: 16384, deltas: [9040] }, { unit: "tsc-ticks", rateHz: null })).toBeNull();
    expect(coreClockHz({ adds: 16384, deltas: [] }, tsc)).toBeNull();
    expect(coreClockHz({ adds: 16384, deltas: [30] }, tsc)).toBeNull();
  });

  it("cyclesFigures: a clock that changes between workers changes the time, not the cycles", () => {
    // The same 100,000-cycle call on workers at 4.0 and 5.0 GHz: 25 µs and 20 µs.
    const slow = Array.from({ length: 101 }, (_, i) => 25_000 * (1 + (i % 3) * 1e-4));
    const fast = Array.from({ length: 101 }, (_, i) => 20_000 * (1 + (i % 3) * 1e-4));
    const f = cyclesFigures([slow, fast], [4e9, 5e9], 16384, "median", 0.01);
    expect(f.distribution.medianCycles).toBeCloseTo(100_010, -1);
    expect(f.distribution.workerSpread).toBeLessThan(1e-6);
    expect(f.central.value).toBeCloseTo(100_010, -1);
    expect(f.central.metTarget).toBe(true);
    expect(f.coreClock).toEqual({ method: "add-chain", adds: 16384, workerHz: [4e9, 5e9], minHz: 4e9, maxHz: 5e9 });
    // The time of the same samples spreads by 25 % between the workers and misses the target.
    const time = summarizeSamples([slow, fast], [slow, fast], 1, { statistic: "median", target: 0.01 });
    expect(time.central.metTarget).toBe(false);
    // The mean is kept as the statistic when the time figure uses it.
    expect(cyclesFigures([slow, fast], [4e9, 5e9], 16384, "mean", 0.01).central.value).toBeCloseTo(100_010, -1);
    expect(() => cyclesFigures([slow], [4e9, 5e9], 16384, "median", 0.01)).toThrow(/one core clock per worker/);
  });
});

describe("workers in code layouts", () => {
  it("takes each layout's mean out of the workers' spread once some layout ran twice, else counts it as noise", () => {
    // Two layouts 4 % apart, each repeating within 0.1 %.
    const figures = [100, 104, 100.1, 104.1, 99.9, 103.9, 100, 104];
    const groups = [0, 16, 0, 16, 0, 16, 0, 16];
    const plain = workersHalfWidth(figures);
    const grouped = workersHalfWidth(figures, groups);
    expect(plain).toBeGreaterThan(1.5); // t(7) · 2.1 / √8
    expect(grouped).toBeLessThan(0.1);
    expect(grouped).toBeGreaterThan(0);
    // One worker per layout: no within-layout spread to go by, so the plain rule.
    expect(workersHalfWidth([100, 104], [0, 16])).toBeCloseTo(workersHalfWidth([100, 104]), 12);
    expect(workersHalfWidth([100, 104, 100.1], [0, 16, 0])).toBeCloseTo(workersHalfWidth([100, 104, 100.1]), 12);
  });

  it("stops on the target only after a balanced round", () => {
    const base = {
      central: { metTarget: true },
      workers: 5,
      minWorkers: 4,
      elapsedMs: 10,
      budgetMs: 2000,
      quick: false,
    };
    expect(stopDecision({ ...base, balanced: false })).toBe("continue");
    expect(stopDecision({ ...base, balanced: true })).toBe("target");
    expect(stopDecision({ ...base, balanced: false, elapsedMs: 2000 })).toBe("budget");
  });
});

describe("the auto rule with the core clock probed", () => {
  it("judges the cycles' shape: a clock change between workers does not make a constant-time operation's mean published", () => {
    // The same 100,000-cycle call at 4 and 5 GHz: the pooled times spread 25 %, the cycles not at all.
    const slow = Array.from({ length: 200 }, (_, i) => 25_000 * (1 + (i % 5) * 1e-4));
    const fast = Array.from({ length: 200 }, (_, i) => 20_000 * (1 + (i % 5) * 1e-4));
    const byTime = summarizeSamples([fast, slow, slow], [fast, slow, slow], 1, { statistic: "auto", target: 0.01 });
    expect(byTime.central.statistic).toBe("mean");
    const shape = shapeOf([fast.map((x) => x * 5), slow.map((x) => x * 4), slow.map((x) => x * 4)]);
    const byCycles = summarizeSamples([fast, slow, slow], [fast, slow, slow], 1, {
      statistic: "auto",
      target: 0.01,
      shapeFrom: shape,
    });
    expect(byCycles.central.statistic).toBe("median");
    expect(byCycles.central.reason).toBe("median of 600 single calls over 3 workers");
  });
});

describe("the interval of a repeat run (prediction interval)", () => {
  it("is √2 × the confidence half-width over the workers, layouts taken out alike", () => {
    const figures = [100, 104, 100.1, 104.1, 99.9, 103.9, 100, 104];
    const groups = [0, 16, 0, 16, 0, 16, 0, 16];
    expect(predictionHalfWidth(figures)).toBeCloseTo(Math.SQRT2 * workersHalfWidth(figures), 12);
    expect(predictionHalfWidth(figures, groups)).toBeCloseTo(Math.SQRT2 * workersHalfWidth(figures, groups), 12);
    expect(predictionHalfWidth([100])).toBe(0);
  });

  // Two runs of W workers on the same machine: every worker's level is the machine's level plus process-to-process
  // noise (layout of the heap, the clock the host gave it, the neighbours it had), its calls scatter around it.
  // Each run's published figure should lie inside the other run's interval 95 % of the time.
  function coverage(w: number, interval: "prediction" | "confidence", pairs: number, seed: number): number {
    const rand = prng(seed);
    const run = () => {
      const workers = Array.from({ length: w }, () => {
        const level = normal(rand, 100_000, 800);
        return Array.from({ length: 301 }, () => normal(rand, level, 1_500));
      });
      const c = summarizeSamples(workers, workers, 1, { statistic: "median", target: 0.01, interval }).central;
      return c;
    };
    let inside = 0;
    for (let i = 0; i < pairs; i++) {
      const a = run();
      const b = run();
      if (a.valueNs >= b.ci95Ns.low && a.valueNs <= b.ci95Ns.high) inside++;
      if (b.valueNs >= a.ci95Ns.low && b.valueNs <= a.ci95Ns.high) inside++;
    }
    return inside / (2 * pairs);
  }

  it("covers the other run's figure about 95 % of the time; the confidence interval did not", () => {
    for (const w of [4, 8]) {
      const now = coverage(w, "prediction", 600, 7);
      const before = coverage(w, "confidence", 600, 7);
      expect(now).toBeGreaterThan(0.93);
      expect(now).toBeLessThan(0.98);
      // The rule before covered the other run's figure less often: its half-width is √2 smaller, so it covers
      // P(|T(W − 1)| ≤ t / √2): 0.89 for W = 4, 0.86 for W = 8.
      expect(before).toBeLessThan(0.92);
      expect(now - before).toBeGreaterThan(0.04);
    }
  });
});

describe("contention: workers on a core shared with a busy sibling thread", () => {
  interface RecordedWorker {
    counter: { unit: string; rateHz: number; overhead: number };
    batch: number;
    samples: number[];
    clockChain: { adds: number; deltas: number[] };
    throughputChain: { adds: number; chains: number; deltas: number[] };
  }
  const recorded = JSON.parse(
    readFileSync(new URL("./testdata/contention.recorded.json", import.meta.url), "utf8"),
  ) as { workers: RecordedWorker[] };
  const figuresOf = (ws: RecordedWorker[]) =>
    ws.map((w) => addsPerCycle(w.clockChain, w.throughputChain, w.counter) as number);

  it("addsPerCycle: the probe's adds per cycle from the two chains' medians, no rate needed", () => {
    const w = recorded.workers[0] as RecordedWorker;
    const med = (v: readonly number[]) => {
      const s = [...v].sort((a, b) => a - b);
      return s.length % 2
        ? (s[(s.length - 1) / 2] as number)
        : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
    };
    const o = w.counter.overhead;
    const want =
      (w.throughputChain.adds / (med(w.throughputChain.deltas) - o)) *
      ((med(w.clockChain.deltas) - o) / w.clockChain.adds);
    expect(addsPerCycle(w.clockChain, w.throughputChain, w.counter)).toBeCloseTo(want, 12);
    // What 4 chains can read on this x86-64 VM: more than 1 (the dependent chain's), at most 4.
    for (const f of figuresOf(recorded.workers)) {
      expect(f).toBeGreaterThan(2);
      expect(f).toBeLessThanOrEqual(4.1);
    }
    expect(addsPerCycle(w.clockChain, { ...w.throughputChain, deltas: [] }, w.counter)).toBeNull();
    expect(addsPerCycle(w.clockChain, { ...w.throughputChain, deltas: [o] }, w.counter)).toBeNull();
  });

  it("judges the recorded workers against the best of them", () => {
    // As recorded (3.08–3.39 adds per cycle: this VM's host shared some of these workers' cores).
    const f = figuresOf(recorded.workers);
    const c = contentionOf(f, 4, 2);
    expect(c.reference).toBeCloseTo(Math.max(...f), 12);
    expect(c.threshold).toBeCloseTo(CONTENDED_SHARE * Math.max(...f), 12);
    expect(c.workers.map((w) => w.contended)).toEqual(f.map((x) => x < 0.95 * Math.max(...f)));
    expect(c.workers.map((w) => w.contended)).toEqual([true, true, false, true, false, true]);
    expect(c.state).toBe("mixed");
    expect(c.publishedFrom).toBe("uncontended");
    expect(publishedWorkers(c)).toEqual([2, 4]);
    expect(contentionOf(f, 4, 4).publishedFrom).toBe("all");
  });

  // The recorded workers with their independent chains set by hand to read `perCycle` adds per cycle (the
  // deltas' net part scaled; the dependent chain and the samples as recorded).
  const at = (w: RecordedWorker, perCycle: number): RecordedWorker => {
    const now = addsPerCycle(w.clockChain, w.throughputChain, w.counter) as number;
    const o = w.counter.overhead;
    return {
      ...w,
      throughputChain: {
        ...w.throughputChain,
        deltas: w.throughputChain.deltas.map((d) => o + ((d - o) * now) / perCycle),
      },
    };
  };
  const set = (perCycle: number[]) => recorded.workers.map((w, i) => at(w, perCycle[i] as number));

  it("leaves every worker uncontended when each reads within 5 % of the best", () => {
    const ws = set([3.8, 3.78, 3.75, 3.7, 3.79, 3.77]);
    for (const [i, f] of figuresOf(ws).entries())
      expect(f).toBeCloseTo([3.8, 3.78, 3.75, 3.7, 3.79, 3.77][i] as number, 9);
    const c = contentionOf(figuresOf(ws), 4, 4, { floor: X86_64_ALONE_ADDS_PER_CYCLE });
    expect(c.state).toBe("uncontended");
    expect(c.publishedFrom).toBe("uncontended");
    expect(publishedWorkers(c)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  // Two workers on a shared core: the VM read 2.6–3.2 with a busy sibling against 3.85 alone.
  const mixed = set([3.8, 3.2, 3.78, 3.75, 3.0, 3.79]);

  it("flags the slow workers and publishes from the others when there are minWorkers of them", () => {
    const c = contentionOf(figuresOf(mixed), 4, 4, { floor: X86_64_ALONE_ADDS_PER_CYCLE });
    expect(c.probe).toBe("add-throughput");
    expect(c.reference).toBeCloseTo(3.8, 9);
    expect(c.threshold).toBeCloseTo(0.95 * 3.8, 9);
    expect(c.workers.map((w) => w.contended)).toEqual([false, true, false, false, true, false]);
    expect(c.workers.map((w) => w.worker)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(c.state).toBe("mixed");
    expect(c.publishedFrom).toBe("uncontended");
    expect(publishedWorkers(c)).toEqual([0, 2, 3, 5]);
    // The figure comes from the uncontended workers' samples only.
    const ns = mixed.map((w) => perCallNs({ counterDeltas: w.samples }, w.batch, w.counter));
    const chosen = publishedWorkers(c).map((i) => ns[i] as number[]);
    const s = summarizeSamples(chosen, chosen, mixed[0]?.batch ?? 1, { statistic: "median", target: 0.01 });
    expect(s.distribution.workerMediansNs).toHaveLength(4);
    expect(s.distribution.n).toBe([0, 2, 3, 5].reduce((a, i) => a + (ns[i]?.length ?? 0), 0));
  });

  it("publishes from all workers, the state stated, when too few are uncontended", () => {
    const c = contentionOf(figuresOf(mixed), 4, 5);
    expect(c.state).toBe("mixed");
    expect(c.publishedFrom).toBe("all");
    expect(publishedWorkers(c)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("sees a run whose every worker shared its core through the x86-64 floor", () => {
    const all = set([3.2, 3.1, 3.15, 3.05, 3.2, 3.1]);
    expect(contentionOf(figuresOf(all), 4, 4).state).toBe("uncontended"); // relative only: cannot tell
    const c = contentionOf(figuresOf(all), 4, 4, { floor: X86_64_ALONE_ADDS_PER_CYCLE });
    expect(c.reference).toBe(X86_64_ALONE_ADDS_PER_CYCLE);
    expect(c.state).toBe("contended");
    expect(c.publishedFrom).toBe("all");
  });

  it("makes a block a timing record accepts", () => {
    const c = contentionOf(figuresOf(mixed), 4, 4, { floor: X86_64_ALONE_ADDS_PER_CYCLE });
    const w = recorded.workers[0] as RecordedWorker;
    const ns = [perCallNs({ counterDeltas: w.samples }, w.batch, w.counter)];
    const s = summarizeSamples(ns, ns, w.batch, { statistic: "median", target: 0.01 });
    expect(s.distribution.p999Ns).toBeGreaterThanOrEqual(s.distribution.p99Ns);
    expect(s.distribution.p999Ns).toBeLessThanOrEqual(s.distribution.maxNs);
    const record = JSON.parse(readFileSync(new URL("../../schema/examples/timing.json", import.meta.url), "utf8"));
    const r = validate("timing", { ...record, contention: c, distribution: s.distribution, central: s.central });
    expect(r.errors).toEqual([]);
    const bad = validate("timing", { ...record, contention: { ...c, state: "busy" } });
    expect(bad.errors).not.toEqual([]);
  });
});
