// The half-widths of the published central figure's 95 % interval: the pooled samples' and the workers'.
import { mean, sd } from "./quantile.ts";
import { tQuantile975 } from "./student-t.ts";

/** Which interval a central figure carries: prediction (of a repeat run's figure; the rule) or confidence (of this
 * run's figure alone; the rule before issue 26, kept to be compared with). */
export type IntervalRule = "prediction" | "confidence";

/**
 * The central interval's half-width under a rule. prediction: the larger of √2 × the pooled interval's (its
 * farthest end from the value: two runs' pooled figures each carry that error) and predictionHalfWidth over the
 * worker figures; confidence: the pooled half-width and workersHalfWidth.
 */
export function halfWidthOf(
  value: number,
  pooledCi: { low: number; high: number },
  figures: readonly number[],
  groups: readonly number[] | undefined,
  rule: IntervalRule,
): number {
  const pooledHalf = Math.max(value - pooledCi.low, pooledCi.high - value, 0);
  return rule === "confidence"
    ? Math.max(pooledHalf, workersHalfWidth(figures, groups))
    : Math.max(Math.SQRT2 * pooledHalf, predictionHalfWidth(figures, groups));
}

/**
 * The half-width of a 95 % prediction interval, over the workers, of the figure of a repeat run of as many workers:
 * the difference of two runs' means of W independent worker figures has sd σ · √(1/W + 1/W), so each run's figure
 * lies within t · s · √(2/W) of the other's 95 % of the time (t with the degrees of freedom of s). That is
 * workersHalfWidth × √2; the same grouping (code layouts) applies, as a repeat run covers the layouts alike.
 */
export function predictionHalfWidth(figures: readonly number[], groups?: readonly number[]): number {
  return Math.SQRT2 * workersHalfWidth(figures, groups);
}

/**
 * The half-width that process-to-process noise gives this run's figure: t(W − 1) · sd / √W over the W workers' figures;
 * or, when the workers ran in known groups (code layouts, each a fixed and equally represented part of what is
 * measured), the same over the figures with each group's mean taken out, with W − G degrees of freedom — the
 * difference between layouts is then part of the figure, not noise. Needs W − G ≥ 2; otherwise the plain rule
 * (which counts the layouts' difference as noise, and is wider).
 */
export function workersHalfWidth(figures: readonly number[], groups?: readonly number[]): number {
  const w = figures.length;
  if (w < 2) return 0;
  if (groups && groups.length === w) {
    const byGroup = new Map<number, number[]>();
    groups.forEach((g, i) => {
      byGroup.set(g, [...(byGroup.get(g) ?? []), figures[i] as number]);
    });
    const df = w - byGroup.size;
    if (byGroup.size > 1 && df >= 2) {
      let ss = 0;
      for (const values of byGroup.values()) {
        const m = mean(values);
        for (const v of values) ss += (v - m) ** 2;
      }
      return (tQuantile975(df) * Math.sqrt(ss / df)) / Math.sqrt(w);
    }
  }
  return (tQuantile975(w - 1) * sd(figures)) / Math.sqrt(w);
}

/** The 95 % interval m ± t · s / √n of the mean m of n values with sample sd s (a point when n < 2); t the Student-t
 * quantile of n − 1 degrees of freedom unless given. */
export function meanInterval(m: number, s: number, n: number, t = tQuantile975(n - 1)): { low: number; high: number } {
  const half = n > 1 ? (t * s) / Math.sqrt(n) : 0;
  return { low: m - half, high: m + half };
}
