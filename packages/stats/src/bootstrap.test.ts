// The bootstrap of a ratio (`ngcc-perf compare`'s interval) on values made in memory; the comparison built on it is
// packages/report/src/compare/compare.test.ts.
import { describe, expect, it } from "vitest";
import { ratioInterval, sideOf, sideStatistic } from "./bootstrap.ts";
import { rng } from "./rng.ts";

/** `count` workers of `perWorker` values near `center`: each worker off by up to ±0.5 %, each value up by 0–5 %
 * (most near 0: interference only adds time). Seeded. */
function noisy(center: number, count: number, perWorker: number, seed: number): number[][] {
  const next = rng(seed);
  const u = () => next() / 4294967296;
  const out: number[][] = [];
  for (let w = 0; w < count; w++) {
    const base = center * (1 + 0.01 * (u() - 0.5));
    out.push(Array.from({ length: perWorker }, () => base + center * 0.05 * u() ** 3));
  }
  return out;
}

describe("the bootstrap interval of a ratio", () => {
  it("contains 1 for a side compared with itself, and is the same for the same seed", () => {
    const a = sideOf(noisy(1000, 6, 300, 7), [0, 16, 32, 0, 16, 32]);
    const ci = ratioInterval(a, a, "median", 500, 3);
    expect(ci.low).toBeLessThanOrEqual(1);
    expect(ci.high).toBeGreaterThanOrEqual(1);
    expect(ratioInterval(a, a, "median", 500, 3)).toEqual(ci);
  });

  it("is determined by its seed: the same seed, the same interval; another seed, another", () => {
    const a = sideOf(noisy(1000, 4, 200, 1));
    const b = sideOf(noisy(1100, 4, 200, 2));
    for (const statistic of ["median", "mean"] as const) {
      const ci = ratioInterval(a, b, statistic, 300, 17);
      expect(ratioInterval(a, b, statistic, 300, 17)).toEqual(ci);
      expect(ratioInterval(a, b, statistic, 300, 18)).not.toEqual(ci);
    }
  });

  it("lies around the true ratio when B is 30 % slower (median and mean)", () => {
    const a = sideOf(noisy(1000, 4, 400, 1));
    const b = sideOf(noisy(1300, 4, 400, 2));
    for (const statistic of ["median", "mean"] as const) {
      const ci = ratioInterval(a, b, statistic, 400, 5);
      expect(ci.low).toBeGreaterThan(1.2);
      expect(ci.high).toBeLessThan(1.4);
      const back = ratioInterval(b, a, statistic, 400, 5);
      expect(back.low).toBeGreaterThan(1 / 1.4);
      expect(back.high).toBeLessThan(1 / 1.2);
    }
  });

  it("is wider when the workers disagree than the pooled samples alone would say", () => {
    const spread = [[...Array(200)].map(() => 1000), [...Array(200)].map(() => 1100)];
    const ci = ratioInterval(sideOf(spread), sideOf(spread), "median", 400, 9);
    // Two workers 10 % apart: a resample may hold either one twice.
    expect(ci.high - ci.low).toBeGreaterThan(0.1);
  });

  it("resamples trials one by one, and gives no interval when no resample has a ratio", () => {
    const trials = (xs: number[]) =>
      sideOf(
        xs.map((x) => [x]),
        undefined,
        false,
      );
    const ci = ratioInterval(trials([100, 101, 99, 100, 102]), trials([200, 202, 198, 200, 204]), "median", 300, 1);
    expect(ci.low).toBeGreaterThanOrEqual(198 / 102);
    expect(ci.high).toBeLessThanOrEqual(204 / 99);
    const zero = ratioInterval(trials([0, 0]), trials([1, 2]), "mean", 50, 1);
    expect(Number.isNaN(zero.low) && Number.isNaN(zero.high)).toBe(true);
  });
});

describe("sideOf", () => {
  it("draws workers within their code layout only when they outnumber the layouts by two or more", () => {
    const w = noisy(1000, 6, 10, 4);
    expect(sideOf(w, [0, 16, 32, 0, 16, 32]).strata).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
    expect(sideOf(w.slice(0, 5), [0, 16, 32, 48, 0]).strata).toEqual([[0, 1, 2, 3, 4]]);
    expect(sideOf(w, [0, 16, 32, 48, 0, 16]).strata).toEqual([[0, 4], [1, 5], [2], [3]]);
    const side = sideOf([[3, 1], [2]]);
    expect([...side.values]).toEqual([1, 2, 3]);
    expect([...side.worker]).toEqual([0, 1, 0]);
  });

  it("gives the statistic over the pooled values", () => {
    const side = sideOf([
      [3, 1],
      [2, 10],
    ]);
    expect(sideStatistic(side, "median")).toBe(2.5);
    expect(sideStatistic(side, "mean")).toBe(4);
    expect(Number.isNaN(sideStatistic(sideOf([]), "median"))).toBe(true);
  });
});
