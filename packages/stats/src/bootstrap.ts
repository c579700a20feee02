// The two-stage bootstrap of a ratio B/A of two sides' statistics (`ngcc-perf compare`): within each stratum the
// workers drawn with replacement, then every sample of a drawn worker weighted by a Poisson count (the Poisson
// bootstrap); the 95 % percentile interval of the ratio over the paired replicates.
import type { Interval, Statistic } from "./distribution.ts";
import { quantile } from "./quantile.ts";
import { rng } from "./rng.ts";

/** The data of one side: per-call values pooled and sorted, each with its worker, and the workers' strata. */
export interface Side {
  /** Per-call values (ns or estimated cycles), ascending. */
  values: Float64Array;
  /** The worker (0-based) of each value. */
  worker: Uint16Array;
  /** Workers by stratum: the workers of one code layout (or all workers, or every trial alone). */
  strata: number[][];
  workers: number;
  /** Whether each sample of a drawn worker is weighted by a Poisson count (false: one value per worker, a trial). */
  perSample: boolean;
}

/** A side from per-worker values; groups[i] the layout of worker i (workers resampled within their layout). */
export function sideOf(
  workers: ReadonlyArray<ReadonlyArray<number>>,
  groups?: ReadonlyArray<number>,
  perSample = true,
): Side {
  const n = workers.reduce((s, w) => s + w.length, 0);
  const pairs: Array<[number, number]> = new Array(n);
  let at = 0;
  workers.forEach((w, i) => {
    for (const v of w) pairs[at++] = [v, i];
  });
  pairs.sort((x, y) => x[0] - y[0]);
  const values = new Float64Array(n);
  const worker = new Uint16Array(n);
  pairs.forEach(([v, w], i) => {
    values[i] = v;
    worker[i] = w;
  });
  // Workers are drawn within their code layout (the layouts are a fixed, equally represented part of the figure) when
  // the workers outnumber the layouts by two or more — the rule of the workers' interval (workersHalfWidth);
  // otherwise across all workers, which counts the layouts' difference as noise (wider), as that interval then does.
  const byGroup = new Map<number, number[]>();
  workers.forEach((_, i) => {
    const g = groups && groups.length === workers.length ? (groups[i] as number) : 0;
    byGroup.set(g, [...(byGroup.get(g) ?? []), i]);
  });
  const strata = workers.length - byGroup.size >= 2 ? [...byGroup.values()] : [workers.map((_, i) => i)];
  return { values, worker, strata, workers: workers.length, perSample };
}

/** P(Poisson(c) ≤ k) as uint32 thresholds, k = 0, 1, …, for c = 0 … max. */
function poissonTables(max: number): Float64Array[] {
  const tables: Float64Array[] = [];
  for (let c = 0; c <= max; c++) {
    const cdf: number[] = [];
    let p = Math.exp(-c);
    let sum = 0;
    for (let k = 0; sum < 1 - 1e-12 && k < 64 + 4 * c; k++) {
      sum += p;
      cdf.push(Math.min(sum, 1) * 4294967296);
      p = (p * c) / (k + 1);
    }
    tables.push(Float64Array.from(cdf));
  }
  return tables;
}

/** Each stratum's workers drawn with replacement: multiplicity[w] the times worker w was drawn. */
function drawWorkers(side: Side, next: () => number, multiplicity: Uint16Array): void {
  multiplicity.fill(0);
  for (const stratum of side.strata) {
    for (let i = 0; i < stratum.length; i++) {
      const pick = stratum[(next() % stratum.length) >>> 0] as number;
      multiplicity[pick] = (multiplicity[pick] as number) + 1;
    }
  }
}

/**
 * One bootstrap replicate of a side's statistic: within each stratum its workers drawn with replacement (a worker
 * drawn c times), then every sample of a worker weighted by a Poisson(c) count (the Poisson bootstrap), the
 * statistic taken over the weighted samples. The median is the weighted lower median.
 */
function replicate(
  side: Side,
  statistic: Statistic,
  next: () => number,
  tables: Float64Array[],
  multiplicity: Uint16Array,
  weights: Uint16Array,
): number {
  drawWorkers(side, next, multiplicity);
  const n = side.values.length;
  let total = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const c = multiplicity[side.worker[i] as number] as number;
    let k = side.perSample ? 0 : c;
    if (c > 0 && side.perSample) {
      const cdf = tables[c] as Float64Array;
      const u = next();
      while (k < cdf.length - 1 && u >= (cdf[k] as number)) k++;
    }
    weights[i] = k;
    total += k;
    if (statistic === "mean" && k) sum += k * (side.values[i] as number);
  }
  if (total === 0) return Number.NaN;
  if (statistic === "mean") return sum / total;
  const half = total / 2;
  let acc = 0;
  for (let i = 0; i < n; i++) {
    acc += weights[i] as number;
    if (acc >= half) return side.values[i] as number;
  }
  return side.values[n - 1] as number;
}

/** The statistic over a side's pooled values (its values are sorted); NaN for a side without values. */
export function sideStatistic(side: Side, statistic: Statistic): number {
  if (side.values.length === 0) return Number.NaN;
  if (statistic === "median") return quantile(side.values, 0.5);
  let sum = 0;
  for (const v of side.values) sum += v;
  return sum / side.values.length;
}

/** The 95 % percentile interval of statistic(B) / statistic(A) over `resamples` paired replicates; NaN ends when no
 * replicate gave a ratio. */
export function ratioInterval(a: Side, b: Side, statistic: Statistic, resamples: number, seed: number): Interval {
  const next = rng(seed);
  const maxWorkers = Math.max(...a.strata.map((s) => s.length), ...b.strata.map((s) => s.length), 1);
  const tables = poissonTables(maxWorkers);
  const buffers = (s: Side) => ({ m: new Uint16Array(s.workers), w: new Uint16Array(s.values.length) });
  const ba = buffers(a);
  const bb = buffers(b);
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const x = replicate(a, statistic, next, tables, ba.m, ba.w);
    const y = replicate(b, statistic, next, tables, bb.m, bb.w);
    if (Number.isFinite(x) && Number.isFinite(y) && x > 0) ratios.push(y / x);
  }
  if (!ratios.length) return { low: Number.NaN, high: Number.NaN };
  const sorted = Float64Array.from(ratios).sort();
  return { low: quantile(sorted, 0.025), high: quantile(sorted, 0.975) };
}
