import { describe, expect, it } from "vitest";
import { chooseStatistic, distributionOf, lowerSpreadShare, shapeOf, workerSpread } from "./distribution.ts";

describe("distributionOf on a small known input", () => {
  // 1..9 and 100, in two workers; batch 3.
  const workers = [
    [3, 1, 5, 2, 4],
    [6, 100, 7, 9, 8],
  ];
  const counter = workers.map((w) => w.map((v) => v * 2.4));
  const d = distributionOf(workers, counter, 3);

  it("has pooled n, calls, mean, median, extremes", () => {
    expect(d.n).toBe(10);
    expect(d.calls).toBe(30);
    expect(d.meanNs).toBeCloseTo(14.5, 12);
    expect(d.medianNs).toBe(5.5);
    expect(d.minNs).toBe(1);
    expect(d.maxNs).toBe(100);
  });

  it("has type-7 quantiles", () => {
    // h = 9p: p1 → 1 + 0.09, p5 → 1 + 0.45, p25 → 3 + 0.25, p75 → 7 + 0.75, p95 → 9 + 0.55·91, p99 → 9 + 0.91·91
    expect(d.p1Ns).toBeCloseTo(1.09, 12);
    expect(d.p5Ns).toBeCloseTo(1.45, 12);
    expect(d.p25Ns).toBeCloseTo(3.25, 12);
    expect(d.p75Ns).toBeCloseTo(7.75, 12);
    expect(d.p95Ns).toBeCloseTo(59.05, 10);
    expect(d.p99Ns).toBeCloseTo(91.81, 10);
  });

  it("has the unscaled MAD and the sample sd", () => {
    // |x − 5.5| sorted: .5 .5 1.5 1.5 2.5 2.5 3.5 3.5 4.5 94.5 → 2.5
    expect(d.madNs).toBe(2.5);
    // Σx² = 285 + 10000; SS = 10285 − 10 · 14.5² = 8182.5; var = 8182.5 / 9
    expect(d.sdNs).toBeCloseTo(Math.sqrt(8182.5 / 9), 10);
  });

  it("counts Tukey outliers without dropping them", () => {
    // IQR 4.5: fences 3.25 − 6.75 and 7.75 + 6.75
    expect(d.outliers).toEqual({ low: 0, high: 1, fences: { low: -3.5, high: 14.5 } });
    expect(d.n).toBe(10);
  });

  it("gives the order-statistic interval of the median and a t interval of the mean", () => {
    // n = 10: ranks 2 and 9
    expect(d.medianCi95Ns).toEqual({ low: 2, high: 9 });
    const half = (2.262 * Math.sqrt(8182.5 / 9)) / Math.sqrt(10);
    expect(d.meanCi95Ns.low).toBeCloseTo(14.5 - half, 10);
    expect(d.meanCi95Ns.high).toBeCloseTo(14.5 + half, 10);
  });

  it("has per-worker figures, their spread, and the counter figures", () => {
    expect(d.workerMediansNs).toEqual([3, 8]);
    expect(d.workerMeansNs).toEqual([3, 26]);
    expect(d.workerSpread).toBeCloseTo(5 / 5.5, 12);
    expect(d.meanCounter).toBeCloseTo(14.5 * 2.4, 10);
    expect(d.medianCounter).toBeCloseTo(5.5 * 2.4, 10);
  });

  it("uses 1.96 for the mean beyond 30 samples", () => {
    const big = distributionOf([Array.from({ length: 31 }, (_, i) => i)]);
    const half = (1.96 * big.sdNs) / Math.sqrt(31);
    expect(big.meanCi95Ns.high - big.meanNs).toBeCloseTo(half, 10);
  });

  it("takes the whole range for the median when n is too small for a 95 % interval", () => {
    const tiny = distributionOf([[5, 1, 3, 4, 2]]);
    expect(tiny.medianCi95Ns).toEqual({ low: 1, high: 5 });
    const six = distributionOf([[6, 1, 3, 4, 2, 5]]);
    expect(six.medianCi95Ns).toEqual({ low: 1, high: 6 });
    const one = distributionOf([[7]]);
    expect(one.sdNs).toBe(0);
    expect(one.meanCi95Ns).toEqual({ low: 7, high: 7 });
    expect(one.medianCi95Ns).toEqual({ low: 7, high: 7 });
  });

  it("refuses empty or mismatched input", () => {
    expect(() => distributionOf([])).toThrow(/no workers/);
    expect(() => distributionOf([[1], []])).toThrow(/worker 2/);
    expect(() => distributionOf([[1, Number.NaN]])).toThrow(/non-finite/);
    expect(() => distributionOf([[1, 2]], [[1]])).toThrow(/do not match/);
  });
});

describe("the auto rule's statistic and the workers' spread", () => {
  it("takes the mean when the fast calls lie more than 10 % below the median", () => {
    expect(lowerSpreadShare({ p5Ns: 80, medianNs: 100 })).toBeCloseTo(0.2, 12);
    expect(chooseStatistic({ p5Ns: 80, medianNs: 100 }, "auto")).toBe("mean");
    expect(chooseStatistic({ p5Ns: 95, medianNs: 100 }, "auto")).toBe("median");
    expect(chooseStatistic({ p5Ns: 80, medianNs: 100 }, "median")).toBe("median");
    expect(lowerSpreadShare({ p5Ns: 0, medianNs: 0 })).toBe(0);
  });

  it("gives the pooled shape and (max − min) / median of the workers' figures", () => {
    const shape = shapeOf([
      [4, 2],
      [3, 1, 5],
    ]);
    expect(shape.p5Ns).toBeCloseTo(1.2, 12);
    expect(shape.medianNs).toBe(3);
    expect(workerSpread([100, 250, 175])).toBeCloseTo(150 / 175, 12);
    expect(workerSpread([5])).toBe(0);
    expect(workerSpread([0, 0, 1])).toBe(0);
  });
});
