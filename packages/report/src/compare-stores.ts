// Two record stores (or two build profiles of one) compared measurement by measurement (`ngcc-perf compare`,
// docs/report.md "Comparing stores"): for every timing record present on both sides, the ratio B/A of the figure
// the pages publish, with a 95 % interval from a two-stage bootstrap of the raw samples (@ngcc-perf/stats; fixed
// seed, so the same stores always give the same interval), and a verdict against a noise band; instruction counts compared exactly.
// Pure functions over loaded stores, no I/O: the command prints and writes.
import { type InstructionsRecord, keptSamples, SCHEMA_VERSION, type TimingRecord } from "@ngcc-perf/schema";
import { hash32, perCallNs, ratioInterval, type Side, type Statistic, sideOf, sideStatistic } from "@ngcc-perf/stats";
import { formatCounter, formatHalfWidth, formatPercent, formatTime } from "./format.ts";
import type { LoadedStore } from "./load.ts";
import { type Cell, cell, code, type Page, type Section, text } from "./model.ts";
import { type Contention, perCallOf, publishedState, publishedWorkers } from "./per-call.ts";
import { byOperation } from "./view.ts";

export type Verdict = "faster" | "slower" | "same" | "not-comparable";
export type CountVerdict = "fewer" | "more" | "same";

export interface CompareOptions {
  /** The noise band: a ratio within [1 − threshold, 1 + threshold] is no change (default 0.05). */
  threshold?: number;
  /** Bootstrap resamples (default 1000). */
  resamples?: number;
  /** Base seed of the bootstrap (default 1); each measurement's generator is seeded from it and its key. */
  seed?: number;
  /** Compare build profile `a` of store A with build profile `b` of store B (the key then leaves the profile out). */
  profiles?: { a: string; b: string };
}

/** The key of a measurement: system, algorithm, instance, build profile, operation. */
export interface MeasurementKey {
  system: string;
  algorithmId: string;
  instance: string;
  /** The build profile (of A; of B it is `profiles.b` when profiles are paired). */
  buildProfile: string;
  operation: string;
}

/** The figure compared: the published statistic, of the time or of the estimated core cycles. */
export interface Figure {
  statistic: "median" | "mean";
  /** cycles: estimated core cycles per call (both records targeted them); time: ns per call. */
  unit: "cycles" | "ns";
}

export interface TimeComparison {
  key: MeasurementKey;
  figure: Figure;
  /** The figures of A and B (in figure.unit) and their ratio B/A. */
  a: number;
  b: number;
  ratio: number;
  /** 95 % percentile interval of the ratio over the bootstrap resamples. */
  ci95: { low: number; high: number };
  verdict: Verdict;
  /** The time ratio too, when the figure is the cycles (the time moves with the core clock). */
  timeRatio?: number;
  /** Records of A and B, relative to their system folder. */
  records: { a: string; b: string };
  /** Why the figure is not the published one of a side (the sides publish different statistics). */
  note?: string;
  /** A side was sampled by one worker: the interval holds no process-to-process noise. */
  oneWorker?: boolean;
  /** The 95 % interval of each side's own figure as a fraction of it (the record's central.relativeHalfWidth, or
   * central.cycles.relativeHalfWidth for the cycles), where the figure compared is the side's published one. */
  aRelativeHalfWidth?: number;
  bRelativeHalfWidth?: number;
  /** The contention state each side's figure was published in (records with the contention probe). */
  contention?: { a: Contention["state"] | null; b: Contention["state"] | null };
  /** The states differed, so both sides were compared over their uncontended workers only: how many on each. */
  uncontendedWorkers?: { a: number; b: number };
}

export interface CountComparison {
  key: MeasurementKey;
  a: number;
  b: number;
  /** null when A counted 0 and B did not. */
  ratio: number | null;
  verdict: CountVerdict;
  records: { a: string; b: string };
}

export interface OneSided {
  key: MeasurementKey;
  kind: "timing" | "instructions";
  /** Where it is: only in A, only in B, or in both but failed on a side (`failed in A`, `failed in both`). */
  where: "only-a" | "only-b" | "failed-a" | "failed-b" | "failed-both";
  record: string;
}

