// Aggregates of a timing record, recomputed from its raw trials (schema timing.schema.json, `aggregates`).
// Definitions: per-trial figures are a trial's totals divided by its iterations; mean = total over all iterations;
// median/min/max/quartiles over the trial means (quartiles by linear interpolation between order statistics,
// numpy's default); sample standard deviation; 95% interval = mean ± t(0.975, trials−1) · s/√trials;
// unstable when (max − min) / median exceeds the threshold.

export interface Trial {
  iterations: number;
  counterDelta: number;
  ns: number;
}

export interface Aggregates {
  n: number;
  trials: number;
  iterationsPerTrial: number;
  meanCounter: number;
  meanNs: number;
  opsPerSecond: number;
  medianTrialNs: number;
  minTrialNs: number;
  maxTrialNs: number;
  q1TrialNs: number;
  q3TrialNs: number;
  stddevTrialNs: number;
  cv: number;
  ci95Ns: { low: number; high: number };
  unstable: boolean;
  unstableThreshold: number;
  medianTrialCounter: number;
}

export const UNSTABLE_THRESHOLD = 0.05;

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706204736, 4.30265273, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252, 2.306004135, 2.262157163,
  2.228138852, 2.20098516, 2.17881283, 2.160368656, 2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.10092204,
  2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.06865761, 2.063898562, 2.059538553, 2.055529439, 2.051830516,
  2.048407142, 2.045229642, 2.042272456,
];

export function tQuantile975(df: number): number {
  if (df < 1) return Number.NaN;
  return T975[df - 1] ?? 1.959963985;
}

/** Quantile by linear interpolation between order statistics (type 7). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] ?? Number.NaN;
  return a + (h - lo) * (b - a);
}

export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((x, y) => x - y),
    0.5,
  );
}

export function computeAggregates(trials: readonly Trial[], unstableThreshold = UNSTABLE_THRESHOLD): Aggregates {
  if (trials.length === 0) throw new Error("no trials");
  const first = trials[0];
  const iterationsPerTrial = first?.iterations ?? 0;
  if (trials.some((t) => t.iterations !== iterationsPerTrial))
    throw new Error("trials differ in iterations; the seed layout has equal iterations per trial");
  const k = trials.length;
  const n = k * iterationsPerTrial;
  const totalNs = trials.reduce((s, t) => s + t.ns, 0);
  const totalCounter = trials.reduce((s, t) => s + t.counterDelta, 0);
  const meanNs = totalNs / n;
  const trialNs = trials.map((t) => t.ns / t.iterations);
  const sorted = [...trialNs].sort((x, y) => x - y);
  const trialMean = trialNs.reduce((s, v) => s + v, 0) / k;
  const variance = k > 1 ? trialNs.reduce((s, v) => s + (v - trialMean) ** 2, 0) / (k - 1) : 0;
  const stddev = Math.sqrt(variance);
  const half = k > 1 ? (tQuantile975(k - 1) * stddev) / Math.sqrt(k) : 0;
  const med = quantile(sorted, 0.5);
  const min = sorted[0] ?? Number.NaN;
  const max = sorted[sorted.length - 1] ?? Number.NaN;
  return {
    n,
    trials: k,
    iterationsPerTrial,
    meanCounter: totalCounter / n,
    meanNs,
    opsPerSecond: 1e9 / meanNs,
    medianTrialNs: med,
    minTrialNs: min,
    maxTrialNs: max,
    q1TrialNs: quantile(sorted, 0.25),
    q3TrialNs: quantile(sorted, 0.75),
    stddevTrialNs: stddev,
    cv: trialMean > 0 ? stddev / trialMean : 0,
    ci95Ns: { low: meanNs - half, high: meanNs + half },
    unstable: med > 0 && (max - min) / med > unstableThreshold,
    unstableThreshold,
    medianTrialCounter: median(trials.map((t) => t.counterDelta / t.iterations)),
  };
}
