// Order statistics and moments: the one quantile rule (R type 7) every figure of ngcc-perf uses, the median as its
// 0.5 quantile, the mean and the sample standard deviation.

/** Quantile of ascending values by linear interpolation between order statistics (R type 7). Throws on none. */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) throw new Error("quantile of nothing");
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (h - lo) * (b - a);
}

/** The values in ascending order, as a new array (sorted as a typed array: numerically, and fast). */
export function sortedCopy(values: ArrayLike<number>): number[] {
  const typed = Float64Array.from(values);
  typed.sort();
  const out = new Array<number>(typed.length);
  for (let i = 0; i < typed.length; i++) out[i] = typed[i] as number;
  return out;
}

/** The median: the 0.5 quantile (the mean of the two middle values for an even count). Throws on none. */
export function median(values: ArrayLike<number>): number {
  return quantile(sortedCopy(values), 0.5);
}

/** The arithmetic mean (NaN for no values). */
export function mean(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i] as number;
  return s / values.length;
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function sd(values: ArrayLike<number>, m = mean(values)): number {
  if (values.length < 2) return 0;
  let ss = 0;
  for (let i = 0; i < values.length; i++) ss += ((values[i] as number) - m) ** 2;
  return Math.sqrt(ss / (values.length - 1));
}

/**
 * Quantile (type 7) of values given as [value, count] pairs in ascending order of value, `n` values in all: a
 * histogram read as the sorted list it stands for, without expanding it.
 */
export function quantileOfCounts(histogram: ReadonlyArray<readonly [number, number]>, n: number, p: number): number {
  const at = (r: number) => {
    for (const [v, k] of histogram) {
      if (r < k) return v;
      r -= k;
    }
    return histogram[histogram.length - 1]?.[0] ?? 0;
  };
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const a = at(lo);
  return a + (h - lo) * (at(Math.ceil(h)) - a);
}
