// The figure of a timing record that a comparison compares, and the raw per-call values it is bootstrapped from:
// the samples of the workers the published figure comes from, less those a worker was switched out in, as ns or
// estimated core cycles per call (or each trial's mean, for records timed in trials).
import { keptSamples, type TimingRecord } from "@ngcc-perf/schema";
import { perCallNs, type Side, type Statistic, sideOf } from "@ngcc-perf/stats";
import { type Contention, perCallOf, publishedState, publishedWorkers } from "../per-call.ts";
import type { Figure } from "./types.ts";

/** The published statistic: the central block's (per call), or the median of the trial means (trials method). */
export function publishedStatistic(t: TimingRecord): Statistic {
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
export function uncontendedWorkers(t: TimingRecord): number[] | null {
  const pc = perCallOf(t);
  if (!pc?.contention || (t.samples ?? []).length !== pc.contention.workers.length) return null;
  return pc.contention.workers.flatMap((w, i) => (w.contended ? [] : [i]));
}

/** Whether the record's interval is on the estimated core cycles (and it holds each worker's core clock). */
export function targetsCycles(t: TimingRecord): boolean {
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
export function figureValue(t: TimingRecord, figure: Figure): number {
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

export function sideOfRecord(t: TimingRecord, unit: "cycles" | "ns", only?: readonly number[]): Side {
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

/** A record's published contention state in words: `uncontended workers only`, `all 8 workers, mixed`. */
export function stateText(t: TimingRecord): string {
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
export function ownHalfWidth(t: TimingRecord, figure: Figure): number | null {
  const pc = perCallOf(t);
  if (!pc || pc.central.statistic !== figure.statistic) return null;
  if (figure.unit === "cycles") return pc.central.cycles ? pc.central.cycles.relativeHalfWidth : null;
  return pc.central.relativeHalfWidth;
}
