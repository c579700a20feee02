// Per-call statistics (docs/methodology.md, issue 13 §3): from the raw per-sample counter deltas of several
// worker processes to the record's `distribution` block (pooled quantiles, MAD, Tukey fences, an order-statistic
// interval of the median, per-worker figures) and its `central` block (the published figure, median or mean,
// with a 95 % prediction interval of a repeat run's figure), and each worker's contention state from the driver's
// two add-chain probes (issue 26). Pure functions, no I/O.

import type { TimingRecord } from "@ngcc-perf/schema";
import { quantile, tQuantile975 } from "./stats.ts";

/** The record's `distribution` block. */
export type SampleDistribution = NonNullable<TimingRecord["distribution"]>;
/** The record's `central` block. */
export type CentralFigure = NonNullable<TimingRecord["central"]>;
/**
 * How the published statistic is chosen: auto = as the instance's instruction counts decide (a CentralDecision
 * by instructions), else mean when the per-call distribution is wide, else median.
 */
export type CentralRule = "auto" | "median" | "mean";
/** How an auto statistic was decided (the record's central.decision). */
export type CentralDecision = NonNullable<CentralFigure["decision"]>;
export type StopDecision = "continue" | "target" | "budget" | "quick";

/** auto picks the mean when the pooled (p75 − p25) / median exceeds this. */
export const WIDE_SHARE = 0.1;
/** Largest n for which the median's interval comes from the exact binomial; beyond, the normal approximation. */
export const EXACT_BINOMIAL_MAX_N = 1000;

const Z975 = 1.959963984540054;
/** P(B ≤ l − 1) ≤ 0.025 on each side, so that P(l ≤ B < n + 1 − l) ≥ 0.95. */
const TAIL = 0.025;

/** ns per call of every sample: delta ÷ batch ÷ rateHz × 1e9, or delta ÷ batch when the unit is ns. */
export function perCallNs(
  worker: { counterDeltas: readonly number[] },
  batch: number,
  counter: { unit: string; rateHz: number | null },
): number[] {
  checkBatch(batch);
  if (counter.unit === "ns") return worker.counterDeltas.map((d) => d / batch);
  const rate = counter.rateHz;
  if (rate === null || !Number.isFinite(rate) || rate <= 0) {
    throw new Error(`perCallNs: a counter in ${counter.unit} needs a positive rateHz to give ns (got ${rate})`);
  }
  return worker.counterDeltas.map((d) => (d * 1e9) / (batch * rate));
}

/** Counter units per call of every sample: delta ÷ batch. */
export function perCallCounter(worker: { counterDeltas: readonly number[] }, batch: number): number[] {
  checkBatch(batch);
  return worker.counterDeltas.map((d) => d / batch);
}

function checkBatch(batch: number): void {
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`batch must be a positive integer (got ${batch})`);
}

/**
 * 1-based ranks [lower, upper] of the order statistics that bound a distribution-free 95 % interval of the median
 * of n samples: the largest lower rank l and the smallest upper rank u = n + 1 − l with
 * P(l ≤ B < u) ≥ 0.95, B ~ binomial(n, ½) the number of samples below the true median. Exact (summed in log
 * space) for n ≤ 1000, normal approximation with continuity correction beyond. null when no such interval
 * exists (n ≤ 5: even [X(1), X(n)] covers with less than 95 %).
 */
export function medianRanks(n: number): { lower: number; upper: number } | null {
  if (!Number.isInteger(n) || n < 1) throw new Error(`medianRanks: n must be a positive integer (got ${n})`);
  let lower: number;
  if (n <= EXACT_BINOMIAL_MAX_N) {
    // cdf(k) = P(B ≤ k); l is the first k with cdf(k) > TAIL (then cdf(l − 1) ≤ TAIL).
    const logHalfN = n * Math.log(0.5);
    let logChoose = 0; // log C(n, 0)
    let cdf = 0;
    lower = 0;
    for (let k = 0; k <= n; k++) {
      if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
      cdf += Math.exp(logChoose + logHalfN);
      if (cdf > TAIL) break;
      lower = k + 1;
    }
  } else {
    // P(B ≤ l − 1) ≈ Φ((l − 1 + ½ − n/2) / (√n / 2)) ≤ 0.025.
    lower = Math.floor(n / 2 + 0.5 - (Z975 * Math.sqrt(n)) / 2);
  }
  if (lower < 1) return null;
  return { lower, upper: n + 1 - lower };
}

