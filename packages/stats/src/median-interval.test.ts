import { describe, expect, it } from "vitest";
import { distributionOf } from "./distribution.ts";
import { medianRanks } from "./median-interval.ts";
import { rng } from "./rng.ts";

/**
 * The lower rank of the median's 95 % interval, independently: the largest l with P(B ≤ l − 1) ≤ 1/40 for
 * B ~ binomial(n, ½), i.e. 40 · Σ_{k<l} C(n, k) ≤ 2^n, in exact integers.
 */
function exactLowerRank(n: number): number {
  const total = 1n << BigInt(n);
  let choose = 1n; // C(n, 0)
  let sum = 0n;
  for (let k = 0; k <= n; k++) {
    if (k > 0) choose = (choose * BigInt(n - k + 1)) / BigInt(k);
    sum += choose;
    if (40n * sum > total) return k;
  }
  return n;
}

/** Exact coverage of [X(l), X(n+1−l)]: 1 − 2 P(B ≤ l − 1), with BigInt sums. */
function exactCoverage(n: number, l: number): number {
  let choose = 1n;
  let sum = 0n;
  for (let k = 0; k < l; k++) {
    if (k > 0) choose = (choose * BigInt(n - k + 1)) / BigInt(k);
    sum += choose;
  }
  const scale = 10n ** 12n;
  return 1 - (2 * Number((sum * scale) / (1n << BigInt(n)))) / Number(scale);
}

describe("the order-statistic interval of the median", () => {
  it("matches the binomial tables for n = 10, 31, 100", () => {
    expect(medianRanks(10)).toEqual({ lower: 2, upper: 9 });
    expect(medianRanks(31)).toEqual({ lower: 10, upper: 22 });
    expect(medianRanks(100)).toEqual({ lower: 40, upper: 61 });
    for (const n of [10, 31, 100]) {
      const l = exactLowerRank(n);
      expect(medianRanks(n)).toEqual({ lower: l, upper: n + 1 - l });
      expect(exactCoverage(n, l)).toBeGreaterThanOrEqual(0.95);
      expect(exactCoverage(n, l + 1)).toBeLessThan(0.95);
    }
  });

  it("is exact for every n up to 1000", () => {
    expect(medianRanks(5)).toBeNull();
    expect(medianRanks(6)).toEqual({ lower: 1, upper: 6 });
    for (let n = 6; n <= 1000; n += n < 200 ? 1 : 7) {
      const l = exactLowerRank(n);
      expect(medianRanks(n), `n = ${n}`).toEqual({ lower: l, upper: n + 1 - l });
    }
    expect(medianRanks(1000)).toEqual({ lower: exactLowerRank(1000), upper: 1001 - exactLowerRank(1000) });
  });

  it("beyond 1000 is within one rank of exact, never narrower", () => {
    for (let n = 1001; n <= 1120; n++) {
      const l = exactLowerRank(n);
      const r = medianRanks(n);
      expect(r).not.toBeNull();
      expect(r?.lower, `n = ${n}`).toBeLessThanOrEqual(l);
      expect(r?.lower, `n = ${n}`).toBeGreaterThanOrEqual(l - 1);
      expect(r?.upper).toBe(n + 1 - (r?.lower ?? 0));
    }
  });

  it("covers the true median about 95 % of the time", () => {
    // Exponential(1), median ln 2; sizes on both sides of the exact / normal boundary.
    const next = rng(20261201);
    const rand = () => next() / 4294967296;
    const sizes = [200, 500, 1500];
    const trials = 3000;
    let covered = 0;
    let expected = 0;
    const coverage = new Map(sizes.map((n) => [n, exactCoverage(n, exactLowerRank(n))]));
    const approx1500 = medianRanks(1500)?.lower ?? 0;
    coverage.set(1500, exactCoverage(1500, approx1500));
    for (let i = 0; i < trials; i++) {
      const n = sizes[i % sizes.length] as number;
      const xs = Array.from({ length: n }, () => -Math.log(1 - rand()));
      const { medianCi95Ns } = distributionOf([xs]);
      if (medianCi95Ns.low <= Math.LN2 && Math.LN2 <= medianCi95Ns.high) covered++;
      expected += coverage.get(n) as number;
    }
    const rate = covered / trials;
    expect(rate).toBeGreaterThanOrEqual(0.93);
    expect(rate).toBeLessThanOrEqual(0.97);
    // and agrees with the exact coverage of these sizes within 4 standard errors
    const p = expected / trials;
    expect(Math.abs(rate - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / trials));
  });
});
