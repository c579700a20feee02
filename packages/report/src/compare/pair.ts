// Pairing the records of two stores (or two build profiles of one) by their key, and comparing each pair: timings
// by the ratio B/A of their figures with a bootstrap interval (@ngcc-perf/stats) and a verdict against a noise band,
// instruction counts exactly. Pure functions over loaded stores, no I/O: the command prints and writes.
import { type InstructionsRecord, SCHEMA_VERSION, type TimingRecord } from "@ngcc-perf/schema";
import { hash32, ratioInterval, ratioWithBetweenRun, sideStatistic } from "@ngcc-perf/stats";
import type { LoadedStore } from "../load.ts";
import { perCallOf, publishedState } from "../per-call.ts";
import { byOperation } from "../view.ts";
import {
  figureValue,
  ownHalfWidth,
  publishedStatistic,
  sideOfRecord,
  stateText,
  targetsCycles,
  uncontendedWorkers,
} from "./figures.ts";
import type {
  CompareOptions,
  Comparison,
  CountComparison,
  Figure,
  MeasurementKey,
  OneSided,
  TimeComparison,
  Verdict,
} from "./types.ts";

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

type Ok = TimingRecord & { status: "ok" };

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

/** The method of the interval, in words (compare.json's method.interval). */
const INTERVAL =
  "two-stage bootstrap percentile interval: workers drawn with replacement (within each code layout when they outnumber the layouts by two or more, else across all), each sample of a drawn worker weighted by a Poisson count (trials method: the trials drawn with replacement); A and B resampled independently";

interface Settings {
  threshold: number;
  resamples: number;
  seed: number;
}

/** Every timing present on both sides compared; those on one side only, or failed on a side, listed. */
function pairTimings(
  a: LoadedStore,
  b: LoadedStore,
  options: CompareOptions,
  { threshold, resamples, seed }: Settings,
): { timings: TimeComparison[]; unmatched: OneSided[] } {
  const timings: TimeComparison[] = [];
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
  return { timings, unmatched };
}

/** Every instruction count present on both sides compared exactly; the others listed. */
function pairCounts(
  a: LoadedStore,
  b: LoadedStore,
  options: CompareOptions,
): { instructions: CountComparison[]; unmatched: OneSided[] } {
  const instructions: CountComparison[] = [];
  const unmatched: OneSided[] = [];
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
  return { instructions, unmatched };
}

function countsOf(timings: TimeComparison[], instructions: CountComparison[]): Comparison["counts"] {
  const count = (v: Verdict) => timings.filter((t) => t.verdict === v).length;
  return {
    same: count("same"),
    faster: count("faster"),
    slower: count("slower"),
    instructionsSame: instructions.filter((c) => c.verdict === "same").length,
    instructionsDiffer: instructions.filter((c) => c.verdict !== "same").length,
    oneWorker: timings.filter((t) => t.oneWorker).length,
    notComparable: count("not-comparable"),
  };
}

/** Compares store B with store A (the same store twice with `profiles`: profile b against profile a). */
export function compareStores(
  a: LoadedStore,
  b: LoadedStore,
  names: { a: string; b: string },
  options: CompareOptions = {},
): Comparison {
  const settings = {
    threshold: options.threshold ?? 0.05,
    resamples: options.resamples ?? 1000,
    seed: options.seed ?? 1,
  };
  const { threshold, resamples, seed } = settings;
  const t = pairTimings(a, b, options, settings);
  const c = pairCounts(a, b, options);
  const timings = t.timings.sort(byKey);
  const instructions = c.instructions.sort(byKey);
  const unmatched = [...t.unmatched, ...c.unmatched].sort(
    (x, y) => byKey(x, y) || (x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : 0),
  );
  const regressed =
    timings.some((x) => x.verdict === "slower") ||
    instructions.some((x) => x.ratio === null || x.ratio > 1 + threshold);
  return {
    kind: "comparison",
    schemaVersion: SCHEMA_VERSION,
    a: { store: names.a, ...(options.profiles ? { profile: options.profiles.a } : {}) },
    b: { store: names.b, ...(options.profiles ? { profile: options.profiles.b } : {}) },
    threshold,
    method: { resamples, seed, interval: INTERVAL },
    timings,
    instructions,
    unmatched,
    counts: countsOf(timings, instructions),
    regressed,
  };
}

/** A record's between-run component of the figure compared (the cycles' or the time's), when it has one. */
function betweenRunOf(r: TimingRecord, unit: "cycles" | "ns") {
  return unit === "cycles" ? r.central?.cycles?.betweenRun : r.central?.betweenRun;
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
  const boot = ratioInterval(sides[0], sides[1], statistic, resamples, seed);
  const ratio = x > 0 ? y / x : Number.NaN;
  // The machine's between-run component, when both runs were given one for this figure: the bootstrap sees only
  // each run's within-run noise.
  const ba = betweenRunOf(ra, unit);
  const bb = betweenRunOf(rb, unit);
  const ci = ba && bb && Number.isFinite(boot.low) ? ratioWithBetweenRun(ratio, boot, ba, bb) : boot;
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
  if (ba && bb && ci !== boot) {
    out.betweenRun = { relativeSd: Math.sqrt(ba.relativeSd ** 2 + bb.relativeSd ** 2), df: Math.min(ba.df, bb.df) };
    notes.push(
      `the interval includes both runs' between-run component (sd ${(out.betweenRun.relativeSd * 100).toFixed(1)} % combined)`,
    );
  }
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
