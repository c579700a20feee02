import { describe, expect, it } from "vitest";
import { mean, median, quantile, quantileOfCounts, sd, sortedCopy } from "./quantile.ts";

describe("quantile (R type 7)", () => {
  it("interpolates between order statistics", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile([10, 20, 30, 40, 50], 0.1)).toBe(14);
  });

  it("gives the extremes at 0 and 1, and the one value of a single sample at every p", () => {
    expect(quantile([1, 5, 9], 0)).toBe(1);
    expect(quantile([1, 5, 9], 1)).toBe(9);
    for (const p of [0, 0.01, 0.25, 0.5, 0.999, 1]) expect(quantile([5], p)).toBe(5);
  });

  it("lands exactly on an order statistic where (n − 1) · p is whole", () => {
    expect(quantile([0, 1, 2, 3, 4], 0.75)).toBe(3);
    expect(quantile([2, 2, 2, 7], 0.5)).toBe(2);
  });

  it("reads typed arrays, and refuses no values", () => {
    expect(quantile(Float64Array.from([1, 3]), 0.5)).toBe(2);
    expect(() => quantile([], 0.5)).toThrow(/quantile of nothing/);
  });
});

describe("median, mean and sd", () => {
  it("takes the middle value of an odd count and the mean of the two middle ones of an even count", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([1, 1e9])).toBe(500_000_000.5);
    expect(() => median([])).toThrow(/nothing/);
  });

  it("sorts numerically, not as text, and leaves its input alone", () => {
    const values = [10, 9, 100, 1];
    expect(sortedCopy(values)).toEqual([1, 9, 10, 100]);
    expect(median(values)).toBe(9.5);
    expect(values).toEqual([10, 9, 100, 1]);
  });

  it("has the mean and the sample standard deviation (n − 1)", () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(Number.isNaN(mean([]))).toBe(true);
    expect(sd([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(sd([5])).toBe(0);
    expect(sd([1, 3], 2)).toBeCloseTo(Math.SQRT2, 12);
  });
});

describe("quantileOfCounts", () => {
  it("is the quantile of the list a histogram stands for", () => {
    const histogram: Array<[number, number]> = [
      [1, 3],
      [4, 2],
      [9, 1],
    ];
    const expanded = [1, 1, 1, 4, 4, 9];
    for (const p of [0, 0.2, 0.5, 0.75, 1]) expect(quantileOfCounts(histogram, 6, p)).toBe(quantile(expanded, p));
    expect(quantileOfCounts(histogram, 6, 0.5)).toBe(2.5);
    expect(quantileOfCounts([[3, 5]], 5, 0.5)).toBe(3);
    expect(quantileOfCounts([], 0, 0.5)).toBe(0);
  });
});
