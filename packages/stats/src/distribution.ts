// The per-call distribution of several worker processes' samples (pooled quantiles, MAD, Tukey fences, the
// order-statistic interval of the median, per-worker figures), and what it says about the central figure: the
// statistic the auto rule picks and the workers' spread.

import { meanInterval } from "./interval.ts";
import { medianRanks } from "./median-interval.ts";
import { checkBatch } from "./per-call.ts";
import { mean, median, quantile, sd, sortedCopy } from "./quantile.ts";

/** The statistic a central figure publishes. */
export type Statistic = "median" | "mean";

/** A 95 % interval. */
export interface Interval {
  low: number;
  high: number;
}

/** The pooled per-call distribution of a set of workers: a timing record's `distribution` block, in its names. */
export type PerCallDistribution = ReturnType<typeof distributionOf>;

/** What the auto rule judges of a distribution: its 5th percentile and median. */
export type Shape = Pick<PerCallDistribution, "p5Ns" | "medianNs">;

/** auto picks the mean when the pooled (median − p5) / median exceeds this. */
export const WIDE_SHARE = 0.1;

/** (max − min) / median of the workers' central figures; 0 for fewer than two workers or a zero median. */
export function workerSpread(figures: readonly number[]): number {
  if (figures.length < 2) return 0;
  const sorted = sortedCopy(figures);
  const mid = quantile(sorted, 0.5);
  return mid > 0 ? ((sorted[sorted.length - 1] as number) - (sorted[0] as number)) / mid : 0;
}

function checkWorkers(workers: readonly (readonly number[])[], perCallCounter?: readonly (readonly number[])[]): void {
  if (workers.length === 0) throw new Error("distributionOf: no workers");
  workers.forEach((w, i) => {
    if (w.length === 0) throw new Error(`distributionOf: worker ${i + 1} has no samples`);
    if (!w.every(Number.isFinite)) throw new Error(`distributionOf: worker ${i + 1} has a non-finite sample`);
  });
  if (perCallCounter !== undefined) {
    if (perCallCounter.length !== workers.length || perCallCounter.some((c, i) => c.length !== workers[i]?.length)) {
      throw new Error("distributionOf: the counter figures do not match the ns figures worker by worker");
    }
  }
}

/** Tukey's fences (1.5 IQR beyond the quartiles) and how many sorted values lie beyond each. */
function outliersOf(sorted: readonly number[], p25: number, p75: number) {
  const iqr = p75 - p25;
  const fences = { low: p25 - 1.5 * iqr, high: p75 + 1.5 * iqr };
  let low = 0;
  let high = 0;
  for (const v of sorted) {
    if (v < fences.low) low++;
    else if (v > fences.high) high++;
  }
  return { low, high, fences };
}

/**
 * The distribution from the per-call ns of every sample, per worker in worker order (a sample's delta ÷ batch, see
 * perCallNs); perCallCounter the same in the counter's unit (gives meanCounter and medianCounter); batch the calls
 * per sample (gives calls = n × batch). workerSpread is computed over the worker medians.
 */
export function distributionOf(
  workers: readonly (readonly number[])[],
  perCallCounter?: readonly (readonly number[])[],
  batch = 1,
) {
  checkBatch(batch);
  checkWorkers(workers, perCallCounter);
  const sorted = sortedCopy(workers.flat());
  const n = sorted.length;
  const q = (p: number) => quantile(sorted, p);
  const med = q(0.5);
  const avg = mean(sorted);
  const sdNs = sd(sorted, avg);
  const p25 = q(0.25);
  const p75 = q(0.75);

  const ranks = medianRanks(n);
  const medianCi95Ns = ranks
    ? { low: sorted[ranks.lower - 1] as number, high: sorted[ranks.upper - 1] as number }
    : { low: sorted[0] as number, high: sorted[n - 1] as number };
  const deviations = new Float64Array(n);
  for (let i = 0; i < n; i++) deviations[i] = Math.abs((sorted[i] as number) - med);

  const workerMediansNs = workers.length === 1 ? [med] : workers.map(median);
  const counter = perCallCounter?.flat();
  return {
    n,
    calls: n * batch,
    meanNs: avg,
    medianNs: med,
    minNs: sorted[0] as number,
    maxNs: sorted[n - 1] as number,
    p1Ns: q(0.01),
    p5Ns: q(0.05),
    p25Ns: p25,
    p75Ns: p75,
    p95Ns: q(0.95),
    p99Ns: q(0.99),
    p999Ns: q(0.999),
    madNs: median(deviations),
    sdNs,
    medianCi95Ns,
    // Beyond 30 samples the normal quantile.
    meanCi95Ns: meanInterval(avg, sdNs, n, n <= 30 ? undefined : 1.96),
    outliers: outliersOf(sorted, p25, p75),
    workerMediansNs,
    workerMeansNs: workers.length === 1 ? [avg] : workers.map(mean),
    workerSpread: workerSpread(workerMediansNs),
    ...(counter ? { meanCounter: mean(counter), medianCounter: median(counter) } : {}),
  };
}

/**
 * How far the fast calls lie below the median: (median − p5) / median of the pooled per-call times — what the auto
 * rule compares with WIDE_SHARE. Interference on a shared machine (preemption, interrupts) only adds time, so it
 * fattens the upper tail and leaves this small; an input-dependent operation (rejection sampling) has whole classes
 * of calls well below its median.
 */
export function lowerSpreadShare(dist: Shape): number {
  return dist.medianNs > 0 ? (dist.medianNs - dist.p5Ns) / dist.medianNs : 0;
}

/** The statistic a rule gives for a distribution: the rule's own, or for auto the mean when it is wide. */
export function chooseStatistic(dist: Shape, rule: "auto" | Statistic): Statistic {
  if (rule !== "auto") return rule;
  return lowerSpreadShare(dist) > WIDE_SHARE ? "mean" : "median";
}

/** The 5th percentile and median of pooled per-call figures (what the auto rule judges), as p5Ns and medianNs. */
export function shapeOf(workers: readonly (readonly number[])[]): Shape {
  const sorted = sortedCopy(workers.flat());
  return { p5Ns: quantile(sorted, 0.05), medianNs: quantile(sorted, 0.5) };
}
