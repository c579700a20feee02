// Statistics over timing trials (docs/methodology.md): per-trial means, their median, quartiles,
// spread, a Student-t 95% interval and the unstable flag.

export interface Trial {
  iterations: number;
  counterDelta: number;
  ns: number;
}

export const DEFAULT_UNSTABLE_THRESHOLD = 0.05;

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function tQuantile975(df: number): number {
  return df >= 1 && df <= 30 ? (T975[df - 1] as number) : 1.96;
}

/** Quantile by linear interpolation between order statistics (R type 7). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error("quantile of nothing");
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (h - lo) * (b - a);
}

export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((x, y) => x - y),
    0.5,
  );
}

export function aggregate(trials: readonly Trial[], unstableThreshold = DEFAULT_UNSTABLE_THRESHOLD) {
  if (trials.length === 0) throw new Error("aggregate: no trials");
  const iterations = trials.map((t) => t.iterations);
  const n = iterations.reduce((a, b) => a + b, 0);
  const totalNs = trials.reduce((a, t) => a + t.ns, 0);
  const totalCounter = trials.reduce((a, t) => a + t.counterDelta, 0);
  const means = trials.map((t) => t.ns / t.iterations);
  const counterMeans = trials.map((t) => t.counterDelta / t.iterations);
  const sorted = [...means].sort((a, b) => a - b);
  const k = means.length;
  const avg = means.reduce((a, b) => a + b, 0) / k;
  const variance = k > 1 ? means.reduce((a, m) => a + (m - avg) ** 2, 0) / (k - 1) : 0;
  const sd = Math.sqrt(variance);
  const half = k > 1 ? (tQuantile975(k - 1) * sd) / Math.sqrt(k) : 0;
  const meanNs = totalNs / n;
  const med = quantile(sorted, 0.5);
  const spread = med > 0 ? ((sorted[k - 1] as number) - (sorted[0] as number)) / med : 0;
  const perTrial = iterations.every((i) => i === iterations[0]) ? (iterations[0] as number) : Math.round(n / k);
  return {
    n,
    trials: k,
    iterationsPerTrial: perTrial,
    meanCounter: totalCounter / n,
    meanNs,
    opsPerSecond: meanNs > 0 ? 1e9 / meanNs : 0,
    medianTrialNs: med,
    medianTrialCounter: median(counterMeans),
    minTrialNs: sorted[0] as number,
    maxTrialNs: sorted[k - 1] as number,
    q1TrialNs: quantile(sorted, 0.25),
    q3TrialNs: quantile(sorted, 0.75),
    stddevTrialNs: sd,
    cv: avg > 0 ? sd / avg : 0,
    ci95Ns: { low: avg - half, high: avg + half },
    unstable: spread > unstableThreshold,
    unstableThreshold,
  };
}

export type Aggregates = ReturnType<typeof aggregate>;
