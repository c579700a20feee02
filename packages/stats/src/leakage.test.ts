// The fixed-vs-random leakage test on generated per-call times (seeded, so every run sees the same numbers and the
// verdicts cannot follow the machine's noise): Welch's t against a hand computation, dudect's cropping
// percentiles, and the verdicts — none for two classes of one distribution, a leak for a shift of a few cycles in
// a level of noise, a shift that a heavy tail hides from the raw test but not from the cropped ones, a difference
// of spread only (second order), and too few measurements.
import { describe, expect, it } from "vitest";
import {
  CROPS,
  cropThresholds,
  ENOUGH_MEASUREMENTS,
  LEAK_T,
  LeakageTest,
  LIKELY_T,
  leakEstablished,
  leakVerdict,
  Welch,
} from "./leakage.ts";
import { rng } from "./rng.ts";

/** Seeded per-call times: class by a fair coin, each time base + shift(class) + sd(class)·N(0,1) + rare outliers. */
function run(
  seed: number,
  n: number,
  o: { shift?: number; sd1?: number; outlierRate?: number; outlier?: number } = {},
): { times: Float64Array; classes: Uint8Array } {
  const next = rng(seed);
  const u = () => (next() + 0.5) / 2 ** 32;
  const times = new Float64Array(n);
  const classes = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = next() & 1;
    const z = Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
    const sd = c === 1 ? (o.sd1 ?? 50) : 50;
    let x = 10_000 + (c === 1 ? (o.shift ?? 0) : 0) + sd * z;
    if (u() < (o.outlierRate ?? 0)) x += (o.outlier ?? 0) * u();
    times[i] = x;
    classes[i] = c;
  }
  return { times, classes };
}

/** The test fed in batches of 10,000, as the runner feeds it one worker's output at a time. */
function test(data: { times: Float64Array; classes: Uint8Array }) {
  const t = new LeakageTest();
  for (let i = 0; i < data.times.length; i += 10_000)
    t.push(data.times.subarray(i, i + 10_000), data.classes.subarray(i, i + 10_000));
  return t.result();
}

describe("Welch's t", () => {
  it("equals the hand computation", () => {
    // Class 0: 1 2 3 4 (mean 2.5, variance 5/3); class 1: 2 … 6 (mean 4, variance 2.5):
    // t = (2.5 − 4) / sqrt(5/3/4 + 2.5/5) = −1.5 / sqrt(11/12).
    const w = new Welch();
    for (const x of [1, 2, 3, 4]) w.push(x, 0);
    for (const x of [2, 3, 4, 5, 6]) w.push(x, 1);
    expect(w.t()).toBeCloseTo(-1.5 / Math.sqrt(11 / 12), 12);
    expect([w.mean(0), w.mean(1)]).toEqual([2.5, 4]);
  });

  it("is 0 while a class has fewer than two values or nothing varies", () => {
    const w = new Welch();
    w.push(1, 0);
    w.push(2, 1);
    w.push(3, 1);
    expect(w.t()).toBe(0);
    const flat = new Welch();
    for (const c of [0, 0, 1, 1] as const) flat.push(7, c);
    expect(flat.t()).toBe(0);
  });
});

describe("the cropping thresholds", () => {
  it("are dudect's percentiles 1 − 0.5^(10 (k+1) / 100), ascending", () => {
    const th = cropThresholds(Float64Array.from({ length: 1000 }, (_, i) => 999 - i));
    expect(th).toHaveLength(CROPS);
    expect(th[0]).toBe(66); // p = 1 − 0.5^0.1 = 0.0670
    expect(th[CROPS - 1]).toBe(999); // p = 1 − 0.5^10 = 0.99902
    for (let k = 1; k < CROPS; k++) expect(th[k]).toBeGreaterThanOrEqual(th[k - 1] as number);
  });
});

describe("the verdicts", () => {
  it("two classes of one distribution: no leak detected at 200,000 measurements", () => {
    const r = test(run(1, 200_000, { outlierRate: 0.01, outlier: 20_000 }));
    expect(r.measurements).toBe(200_000);
    expect(r.perClass[0] + r.perClass[1]).toBe(200_000);
    expect(r.maxT).toBeLessThan(LIKELY_T);
    expect(r.verdict).toBe("no leak detected");
    expect(leakEstablished(r)).toBe(false);
  });

  it("a shift of 5 cycles (0.05 %) under a noise of 50: a leak", () => {
    const r = test(run(2, 200_000, { shift: 5 }));
    expect(r.maxT).toBeGreaterThanOrEqual(LEAK_T);
    expect(r.rawT).toBeGreaterThanOrEqual(LEAK_T);
    expect(r.verdict).toBe("leak");
    expect(leakEstablished(r)).toBe(true);
  });

  it("a shift a heavy tail hides from the raw times is found by a cropped test", () => {
    // 5 % of the calls of either class take up to 1,000,000 cycles more (interrupts, another tenant): the raw
    // test's variance drowns the 10-cycle shift, the times below a low percentile keep it.
    const r = test(run(3, 200_000, { shift: 10, outlierRate: 0.05, outlier: 1_000_000 }));
    expect(r.rawT).toBeLessThan(LIKELY_T);
    expect(r.maxT).toBeGreaterThanOrEqual(LEAK_T);
    expect(r.test).toMatch(/^cropped below p\d/);
    expect(r.testMeasurements).toBeLessThan(r.measurements);
    expect(r.verdict).toBe("leak");
  });

  it("the same level with twice the spread: second order finds it", () => {
    const r = test(run(4, 200_000, { sd1: 100 }));
    expect(r.rawT).toBeLessThan(LIKELY_T);
    expect(r.secondOrderT).toBeGreaterThanOrEqual(LEAK_T);
    expect(r.verdict).toBe("leak");
  });

  it("fewer than 10,000 measurements: too few, whatever |t| is", () => {
    const r = test(run(5, ENOUGH_MEASUREMENTS - 1, { shift: 500 }));
    expect(r.maxT).toBeGreaterThan(LEAK_T);
    expect(r.verdict).toBe("too few measurements");
    expect(leakVerdict(LIKELY_T, ENOUGH_MEASUREMENTS)).toBe("leak likely");
    expect(leakVerdict(LEAK_T, ENOUGH_MEASUREMENTS)).toBe("leak");
    expect(leakVerdict(LIKELY_T - 0.01, ENOUGH_MEASUREMENTS)).toBe("no leak detected");
  });

  it("refuses a class that is neither 0 nor 1, and times and classes of different lengths", () => {
    const t = new LeakageTest();
    expect(() => t.push([1, 2], [0, 2])).toThrow(/class 2 at 1: expected 0 \(fixed\) or 1 \(random\)/);
    expect(() => t.push([1, 2], [0])).toThrow(/differ in length/);
  });
});