export interface Comparison {
  kind: "comparison";
  schemaVersion: number;
  a: { store: string; profile?: string };
  b: { store: string; profile?: string };
  threshold: number;
  method: { resamples: number; seed: number; interval: string };
  timings: TimeComparison[];
  instructions: CountComparison[];
  unmatched: OneSided[];
  counts: {
    same: number;
    faster: number;
    slower: number;
    instructionsSame: number;
    instructionsDiffer: number;
    /** Timings with a side sampled by one worker (their interval holds no process-to-process noise). */
    oneWorker: number;
    /** Timings given no verdict: the sides were measured in different contention states. */
    notComparable: number;
  };
  /** Whether a gate should fail: a time slower, or an instruction count higher, by more than the threshold. */
  regressed: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// The verdict of an interval (the interval itself: ratioInterval of @ngcc-perf/stats).

/**
 * faster / slower only when the whole interval lies beyond the band [1 / (1 + t), 1 + t]; otherwise same. The band
 * is symmetric in the ratio (B/A below 1/(1 + t) is A/B above 1 + t), so that swapping A and B swaps the verdicts:
 * with [1 − t, 1 + t] an interval just below 1 − t was "same" one way round and "slower" the other.
 */
export function verdictOf(ci: { low: number; high: number }, threshold: number): Verdict {
  if (ci.low > 1 + threshold) return "slower";
  if (ci.high < 1 / (1 + threshold)) return "faster";
  return "same";
}

// ---------------------------------------------------------------------------------------------------------------
// The figure of a timing record and its per-call values.

type Ok = TimingRecord & { status: "ok" };

/** The published statistic: the central block's (per call), or the median of the trial means (trials method). */
function publishedStatistic(t: TimingRecord): Statistic {
  return perCallOf(t)?.central.statistic ?? "median";
}

/** The raw samples of the workers the published figure comes from (the uncontended ones when the record published
 * from them: its distribution and central, their worker lists included, are of those workers only), with their
 * 0-based indices among all workers. */
function publishedSamples(t: TimingRecord): { samples: NonNullable<TimingRecord["samples"]>; index: number[] } {
  const all = t.samples ?? [];
  const pc = perCallOf(t);
  if (!pc || all.length !== pc.sampling.samplesPerWorker.length) return { samples: all, index: all.map((_, i) => i) };
  const index = publishedWorkers(pc);
  return { samples: index.map((i) => all[i] as (typeof all)[number]), index };
}

/** The 0-based indices of a record's uncontended workers (always among the published ones), or null when the
 * record has no contention block or its samples do not list every worker. */
function uncontendedWorkers(t: TimingRecord): number[] | null {
  const pc = perCallOf(t);
  if (!pc?.contention || (t.samples ?? []).length !== pc.contention.workers.length) return null;
  return pc.contention.workers.flatMap((w, i) => (w.contended ? [] : [i]));
}

/** Whether the record's interval is on the estimated core cycles (and it holds each worker's core clock). */
function targetsCycles(t: TimingRecord): boolean {
  const pc = perCallOf(t);
  return (
    !!pc &&
    pc.sampling.target.figure === "cycles" &&
    !!pc.central.cycles &&
    !!pc.distribution.cycles &&
    (pc.distribution.coreClock?.workerHz.length ?? 0) === (t.samples ? publishedSamples(t).samples.length : -1)
  );
}

/** Per-call ns of each worker (per call) or each trial's mean per operation (trials), as a side's raw values. */
function workerValues(
  t: TimingRecord,
  unit: "cycles" | "ns",
  only?: readonly number[],
): { workers: number[][]; groups?: number[] } {
  const pc = perCallOf(t);
  if (pc && t.samples && t.counter) {
    const counter = t.counter;
    const batch = pc.sampling.batch;
    // The published workers' samples: the worker lists of distribution (the core clocks) are of them only. With
    // `only` (indices among all workers, each a published one), just those.
    const published = publishedSamples(t);
    const hz = pc.distribution.coreClock?.workerHz ?? [];
    const keep = published.index.flatMap((all, at) => (!only || only.includes(all) ? [at] : []));
    // Each worker's samples without those it was switched out in, as the record's figures (keptSamples).
    const workers = keep.map((at) => {
      const w = published.samples[at] as (typeof published.samples)[number];
      const kept = keptSamples(w.counterDeltas.length, w.switchedOut).kept.map((j) => w.counterDeltas[j] as number);
      const ns = perCallNs({ counterDeltas: kept }, batch, counter);
      return unit === "cycles" ? ns.map((x) => (x * (hz[at] as number)) / 1e9) : ns;
    });
    // sampling lists every worker: the layouts of the workers kept.
    const all = pc.sampling.layouts?.workerPadBytes;
    const pads =
      all && all.length === t.samples.length
        ? keep.map((at) => all[published.index[at] as number] as number)
        : undefined;
    return pads && pads.length === workers.length ? { workers, groups: pads } : { workers };
  }
  // Trials: each trial's mean per operation is one value, every trial its own stratum-free worker.
  return { workers: [(t.trials ?? []).map((x) => x.ns / x.iterations)] };
}

/** The figure's value on a record: the published one when its statistic is the record's. */
function figureValue(t: TimingRecord, figure: Figure): number {
  const pc = perCallOf(t);
  if (pc) {
    if (figure.unit === "cycles") {
      const c = pc.distribution.cycles as NonNullable<typeof pc.distribution.cycles>;
      if (pc.central.statistic === figure.statistic && pc.central.cycles) return pc.central.cycles.value;
      return figure.statistic === "mean" ? c.meanCycles : c.medianCycles;
    }
    if (pc.central.statistic === figure.statistic) return pc.central.valueNs;
    return figure.statistic === "mean" ? pc.distribution.meanNs : pc.distribution.medianNs;
  }
  const a = t.aggregates as NonNullable<TimingRecord["aggregates"]>;
  return figure.statistic === "mean" ? a.meanNs : a.medianTrialNs;
}

function sideOfRecord(t: TimingRecord, unit: "cycles" | "ns", only?: readonly number[]): Side {
  const v = workerValues(t, unit, only);
  // Trials: one worker, its trials resampled one by one.
  if (!perCallOf(t)) {
    const trials = v.workers[0] ?? [];
    return sideOf(
      trials.map((x) => [x]),
      undefined,
      false,
    );
  }
  return sideOf(v.workers, v.groups);
}

// ---------------------------------------------------------------------------------------------------------------
// Pairing and comparing.

function keyText(k: MeasurementKey, withProfile = true): string {
  return [k.system, k.algorithmId, k.instance, withProfile ? k.buildProfile : "", k.operation].join("\u0000");
}

interface Entry<R> {
  key: MeasurementKey;
  record: R;
  path: string;
}

function entriesOf<R extends { algorithmId: string; instance: string; buildProfile: string; operation: string }>(
  store: LoadedStore,
  pick: (s: LoadedStore["systems"][number]) => R[],
  profile: string | undefined,
): Map<string, Entry<R>> {
  const out = new Map<string, Entry<R>>();
  for (const s of store.systems)
    for (const r of pick(s)) {
      if (profile !== undefined && r.buildProfile !== profile) continue;
      const key = {
        system: s.system,
        algorithmId: r.algorithmId,
        instance: r.instance,
        buildProfile: r.buildProfile,
        operation: r.operation,
      };
      out.set(keyText(key, profile === undefined), { key, record: r, path: s.pathOf.get(r) ?? "" });
    }
  return out;
}

/** Key order: system, algorithm, instance, build profile, then the operations as the pages order them. */
function byKey(x: { key: MeasurementKey }, y: { key: MeasurementKey }): number {
  const a = x.key;
  const b = y.key;
  for (const f of ["system", "algorithmId", "instance", "buildProfile"] as const)
    if (a[f] !== b[f]) return a[f] < b[f] ? -1 : 1;
  return byOperation(a.operation, b.operation);
}

/** Compares store B with store A (the same store twice with `profiles`: profile b against profile a). */
export function compareStores(
  a: LoadedStore,
  b: LoadedStore,
  names: { a: string; b: string },
  options: CompareOptions = {},
): Comparison {
  const threshold = options.threshold ?? 0.05;
  const resamples = options.resamples ?? 1000;
  const seed = options.seed ?? 1;
  const timings: TimeComparison[] = [];
  const instructions: CountComparison[] = [];
  const unmatched: OneSided[] = [];

  const ta = entriesOf(a, (s) => s.timings, options.profiles?.a);
  const tb = entriesOf(b, (s) => s.timings, options.profiles?.b);
  const okTiming = (t: TimingRecord): t is Ok => t.status === "ok" && !!t.aggregates;
  for (const [k, ea] of ta) {
    const eb = tb.get(k);
    if (!eb) {
      unmatched.push({ key: ea.key, kind: "timing", where: "only-a", record: ea.path });
      continue;
    }
    const okA = okTiming(ea.record);
    const okB = okTiming(eb.record);
    if (!okA || !okB) {
      const where = !okA && !okB ? "failed-both" : !okA ? "failed-a" : "failed-b";
      unmatched.push({ key: ea.key, kind: "timing", where, record: !okA ? ea.path : eb.path });
      continue;
    }
    timings.push(compareTiming(ea, eb, threshold, resamples, (seed ^ hash32(k)) >>> 0));
  }
  for (const [k, eb] of tb)
    if (!ta.has(k)) unmatched.push({ key: eb.key, kind: "timing", where: "only-b", record: eb.path });

  const ia = entriesOf(a, (s) => s.instructions ?? [], options.profiles?.a);
  const ib = entriesOf(b, (s) => s.instructions ?? [], options.profiles?.b);
  const okCount = (r: InstructionsRecord) => r.status === "ok" && r.instructionsPerCall !== undefined;
  for (const [k, ea] of ia) {
    const eb = ib.get(k);
    if (!eb) {
      unmatched.push({ key: ea.key, kind: "instructions", where: "only-a", record: ea.path });
      continue;
    }
    if (!okCount(ea.record) || !okCount(eb.record)) {
      const fa = !okCount(ea.record);
      const where = fa && !okCount(eb.record) ? "failed-both" : fa ? "failed-a" : "failed-b";
      unmatched.push({ key: ea.key, kind: "instructions", where, record: fa ? ea.path : eb.path });
      continue;
    }
    const x = ea.record.instructionsPerCall as number;
    const y = eb.record.instructionsPerCall as number;
    const ratio = x > 0 ? y / x : y === 0 ? 1 : null;
    instructions.push({
      key: ea.key,
      a: x,
      b: y,
      ratio,
      verdict: y === x ? "same" : y > x ? "more" : "fewer",
      records: { a: ea.path, b: eb.path },
    });
  }
  for (const [k, eb] of ib)
    if (!ia.has(k)) unmatched.push({ key: eb.key, kind: "instructions", where: "only-b", record: eb.path });

  timings.sort(byKey);
  instructions.sort(byKey);
  unmatched.sort((x, y) => byKey(x, y) || (x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : 0));
  const count = (v: Verdict) => timings.filter((t) => t.verdict === v).length;
  const regressed =
    timings.some((t) => t.verdict === "slower") ||
    instructions.some((c) => c.ratio === null || c.ratio > 1 + threshold);
  return {
    kind: "comparison",
    schemaVersion: SCHEMA_VERSION,
    a: { store: names.a, ...(options.profiles ? { profile: options.profiles.a } : {}) },
    b: { store: names.b, ...(options.profiles ? { profile: options.profiles.b } : {}) },
    threshold,
    method: {
      resamples,
      seed,
      interval:
        "two-stage bootstrap percentile interval: workers drawn with replacement (within each code layout when they outnumber the layouts by two or more, else across all), each sample of a drawn worker weighted by a Poisson count (trials method: the trials drawn with replacement); A and B resampled independently",
    },
    timings,
    instructions,
    unmatched,
    counts: {
      same: count("same"),
      faster: count("faster"),
      slower: count("slower"),
      instructionsSame: instructions.filter((c) => c.verdict === "same").length,
      instructionsDiffer: instructions.filter((c) => c.verdict !== "same").length,
      oneWorker: timings.filter((t) => t.oneWorker).length,
      notComparable: count("not-comparable"),
    },
    regressed,
  };
}

function compareTiming(
  ea: Entry<TimingRecord>,
  eb: Entry<TimingRecord>,
  threshold: number,
  resamples: number,
  seed: number,
): TimeComparison {
  const ra = ea.record;
  const rb = eb.record;
  const sa = publishedStatistic(ra);
  const sb = publishedStatistic(rb);
  const statistic = sa === sb ? sa : "mean";
  const unit = targetsCycles(ra) && targetsCycles(rb) ? "cycles" : "ns";
  const figure: Figure = { statistic, unit };
  // Figures published in different contention states are compared over each side's uncontended workers (a
  // contended core is slower, whatever the code), when each side has at least two; else there is no verdict.
  const ka = publishedState(ra);
  const kb = publishedState(rb);
  const differ = ka !== null && kb !== null && ka !== kb;
  const ua = differ ? uncontendedWorkers(ra) : null;
  const ub = differ ? uncontendedWorkers(rb) : null;
  const subset = ua && ub && ua.length >= 2 && ub.length >= 2 ? { a: ua, b: ub } : undefined;
  const sides = [sideOfRecord(ra, unit, subset?.a), sideOfRecord(rb, unit, subset?.b)] as const;
  const x = subset ? sideStatistic(sides[0], statistic) : figureValue(ra, figure);
  const y = subset ? sideStatistic(sides[1], statistic) : figureValue(rb, figure);
  const ci = ratioInterval(sides[0], sides[1], statistic, resamples, seed);
  const ratio = x > 0 ? y / x : Number.NaN;
  const out: TimeComparison = {
    key: ea.key,
    figure,
    a: x,
    b: y,
    ratio,
    ci95: ci,
    verdict: Number.isFinite(ci.low) ? verdictOf(ci, threshold) : "same",
    records: { a: ea.path, b: eb.path },
  };
  if (unit === "cycles") {
    const time: Figure = { statistic, unit: "ns" };
    const ta = figureValue(ra, time);
    if (ta > 0) out.timeRatio = figureValue(rb, time) / ta;
  }
  const notes: string[] = [];
  if (sa !== sb) notes.push(`A publishes the ${sa}, B the ${sb}: both compared by the mean`);
  if (sides.some((side, i) => perCallOf(i === 0 ? ra : rb) !== null && side.workers < 2)) out.oneWorker = true;
  const ha = subset ? null : ownHalfWidth(ra, figure);
  const hb = subset ? null : ownHalfWidth(rb, figure);
  if (ha !== null) out.aRelativeHalfWidth = ha;
  if (hb !== null) out.bRelativeHalfWidth = hb;
  // The figure compared is the time while a side's sampling stopped on its cycles' interval: say so.
  if (unit === "ns") {
    const onCycles = (["A", "B"] as const).filter(
      (_, i) => perCallOf(i === 0 ? ra : rb)?.sampling.target.figure === "cycles",
    );
    if (onCycles.length)
      notes.push(`compared by the time; ${onCycles.join(" and ")}'s precision target was on the estimated core cycles`);
  }
  // Figures measured in different contention states: over the uncontended workers, or no verdict.
  if (ka !== null || kb !== null) out.contention = { a: ka, b: kb };
  if (subset) {
    out.uncontendedWorkers = { a: subset.a.length, b: subset.b.length };
    notes.push(
      `published in different contention states (A ${stateText(ra)}, B ${stateText(rb)}): compared over the uncontended workers only (A ${subset.a.length}, B ${subset.b.length})`,
    );
  } else if (differ) {
    out.verdict = "not-comparable";
    notes.push(
      `not comparable: measured in different contention states (A ${stateText(ra)}, B ${stateText(rb)}), and ${
        (ua?.length ?? 0) < 2 ? "A" : "B"
      } has fewer than 2 uncontended workers`,
    );
  }
  if (notes.length) out.note = notes.join("; ");
  return out;
}

/** A record's published contention state in words: `uncontended workers only`, `all 8 workers, mixed`. */
function stateText(t: TimingRecord): string {
  const s = publishedState(t);
  const c = (t as { contention?: Contention }).contention as Contention;
  if (c.publishedFrom === "uncontended") {
    const used = c.workers.filter((w) => !w.contended).length;
    return c.workers.length
      ? `from its ${used} uncontended of ${c.workers.length} workers`
      : "from uncontended workers";
  }
  return `from all ${c.workers.length ? `${c.workers.length} ` : ""}workers, ${s}`;
}

/** The record's own 95 % interval of the figure compared, as a fraction of it, when the figure is its published
 * one (its statistic, per call); null otherwise (another statistic, or a trials record). */
function ownHalfWidth(t: TimingRecord, figure: Figure): number | null {
  const pc = perCallOf(t);
  if (!pc || pc.central.statistic !== figure.statistic) return null;
  if (figure.unit === "cycles") return pc.central.cycles ? pc.central.cycles.relativeHalfWidth : null;
  return pc.central.relativeHalfWidth;
}

// ---------------------------------------------------------------------------------------------------------------
// Presentation: the table the command prints, and the page (Markdown and HTML through the report's templates).

export function measurementName(k: MeasurementKey, withSystem: boolean, withProfile = true): string {
  return `${withSystem ? `${k.system}: ` : ""}${k.algorithmId}/${k.instance} ${k.operation}${withProfile ? ` [${k.buildProfile}]` : ""}`;
}

function figureValueText(v: number, f: Figure, halfWidth?: number): string {
  const value = f.unit === "ns" ? formatTime(v) : `${formatCounter(v)} cycles`;
  return halfWidth === undefined ? value : `${value} ${formatHalfWidth(halfWidth)}`;
}

const VERDICT_TEXT: Record<Verdict, string> = {
  faster: "faster",
  slower: "slower",
  same: "same",
  "not-comparable": "not comparable",
};

export function figureText(f: Figure): string {
  return `${f.statistic} ${f.unit === "ns" ? "time" : "est. cycles"}`;
}

/** Instructions per call: an integer when whole, else two decimals. */
function formatCount(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

function ratioText(r: number): string {
  return Number.isFinite(r) ? r.toFixed(3) : String(r);
}

const WHERE_TEXT: Record<OneSided["where"], string> = {
  "only-a": "only in A",
  "only-b": "only in B",
  "failed-a": "failed in A",
  "failed-b": "failed in B",
  "failed-both": "failed in both",
};

function layout(c: Comparison) {
  const systems = new Set([...c.timings, ...c.instructions, ...c.unmatched].map((x) => x.key.system));
  return { withSystem: systems.size > 1, withProfile: !c.a.profile };
}

/** The rows of the verdict table, as text cells. */
export function timingRows(c: Comparison): string[][] {
  const { withSystem, withProfile } = layout(c);
  return c.timings.map((t) => [
    measurementName(t.key, withSystem, withProfile),
    figureText(t.figure),
    figureValueText(t.a, t.figure, t.aRelativeHalfWidth),
    figureValueText(t.b, t.figure, t.bRelativeHalfWidth),
    ratioText(t.ratio),
    `${ratioText(t.ci95.low)}–${ratioText(t.ci95.high)}`,
    VERDICT_TEXT[t.verdict],
  ]);
}

/** The notes of the rows that have one (`kem-90/P-1 enc [guide]: …`). */
export function rowNotes(c: Comparison): string[] {
  const { withSystem, withProfile } = layout(c);
  return c.timings.filter((t) => t.note).map((t) => `${measurementName(t.key, withSystem, withProfile)}: ${t.note}.`);
}

export const TIMING_HEADERS = ["measurement", "figure", "A", "B", "B/A", "95% interval", "verdict"];
export const COUNT_HEADERS = ["measurement", "A instructions", "B instructions", "B/A", "verdict"];

export function countRows(c: Comparison): string[][] {
  const { withSystem, withProfile } = layout(c);
  return c.instructions.map((x) => [
    measurementName(x.key, withSystem, withProfile),
    formatCount(x.a),
    formatCount(x.b),
    x.ratio === null ? "—" : ratioText(x.ratio),
    x.verdict,
  ]);
}

export function unmatchedRows(c: Comparison): string[][] {
  const { withSystem, withProfile } = layout(c);
  return c.unmatched.map((u) => [measurementName(u.key, withSystem, withProfile), u.kind, WHERE_TEXT[u.where]]);
}

/** Columns padded to their widest cell; numbers (and ratios) right-aligned. */
export function alignedTable(headers: string[], rows: string[][], right: ReadonlyArray<number>): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((s, i) => (right.includes(i) ? s.padStart(widths[i] as number) : s.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function sideName(s: { store: string; profile?: string }): string {
  return s.profile ? `${s.store} (build profile ${s.profile})` : s.store;
}

/** What the verdicts mean and how the interval was computed, in words (page and console). */
export function methodText(c: Comparison): string {
  const t = formatPercent(c.threshold);
  return (
    `B/A is the ratio of the figure each page publishes: the median per call (the mean where a record publishes the mean), ` +
    "of the estimated core cycles when both records' precision target was on them (the time per call moves with the core clock), else of the time. " +
    `Its 95% interval is a ${c.method.interval}, ${c.method.resamples} resamples, seed ${c.method.seed}. ` +
    `Verdict: slower when the whole interval lies above 1 + ${t}, faster when it lies below 1/(1 + ${t}) (the same band seen from the other side: swapping A and B swaps the verdicts), else same (the interval reaches into the noise band, or contains 1). ` +
    "A and B carry each record's own 95% interval of its figure (±), where the figure is the one it publishes. " +
    "Two figures published in different contention states (one from uncontended workers, the other from all, some or all of them contended) are compared over each side's uncontended workers only (their pooled calls, bootstrapped alike), when each side has at least two; otherwise they get no verdict: not comparable. " +
    "Instruction counts are exact: same only when equal." +
    (c.counts.oneWorker
      ? ` In ${c.counts.oneWorker} of the ${c.timings.length} timings a side was sampled by one worker only: their intervals hold no process-to-process noise (a larger timing budget gives more workers).`
      : "")
  );
}

export function summaryText(c: Comparison): string {
  const k = c.counts;
  const parts = [
    `${c.timings.length} timing(s) compared: ${k.same} same, ${k.faster} faster, ${k.slower} slower${k.notComparable ? `, ${k.notComparable} not comparable (different contention states, too few uncontended workers)` : ""}`,
    `${c.instructions.length} instruction count(s): ${k.instructionsSame} same, ${k.instructionsDiffer} different`,
    `${c.unmatched.length} not compared (one side only or failed)`,
  ];
  return `${parts.join("; ")}.`;
}

const cells = (row: string[], codeFirst = true): Cell[] => row.map((s, i) => cell(s, codeFirst && i === 0));

/** The comparison as a report page (rendered with renderPage to Markdown and HTML). */
export function comparisonPage(c: Comparison): Page {
  const section = (id: string, heading: string, s: Partial<Section>): Section => ({
    id,
    heading,
    notes: [],
    tables: [],
    after: [],
    charts: [],
    ...s,
  });
  const sections: Section[] = [
    section("timings", "Timings", {
      notes: [[text(summaryText(c))]],
      tables: [
        {
          caption: "B/A of every timing present in both, with its 95% interval and verdict",
          headers: TIMING_HEADERS,
          rows: timingRows(c).map((r) => cells(r)),
          rowHeaders: true,
        },
      ],
      after: [...rowNotes(c).map((n) => [text(n)]), [text(methodText(c))]],
    }),
  ];
  if (c.instructions.length)
    sections.push(
      section("instructions", "Instruction counts", {
        tables: [
          {
            caption: "Instructions per call (valgrind's callgrind), compared exactly",
            headers: COUNT_HEADERS,
            rows: countRows(c).map((r) => cells(r)),
            rowHeaders: true,
          },
        ],
      }),
    );
  if (c.unmatched.length)
    sections.push(
      section("not-compared", "Not compared", {
        tables: [
          {
            caption: "Measurements on one side only, or failed on a side",
            headers: ["measurement", "kind", "where"],
            rows: unmatchedRows(c).map((r) => cells(r)),
            rowHeaders: true,
          },
        ],
      }),
    );
  return {
    kind: "compare",
    path: "compare",
    header: [text("ngcc-perf compare")],
    title: `Comparison: B against A`,
    intro: [
      [text("A: "), code(sideName(c.a))],
      [text("B: "), code(sideName(c.b))],
      [
        text(
          `Noise band ±${formatPercent(c.threshold)}. ${c.regressed ? "Something is slower than the band: the gate fails." : "Nothing is slower than the band."}`,
        ),
      ],
    ],
    sections,
    footer: [[text("Made by ngcc-perf compare from the records of both stores.")]],
  };
}
