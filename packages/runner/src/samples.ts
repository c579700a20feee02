// Per-call figures of a timing record (docs/methodology.md, issue 13 §3): from the per-call values of several
// worker processes to the record's `distribution` block (distributionOf of @ngcc-perf/stats) and its `central`
// block (the published figure, median or mean, with a 95 % prediction interval of a repeat run's figure, and the
// reason in words), the estimated core cycles, and each worker's contention state from the driver's two add-chain
// probes (issue 26). Pure functions, no I/O; the statistics themselves are @ngcc-perf/stats'.

import type { TimingRecord } from "@ngcc-perf/schema";
import {
  chooseStatistic,
  distributionOf,
  halfWidthOf,
  type IntervalRule,
  lowerSpreadShare,
  mean,
  median,
  type Shape,
  WIDE_SHARE,
  workerSpread,
} from "@ngcc-perf/stats";

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

/** How centralOf (and summarizeSamples) chooses the central figure and its interval. */
export interface CentralOptions {
  statistic: CentralRule;
  target: number;
  groups?: readonly number[];
  /** The distribution the auto rule judges, when not this one (the estimated core cycles': clock changes between
   * workers do not widen it). */
  shapeFrom?: Shape;
  interval?: IntervalRule;
  /** For the auto rule: the decision by instruction counts (it then decides), or why there is none (the
   * distribution decides). Recorded as central.decision. */
  decision?: CentralDecision;
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
  options: CentralOptions,
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
  const figures = workersNs.map(statistic === "mean" ? mean : median);
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

/** A count of instructions for a sentence: whole numbers with thousands separators. */
function instructions(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function reasonOf(
  dist: SampleDistribution,
  shape: Shape,
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
  const net = median(probes.deltas) - (counter.overhead ?? 0);
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
  const lat = median(clock.deltas) - overhead;
  const thr = median(throughput.deltas) - overhead;
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
 * The least reference on an AMD x86-64 core run natively: the four interleaved chains read 3.75–3.9 on a Zen core
 * alone (the issue's VM: 3.85; this project's AMD EPYC VM: 3.78–3.80 in its fast workers). The reference is at least
 * this there, so that a run whose every worker shared its core is seen as contended too.
 */
export const X86_64_ALONE_ADDS_PER_CYCLE = 3.75;

/**
 * The floor of the reference for a processor vendor (/proc/cpuinfo's vendor_id), code run natively on x86-64:
 * X86_64_ALONE_ADDS_PER_CYCLE on AMD; none on Intel, whose cores alone do not share one figure — an Intel Xeon VM
 * (Golden Cove class: an 8-chain control (bench/adds-per-cycle.c) reads 4.27–4.68 adds per cycle, so five integer ALUs, not shared) read
 * 3.26–3.43 on the four chains with the guest idle (load 0.00) and the same with its other vCPU busy: the loop
 * pass's scheduling on that core, not a sibling. There, as on ARM, the best worker is the reference and a run whose
 * every worker shared its core cannot be told (methodology.md).
 */
export function aloneFloor(vendor: string | null): number {
  return vendor === "AuthenticAMD" ? X86_64_ALONE_ADDS_PER_CYCLE : 0;
}

/** The processor vendor a /proc/cpuinfo text names (its vendor_id), or null. */
export function cpuVendorOf(cpuinfo: string): string | null {
  return /^vendor_id\s*:\s*(\S+)/m.exec(cpuinfo)?.[1] ?? null;
}

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
  options: CentralOptions,
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