function mean(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Sample standard deviation (n − 1); 0 for a single value. */
function sd(values: readonly number[], m = mean(values)): number {
  if (values.length < 2) return 0;
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return Math.sqrt(ss / (values.length - 1));
}

/** A typed array sorts numerically, and fast; back to an array for `quantile`. */
function toSortedArray(typed: Float64Array): number[] {
  typed.sort();
  const out = new Array<number>(typed.length);
  for (let i = 0; i < typed.length; i++) out[i] = typed[i] as number;
  return out;
}

function sortedCopy(values: readonly number[]): number[] {
  return toSortedArray(Float64Array.from(values));
}

function medianOf(values: readonly number[]): number {
  return quantile(sortedCopy(values), 0.5);
}

/** (max − min) / median of the workers' central figures; 0 for fewer than two workers or a zero median. */
export function workerSpread(figures: readonly number[]): number {
  if (figures.length < 2) return 0;
  const sorted = sortedCopy(figures);
  const mid = quantile(sorted, 0.5);
  return mid > 0 ? ((sorted[sorted.length - 1] as number) - (sorted[0] as number)) / mid : 0;
}

/**
 * The record's `distribution` block from the per-call ns of every sample, per worker in worker order (a sample's
 * delta ÷ batch, see perCallNs); perCallCounter the same in the counter's unit (gives meanCounter and
 * medianCounter); batch the calls per sample (gives calls = n × batch). workerSpread is computed over the worker
 * medians; centralOf's statistic may be the mean, for which see summarizeSamples.
 */
export function distributionOf(
  workers: readonly (readonly number[])[],
  perCallCounter?: readonly (readonly number[])[],
  batch = 1,
): SampleDistribution {
  checkBatch(batch);
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

  let n = 0;
  for (const w of workers) n += w.length;
  const pooled = new Float64Array(n);
  let at = 0;
  for (const w of workers) for (const v of w) pooled[at++] = v;
  const sorted = toSortedArray(pooled);
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

  const t = n <= 30 ? tQuantile975(n - 1) : 1.96;
  const meanHalf = n > 1 ? (t * sdNs) / Math.sqrt(n) : 0;

  const iqr = p75 - p25;
  const fences = { low: p25 - 1.5 * iqr, high: p75 + 1.5 * iqr };
  let low = 0;
  let high = 0;
  for (const v of sorted) {
    if (v < fences.low) low++;
    else if (v > fences.high) high++;
  }

  const deviations = new Float64Array(n);
  for (let i = 0; i < n; i++) deviations[i] = Math.abs((sorted[i] as number) - med);

  const workerMediansNs = workers.length === 1 ? [med] : workers.map(medianOf);
  const dist: SampleDistribution = {
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
    madNs: quantile(toSortedArray(deviations), 0.5),
    sdNs,
    medianCi95Ns,
    meanCi95Ns: { low: avg - meanHalf, high: avg + meanHalf },
    outliers: { low, high, fences },
    workerMediansNs,
    workerMeansNs: workers.length === 1 ? [avg] : workers.map(mean),
    workerSpread: workerSpread(workerMediansNs),
  };
  if (perCallCounter !== undefined) {
    const counter = perCallCounter.flat();
    dist.meanCounter = mean(counter);
    dist.medianCounter = medianOf(counter);
  }
  return dist;
}

/**
 * How far the fast calls lie below the median: (median − p5) / median of the pooled per-call times — what the auto
 * rule compares with WIDE_SHARE. Interference on a shared machine (preemption, interrupts) only adds time, so it
 * fattens the upper tail and leaves this small; an input-dependent operation (rejection sampling) has whole classes
 * of calls well below its median.
 */
export function lowerSpreadShare(dist: Pick<SampleDistribution, "p5Ns" | "medianNs">): number {
  return dist.medianNs > 0 ? (dist.medianNs - dist.p5Ns) / dist.medianNs : 0;
}

/** The statistic a rule gives for a distribution. */
export function chooseStatistic(
  dist: Pick<SampleDistribution, "p5Ns" | "medianNs">,
  rule: CentralRule,
): "median" | "mean" {
  if (rule !== "auto") return rule;
  return lowerSpreadShare(dist) > WIDE_SHARE ? "mean" : "median";
}

/** A share as a percentage for a sentence: whole percent from 10 %, one decimal below, more when needed to
 * show a share just above the auto threshold as above it. */
function percent(share: number, aboveThreshold: boolean): string {
  const pct = share * 100;
  let digits = pct >= 10 ? 0 : 1;
  while (aboveThreshold && digits < 3 && Number(pct.toFixed(digits)) <= WIDE_SHARE * 100) digits++;
  return `${pct.toFixed(digits)} %`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The record's `central` block: the median, or the mean when forced or (auto) when the pooled 5th percentile lies
 * more than 10 % below the median (an input-dependent, discrete and wide distribution such as rejection sampling).
 * The interval (`interval: "prediction"`, the default) is a 95 % interval of what a repeat run of as many workers
 * on the same machine publishes: its half-width is the larger of √2 × the pooled interval's (its farthest end from
 * the value: two runs' pooled figures each carry that error) and predictionHalfWidth over the worker figures
 * (t · sd · √(1/W + 1/W′), W′ = W, so that process-to-process noise, which the workers' spread over the run's
 * wall time samples, widens it). `interval: "confidence"` gives the rule before it (an interval of this run's
 * figure alone: the pooled half-width and t · sd / √W), which bench/aa-coverage.ts recomputes beside it.
 * workersNs: the per-call ns of every worker, as given to distributionOf.
 */
export function centralOf(
  dist: SampleDistribution,
  workersNs: readonly (readonly number[])[],
  options: {
    statistic: CentralRule;
    target: number;
    groups?: readonly number[];
    /** The distribution the auto rule judges, when not this one (the estimated core cycles': clock changes between
     * workers do not widen it). */
    shapeFrom?: Pick<SampleDistribution, "p5Ns" | "medianNs">;
    interval?: IntervalRule;
    /** For the auto rule: the decision by instruction counts (it then decides), or why there is none (the
     * distribution decides). Recorded as central.decision. */
    decision?: CentralDecision;
  },
): CentralFigure {
  if (workersNs.length === 0) throw new Error("centralOf: no workers");
  if (workersNs.length !== dist.workerMediansNs.length) {
    throw new Error("centralOf: the workers do not match the distribution's");
  }
  if (dist.meanCounter === undefined) {
    throw new Error("centralOf: the distribution has no counter figures (give distributionOf perCallCounter)");
  }
  const shape = options.shapeFrom ?? dist;
  const decision = options.statistic === "auto" ? options.decision : undefined;
  const statistic =
    decision?.by === "instructions"
      ? decision.inputDependent
        ? "mean"
        : "median"
      : chooseStatistic(shape, options.statistic);
  const valueNs = statistic === "mean" ? dist.meanNs : dist.medianNs;
  const pooledCi = statistic === "mean" ? dist.meanCi95Ns : dist.medianCi95Ns;
  const w = workersNs.length;
  const figures = workersNs.map(statistic === "mean" ? mean : medianOf);
  const half = halfWidthOf(valueNs, pooledCi, figures, options.groups, options.interval ?? "prediction");
  const relativeHalfWidth = valueNs > 0 ? half / valueNs : 0;

  const ratio = dist.meanNs > 0 ? dist.meanCounter / dist.meanNs : 0;
  return {
    statistic,
    valueNs,
    valueCounter: valueNs * ratio,
    ci95Ns: { low: valueNs - half, high: valueNs + half },
    relativeHalfWidth,
    metTarget: valueNs > 0 && relativeHalfWidth <= options.target,
    reason: reasonOf(dist, shape, statistic, options.statistic, w, decision),
    ...(decision ? { decision } : {}),
  };
}

/** Which interval the central blocks publish: prediction (of a repeat run's figure; the rule) or confidence (of
 * this run's figure alone; the rule before issue 26, kept to be compared with). */
export type IntervalRule = "prediction" | "confidence";

/** The central interval's half-width under a rule: see centralOf. */
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

/** A count of instructions for a sentence: whole numbers with thousands separators. */
function instructions(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function reasonOf(
  dist: SampleDistribution,
  shape: Pick<SampleDistribution, "p5Ns" | "medianNs">,
  statistic: "median" | "mean",
  rule: CentralRule,
  workers: number,
  decision?: CentralDecision,
): string {
  const batch = Math.round(dist.calls / dist.n);
  const what =
    batch === 1
      ? `${statistic} of ${plural(dist.n, "single call", "single calls")}`
      : `${statistic} per call of ${dist.n} samples of ${batch} calls (${dist.calls} calls)`;
  const head = `${what} over ${plural(workers, "worker", "workers")}`;
  const share = lowerSpreadShare(shape);
  const wide = share > WIDE_SHARE;
  const iqr = `its 5th percentile ${percent(share, wide)} below the median`;
  if (rule === "auto" && decision?.by === "instructions") {
    const pct = decision.relativeSpread * 100;
    const spread = `${pct < 0.01 ? "less than 0.01" : pct.toFixed(pct >= 10 ? 0 : 2)} %`;
    const evidence = `the instructions per call (${decision.calls} counted calls under ${decision.profile}: ${instructions(decision.minInstructions)}–${instructions(decision.maxInstructions)}) vary by ${spread}`;
    const limit = `${(decision.threshold * 100).toFixed(0)} %`;
    return decision.inputDependent
      ? `${head}: ${evidence}, more than ${limit}: the work depends on the input`
      : `${head}: ${evidence}, not more than ${limit}: the work does not depend on the input`;
  }
  if (rule === "auto") {
    const fallback = decision?.by === "distribution" ? ` (instructions not counted: ${decision.why})` : "";
    return statistic === "mean"
      ? `${head}: the per-call distribution is wide (${iqr}): the time depends on the input${fallback}`
      : `${head}${fallback ? `: the per-call distribution is narrow${fallback}` : ""}`;
  }
  if (statistic === "mean") {
    return wide
      ? `${head}, as the campaign asks: the per-call distribution is wide (${iqr}): the time depends on the input`
      : `${head}, as the campaign asks (the per-call distribution is narrow: ${iqr})`;
  }
  return wide
    ? `${head}, as the campaign asks, though the per-call distribution is wide (${iqr})`
    : `${head}, as the campaign asks`;
}

/** One worker's core-clock probes: the driver's add chain after every sample (native/README.md). */
export interface ClockProbes {
  /** One-cycle adds per probe. */
  adds: number;
  /** Counter delta of each probe, in the counter's unit, overhead not subtracted. */
  deltas: readonly number[];
}

/**
 * A worker's core clock, Hz: adds ÷ (median probe − counter overhead) gives core cycles per counter unit, times
 * the counter's rate. The median, as interference only adds time to a probe and the clock seldom changes within
 * a worker. null when the probes cannot give one (no rate, no probe longer than the overhead).
 */
export function coreClockHz(
  probes: ClockProbes,
  counter: { unit: string; rateHz: number | null; overhead?: number | null },
): number | null {
  const rate = counter.unit === "ns" ? 1e9 : counter.rateHz;
  if (rate === null || !Number.isFinite(rate) || rate <= 0 || probes.deltas.length === 0) return null;
  const net = medianOf(probes.deltas) - (counter.overhead ?? 0);
  if (!(net > 0) || !(probes.adds > 0)) return null;
  return (probes.adds / net) * rate;
}

/** One worker's contention probes: the driver's independent add chains after every sample (native/README.md). */
export interface ThroughputProbes {
  /** Adds per probe, over all chains. */
  adds: number;
  /** Independent chains the adds are spread over. */
  chains: number;
  /** Counter delta of each probe, in the counter's unit, overhead not subtracted. */
  deltas: readonly number[];
}

/**
 * A worker's adds per core cycle on independent chains: the dependent chain runs one add per cycle whatever a
 * sibling hyperthread does, so (median clock probe − overhead) ÷ its adds is the counter's units per core cycle,
 * and the throughput probe's adds ÷ ((its median − overhead) ÷ that) the adds issued per cycle. No rate needed.
 * Medians, as an interrupt only lengthens a probe. null when the probes cannot give one.
 */
export function addsPerCycle(
  clock: ClockProbes,
  throughput: ThroughputProbes,
  counter: { overhead?: number | null },
): number | null {
  if (clock.deltas.length === 0 || throughput.deltas.length === 0) return null;
  const overhead = counter.overhead ?? 0;
  const lat = medianOf(clock.deltas) - overhead;
  const thr = medianOf(throughput.deltas) - overhead;
  if (!(lat > 0) || !(thr > 0) || !(clock.adds > 0) || !(throughput.adds > 0)) return null;
  return throughput.adds / thr / (clock.adds / lat);
}

/**
 * A worker is contended when its adds per cycle fall below this share of the reference (the best worker's of the
 * operation, or the floor). The best worker is the machine's own figure (x86 cores issue 4 adds a cycle on 4
 * chains, many ARM cores 2–3, so no fixed figure fits every machine), taken from the same run. Measured on this
 * project's 2-core VM (AMD EPYC, PQClean ML-KEM-768, 7–10 workers per operation): workers reading 3.69–3.80 took
 * 47–65 µs per dec or keygen call (dec 63–65 µs, 235 k cycles), those reading 3.16–3.52 took 60–91 µs (dec
 * 86–91 µs, 310 k cycles); the issue's VM read 3.85 alone and 2.6–3.2 shared. 0.95 of the best (3.6 of 3.8)
 * separates the two; one worker at 3.69 was slow too (a sibling busy for part of its samples: the median of its
 * probes reads the larger part).
 */
export const CONTENDED_SHARE = 0.95;

/**
 * The least reference on x86-64 run natively: every x86-64 core since 2013 (Intel Haswell, AMD Zen) has four
 * integer ALUs, and the four interleaved chains read 3.75–3.9 on a core alone (the issue's VM: 3.85; this project's
 * VM: 3.78–3.80 in its fast workers). The reference is at least this, so that a run whose every worker shared its
 * core is seen as contended too. None elsewhere (ARM cores have 2–4 ALUs; emulation reads nothing of the core).
 */
export const X86_64_ALONE_ADDS_PER_CYCLE = 3.75;

/** The timing record's `contention` block. */
export type Contention = NonNullable<TimingRecord["contention"]>;

/**
 * Each worker's contention state, and which workers the figure is published from: the uncontended ones when there
 * are at least minWorkers of them (so contention is left out, not averaged in), otherwise all of them. A worker is
 * contended below threshold = share × reference, reference = the best worker's figure or floor, whichever is
 * larger. Workers
 * whose probe gave no figure count as uncontended (they cannot be judged) — the caller gives figures for all or
 * none. state: uncontended (no worker contended), contended (every worker), mixed. publishedFrom: uncontended
 * when the figure comes from the uncontended workers only (all of them, when none was contended), all otherwise.
 */
export function contentionOf(
  figures: readonly (number | null)[],
  chains: number,
  minWorkers: number,
  options: { share?: number; floor?: number } = {},
): Contention {
  const share = options.share ?? CONTENDED_SHARE;
  const floor = options.floor ?? 0;
  const known = figures.filter((f): f is number => f !== null);
  const reference = Math.max(floor, ...known);
  const threshold = share * reference;
  const workers = figures.map((f, i) => ({
    worker: i + 1,
    addsPerCycle: f ?? 0,
    contended: f !== null && f < threshold,
  }));
  const contended = workers.filter((w) => w.contended).length;
  const state = contended === 0 ? "uncontended" : contended === workers.length ? "contended" : "mixed";
  const free = workers.length - contended;
  return {
    probe: "add-throughput",
    chains,
    share,
    floor,
    reference,
    threshold,
    workers,
    state,
    publishedFrom: free > 0 && free >= minWorkers ? "uncontended" : "all",
  };
}

/** The 0-based indices of the workers a contention block publishes from. */
export function publishedWorkers(c: Pick<Contention, "workers" | "publishedFrom">): number[] {
  return c.workers.flatMap((w, i) => (c.publishedFrom === "all" || !w.contended ? [i] : []));
}

/** The 5th percentile and median of pooled per-call figures (what the auto rule judges), as p5Ns and medianNs. */
export function cyclesShapeOf(workers: readonly (readonly number[])[]): Pick<SampleDistribution, "p5Ns" | "medianNs"> {
  const sorted = sortedCopy(workers.flat());
  return { p5Ns: quantile(sorted, 0.05), medianNs: quantile(sorted, 0.5) };
}

/** The record's estimated-core-cycles blocks: per-call cycles = ns × the worker's core clock. */
export interface CyclesFigures {
  distribution: {
    meanCycles: number;
    medianCycles: number;
    p5Cycles: number;
    p25Cycles: number;
    p75Cycles: number;
    p95Cycles: number;
    workerMediansCycles: number[];
    workerMeansCycles: number[];
    workerSpread: number;
  };
  coreClock: { method: "add-chain"; adds: number; workerHz: number[]; minHz: number; maxHz: number };
  central: { value: number; ci95: { low: number; high: number }; relativeHalfWidth: number; metTarget: boolean };
}

/**
 * Estimated core cycles per call from the per-call ns and each worker's core clock, summarised like the ns (same
 * statistic as the published time figure, its interval by the same rule as the time's: see centralOf).
 */
export function cyclesFigures(
  workersNs: readonly (readonly number[])[],
  workerHz: readonly number[],
  adds: number,
  statistic: "median" | "mean",
  target: number,
  groups?: readonly number[],
  interval: IntervalRule = "prediction",
): CyclesFigures {
  if (workerHz.length !== workersNs.length) throw new Error("cyclesFigures: one core clock per worker");
  const cycles = workersNs.map((w, i) => w.map((ns) => (ns * (workerHz[i] as number)) / 1e9));
  const dist = distributionOf(cycles, cycles, 1);
  const c = centralOf(dist, cycles, { statistic, target, interval, ...(groups ? { groups } : {}) });
  const spread = workerSpread(statistic === "mean" ? dist.workerMeansNs : dist.workerMediansNs);
  return {
    distribution: {
      meanCycles: dist.meanNs,
      medianCycles: dist.medianNs,
      p5Cycles: dist.p5Ns,
      p25Cycles: dist.p25Ns,
      p75Cycles: dist.p75Ns,
      p95Cycles: dist.p95Ns,
      workerMediansCycles: dist.workerMediansNs,
      workerMeansCycles: dist.workerMeansNs,
      workerSpread: spread,
    },
    coreClock: {
      method: "add-chain",
      adds,
      workerHz: [...workerHz],
      minHz: Math.min(...workerHz),
      maxHz: Math.max(...workerHz),
    },
    central: { value: c.valueNs, ci95: c.ci95Ns, relativeHalfWidth: c.relativeHalfWidth, metTarget: c.metTarget },
  };
}

/**
 * Both blocks at once, consistent with each other: the distribution's workerSpread is over the worker figures of
 * the statistic the central figure uses (medians, or means when the mean is published).
 */
export function summarizeSamples(
  workersNs: readonly (readonly number[])[],
  workersCounter: readonly (readonly number[])[],
  batch: number,
  options: {
    statistic: CentralRule;
    target: number;
    groups?: readonly number[];
    shapeFrom?: Pick<SampleDistribution, "p5Ns" | "medianNs">;
    interval?: IntervalRule;
    decision?: CentralDecision;
  },
): { distribution: SampleDistribution; central: CentralFigure } {
  const distribution = distributionOf(workersNs, workersCounter, batch);
  const central = centralOf(distribution, workersNs, options);
  if (central.statistic === "mean") distribution.workerSpread = workerSpread(distribution.workerMeansNs);
  return { distribution, central };
}

/**
 * After a round: whether an operation's sampling goes on. quick: stop after the first worker. target: at least
 * minWorkers ran, every code layout as often as the others (balanced), and the central interval is within the
 * target. budget: the time budget is spent (even if fewer
 * than minWorkers ran); the budget counts the uncontended workers' time, the contended ones' (contendedMs) taking
 * at most contendedBudgetMs on top of it, so that a core shared for a while with a busy sibling thread costs
 * more workers, not the uncontended ones the figure is published from. Otherwise continue.
 */
export function stopDecision(state: {
  central: Pick<CentralFigure, "metTarget"> | undefined;
  workers: number;
  minWorkers: number;
  elapsedMs: number;
  budgetMs: number;
  quick: boolean;
  /** Whether every group (code layout) has had as many workers as the others; absent: true. */
  balanced?: boolean;
  /** Of elapsedMs, the contended workers' time, which the budget does not count; absent: 0. */
  contendedMs?: number;
  /** The most time contended workers may take on top of the budget; absent: 0. */
  contendedBudgetMs?: number;
}): StopDecision {
  if (state.quick) return state.workers >= 1 ? "quick" : "continue";
  if (state.central?.metTarget === true && state.workers >= state.minWorkers && state.balanced !== false)
    return "target";
  // The budget counts uncontended sampling only; contended workers take at most the allowance on top of it.
  const contended = Math.min(state.contendedMs ?? 0, state.contendedBudgetMs ?? 0);
  if (state.elapsedMs - contended >= state.budgetMs) return "budget";
  return "continue";
}
