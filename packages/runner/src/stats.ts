// The aggregates of timing trials (docs/methodology.md): per-trial means, their median, quartiles, spread, a
// Student-t 95% interval and the unstable flag — over the statistics of @ngcc-perf/stats.
import { mean, meanInterval, median, quantile, sd } from "@ngcc-perf/stats";

export interface Trial {
  iterations: number;
  counterDelta: number;
  ns: number;
}

export const DEFAULT_UNSTABLE_THRESHOLD = 0.05;

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
  const avg = mean(means);
  const stddev = sd(means, avg);
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
    stddevTrialNs: stddev,
    cv: avg > 0 ? stddev / avg : 0,
    ci95Ns: meanInterval(avg, stddev, k),
    unstable: spread > unstableThreshold,
    unstableThreshold,
  };
}

export type Aggregates = ReturnType<typeof aggregate>;
