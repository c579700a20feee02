// The per-call method of the time step (docs/methodology.md): for the operations of one built instance, rounds
// of fresh worker processes — one per operation still open, in turn, so that drift touches every operation alike —
// each taking per-call samples over varied inputs, until the published figure's 95 % interval is within the
// target or the operation's budget is spent.
import { readFileSync } from "node:fs";
import { keptSamples, SWITCHED_OUT_CAP, type TimingRecord } from "@ngcc-perf/schema";
import { perCallCounter, perCallNs, shapeOf } from "@ngcc-perf/stats";
import { withBetweenRunComponent } from "./between-run.ts";
import type { BuiltInstance, Command } from "./build.ts";
import type { Campaign, CounterKind } from "./campaign.ts";
import { DriverError, type DriverSample, driverRun, driverSampleArgs } from "./driver.ts";
import { checkSampleOutput, type SampledWorker, sampleChecks } from "./plausibility.ts";
import { commandOf } from "./proc.ts";
import {
  addsPerCycle,
  aloneFloor,
  type CentralDecision,
  type Contention,
  type CyclesFigures,
  contentionOf,
  coreClockHz,
  cpuVendorOf,
  cyclesFigures,
  publishedWorkers,
  stopDecision,
  summarizeSamples,
} from "./samples.ts";
import type { Trial } from "./stats.ts";

type Central = NonNullable<TimingRecord["central"]>;
type Distribution = NonNullable<TimingRecord["distribution"]>;
type StopReason = "target" | "budget" | "quick";

/** One operation's sampling so far. */
export interface OpSampling {
  operation: string;
  workers: DriverSample[];
  /** The code layout (padding bytes) of each worker's driver, in worker order. */
  workerPadBytes: number[];
  /** Each worker's arguments and the runner's own clock over its process, in worker order (the cross-checks). */
  workerRuns: Array<{ args: string[]; durationMs: number }>;
  commands: Command[];
  elapsedMs: number;
  /** Each worker's share of elapsedMs, in worker order. */
  workerElapsedMs: number[];
  /** Of elapsedMs, the time of the workers the contention block judges contended (the budget does not count it). */
  contendedMs: number;
  stoppedBy: StopReason | null;
  failure: DriverError | null;
  distribution?: Distribution;
  central?: Central;
  /** Estimated core cycles, when every worker probed its core clock. */
  cycles?: CyclesFigures;
  /** Each worker's contention state and the workers distribution/central come from, when every worker probed. */
  contention?: Contention;
  /** How the statistic is decided when the campaign does not set it (the instance's instruction counts). */
  decision?: CentralDecision;
}

/** This machine's processor vendor (/proc/cpuinfo's vendor_id), read once; null when it says none. */
let vendor: string | null | undefined;
function cpuVendor(campaign: Campaign): string | null {
  if (campaign.context.hostVendor !== undefined) return campaign.context.hostVendor;
  if (vendor === undefined) {
    let text = "";
    try {
      text = readFileSync("/proc/cpuinfo", "utf8");
    } catch {
      text = "";
    }
    vendor = cpuVendorOf(text);
  }
  return vendor;
}

/**
 * The contention block of an operation's workers, when every one ran the contention probe (else undefined). The
 * vendor's floor (aloneFloor) applies when the code runs natively on x86-64 (no emulator).
 */
function contentionOfWorkers(campaign: Campaign, o: OpSampling, minWorkers: number): Contention | undefined {
  const probes = o.workers.map((w) =>
    w.clockChain && w.throughputChain ? addsPerCycle(w.clockChain, w.throughputChain, w.counter) : null,
  );
  const chains = o.workers[0]?.throughputChain?.chains;
  if (chains === undefined || probes.some((p) => p === null)) return undefined;
  const t = campaign.target;
  const x86 = t.emulator.length === 0 && (t.arch === null ? process.arch === "x64" : t.arch === "x86_64");
  return contentionOf(probes, chains, minWorkers, { floor: x86 ? aloneFloor(cpuVendor(campaign)) : 0 });
}

/**
 * The limits of a run: the campaign's, or a smoke run's with --quick. An operation whose mean is published (its
 * time depends on the input: a wide per-call distribution) has the larger budget `timing.meanBudgetMs`: the mean
 * of a wide distribution needs many more calls for the same interval.
 */
function limits(campaign: Campaign, quick: boolean, statistic?: "median" | "mean") {
  const t = campaign.timing;
  const budgetNs = statistic === "mean" ? t.meanBudgetNs : t.budgetNs;
  const contendedNs = t.contendedBudgetNs ?? budgetNs;
  return quick
    ? { workerNs: 20e6, minWorkers: 1, budgetMs: 0, contendedBudgetMs: 0, target: t.target }
    : {
        workerNs: t.workerNs,
        minWorkers: t.minWorkers,
        budgetMs: budgetNs / 1e6,
        contendedBudgetMs: contendedNs / 1e6,
        target: t.target,
      };
}

/** A worker's samples without those it was switched out in (keptSamples: at most a quarter of them left out). */
function keptOf(w: DriverSample): number[] {
  const k = keptSamples(w.samples.length, w.switchedOut);
  return k.dropped > 0 ? k.kept.map((i) => w.samples[i] as number) : w.samples;
}

/** The statistics of an operation over its workers so far, and whether it may stop. */
function evaluate(campaign: Campaign, built: BuiltInstance, o: OpSampling, quick: boolean): void {
  const first = o.workers[0];
  if (!first) return;
  // Contention seen, not averaged in: the figures come from the uncontended workers when there are enough of them.
  o.contention = contentionOfWorkers(campaign, o, limits(campaign, quick).minWorkers);
  const chosen = o.contention ? publishedWorkers(o.contention) : o.workers.map((_, i) => i);
  const used = chosen.map((i) => o.workers[i] as DriverSample);
  const groups = chosen.map((i) => o.workerPadBytes[i] as number);
  // A sample during which the worker was switched out holds another task's time: left out (keptOf).
  const ns = used.map((w) => perCallNs({ counterDeltas: keptOf(w) }, w.batch, w.counter));
  const counter = used.map((w) => perCallCounter({ counterDeltas: keptOf(w) }, w.batch));
  const l = limits(campaign, quick);
  const statistic = campaign.timing.central[o.operation] ?? "auto";
  // With the core clock probed, the auto rule judges the shape of the estimated cycles' distribution: a clock
  // change between workers spreads the pooled times, not the cycles.
  const hz = used.map((w) => (w.clockChain ? coreClockHz(w.clockChain, w.counter) : null));
  const probed = hz.every((h): h is number => h !== null) && first.clockChain !== undefined;
  const cyclesShape = probed ? shapeOf(ns.map((w, i) => w.map((x) => (x * (hz[i] as number)) / 1e9))) : undefined;
  ({ distribution: o.distribution, central: o.central } = summarizeSamples(ns, counter, first.batch, {
    statistic,
    target: l.target,
    groups,
    ...(cyclesShape ? { shapeFrom: cyclesShape } : {}),
    ...(o.decision ? { decision: o.decision } : {}),
  }));
  o.cycles = undefined;
  if (probed && first.clockChain) {
    o.cycles = cyclesFigures(ns, hz, first.clockChain.adds, o.central.statistic, l.target, groups);
  }
  // The target is judged only when every code layout has as many workers as the others, so that the pooled figure
  // weighs the layouts alike; the budget stops at any round.
  const layouts = new Set(built.layouts.map((x) => x.padBytes)).size || 1;
  const perLayout = new Map<number, number>();
  for (const g of groups) perLayout.set(g, (perLayout.get(g) ?? 0) + 1);
  const balanced = perLayout.size === layouts && new Set(perLayout.values()).size === 1;
  // With some workers contended, the target waits for minWorkers uncontended ones (more workers, within the budget).
  const free = o.contention ? o.contention.workers.filter((w) => !w.contended).length : chosen.length;
  // The budget is of uncontended sampling: a contended worker's time is spent on top of it, up to the allowance.
  o.contendedMs = (o.contention?.workers ?? []).reduce(
    (sum, w, i) => sum + (w.contended ? (o.workerElapsedMs[i] ?? 0) : 0),
    0,
  );
  const { budgetMs, contendedBudgetMs } = limits(campaign, quick, o.central.statistic);
  const d = stopDecision({
    // The target is on the estimated core cycles when the core clock was probed: the time per call moves with the
    // core clock (boost, a VM's host), which more samples cannot average away; the cycles do not.
    central: o.cycles ? o.cycles.central : o.central,
    workers: o.contention?.state === "mixed" ? free : chosen.length,
    minWorkers: l.minWorkers,
    balanced,
    elapsedMs: o.elapsedMs,
    budgetMs,
    contendedMs: o.contendedMs,
    contendedBudgetMs,
    quick,
  });
  o.stoppedBy = d === "continue" ? null : d;
}

/** One worker: a fresh driver process sampling one operation. */
async function worker(
  campaign: Campaign,
  built: BuiltInstance,
  label: string,
  o: OpSampling,
  counter: CounterKind,
  quick: boolean,
): Promise<void> {
  const n = o.workers.length + 1;
  // The first worker's batch (from its own estimate) is kept for the rest, so every sample of an operation is the
  // same number of calls and the record states one batch.
  const first = o.workers[0];
  const args = driverSampleArgs(campaign, o.operation, counter, {
    sampleNs: limits(campaign, quick).workerNs,
    seed: n,
    ...(quick ? { warmupNs: 5e6 } : {}),
    ...(first ? { batch: first.batch } : {}),
  });
  // Worker n runs the driver of code layout (n − 1) mod L, so that the workers of an operation cover the layouts.
  const layouts = built.layouts.length > 0 ? built.layouts : [{ padBytes: 0, driver: built.driver }];
  const layout = layouts[(n - 1) % layouts.length] as (typeof layouts)[number];
  // The budget is spent on the runner's clock over each worker's process (RunResult.durationMs), the clock the
  // plausibility checks hold the samples against: what a replayed run states is what its stop rule sees.
  let spent = 0;
  try {
    const r = await driverRun<DriverSample>(
      campaign.context,
      layout.driver,
      args,
      campaign.timeouts.operationMs,
      `${label} ${o.operation}: sample`,
      "driver-sample",
      checkSampleOutput,
    );
    o.commands.push(commandOf(r.result));
    o.workers.push(r.value);
    o.workerPadBytes.push(layout.padBytes);
    o.workerRuns.push({ args, durationMs: r.result.durationMs });
    spent = r.result.durationMs;
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    o.commands.push(commandOf(err.result));
    o.failure = err;
    spent = err.result.durationMs;
  }
  o.elapsedMs += spent;
  if (!o.failure) o.workerElapsedMs.push(spent);
  if (!o.failure) evaluate(campaign, built, o, quick);
}

/** Samples every operation of a built instance, interleaving the workers of the operations. */
export async function samplePerCall(
  campaign: Campaign,
  built: BuiltInstance,
  label: string,
  operations: readonly string[],
  counter: CounterKind,
  quick: boolean,
  onDone: (o: OpSampling) => Promise<void>,
  decisionOf?: (operation: string) => CentralDecision | undefined,
): Promise<void> {
  const ops: OpSampling[] = operations.map((operation) => ({
    ...(decisionOf?.(operation) ? { decision: decisionOf(operation) } : {}),
    operation,
    workers: [],
    workerPadBytes: [],
    workerRuns: [],
    commands: [],
    elapsedMs: 0,
    workerElapsedMs: [],
    contendedMs: 0,
    stoppedBy: null,
    failure: null,
  }));
  const open = () => ops.filter((o) => o.stoppedBy === null && o.failure === null);
  while (open().length > 0) {
    for (const o of open()) {
      await worker(campaign, built, label, o, counter, quick);
      if (o.stoppedBy !== null || o.failure !== null) await onDone(o);
    }
  }
}

/** A worker's totals as one trial, so the seed columns (mean, n) follow from the samples. */
export function workerTrials(o: OpSampling): Trial[] {
  return o.workers.map((w) => {
    const kept = keptOf(w);
    const ns = perCallNs({ counterDeltas: kept }, w.batch, w.counter);
    return {
      iterations: kept.length * w.batch,
      counterDelta: kept.reduce((a, b) => a + b, 0),
      ns: ns.reduce((a, b) => a + b, 0) * w.batch,
    };
  });
}

/** sampling.switchedOut: the samples left out for a switch, and the workers that kept theirs (over the cap). */
function switchedOutField(workers: readonly DriverSample[]) {
  const k = workers.map((w) => keptSamples(w.samples.length, w.switchedOut));
  const listed = workers.reduce((n, w) => n + (w.switchedOut?.length ?? 0), 0);
  if (listed === 0) return {};
  return {
    switchedOut: {
      listed,
      dropped: k.reduce((n, x) => n + x.dropped, 0),
      workersOverCap: k.filter((x) => x.overCap).length,
      cap: SWITCHED_OUT_CAP,
      keptPerWorker: k.map((x) => x.kept.length),
    },
  };
}

/** The runner's cross-checks of a finished operation's workers (plausibility.ts). */
export function perCallChecks(o: OpSampling) {
  const workers: SampledWorker[] = o.workers.map((output, i) => ({
    output,
    args: o.workerRuns[i]?.args ?? [],
    durationMs: o.workerRuns[i]?.durationMs ?? 0,
  }));
  return sampleChecks(workers);
}

/** The record fields of the per-call method for a finished operation. */
export function perCallFields(campaign: Campaign, o: OpSampling, quick: boolean) {
  const first = o.workers[0];
  if (!first || !o.distribution || !o.central || !o.stoppedBy) throw new Error(`${o.operation}: not sampled`);
  const l = limits(campaign, quick, o.central.statistic);
  const overhead = first.counter.overhead ?? 0;
  const medianSample = o.distribution.medianCounter !== undefined ? o.distribution.medianCounter * first.batch : 0;
  return {
    method: "per-call" as const,
    sampling: {
      batch: first.batch,
      batchReason: first.batchReason,
      workers: o.workers.length,
      samplesPerWorker: o.workers.map((w) => w.samples.length),
      inputs: first.inputs,
      pinnedCpu: first.pinnedCpu,
      layouts: { padBytes: [...new Set(o.workerPadBytes)].sort((a, b) => a - b), workerPadBytes: o.workerPadBytes },
      target: {
        relativeHalfWidth: l.target,
        budgetMs: l.budgetMs,
        minWorkers: l.minWorkers,
        ...(o.contention ? { contendedBudgetMs: l.contendedBudgetMs } : {}),
        figure: o.cycles ? ("cycles" as const) : ("time" as const),
      },
      stoppedBy: o.stoppedBy,
      elapsedMs: o.elapsedMs,
      ...(o.contention ? { contendedMs: o.contendedMs } : {}),
      ...switchedOutField(o.workers),
      overheadShare: medianSample > 0 ? overhead / medianSample : 0,
    },
    samples: o.workers.map((w, i) => ({
      worker: i + 1,
      counterDeltas: w.samples,
      ...(w.switchedOut ? { switchedOut: w.switchedOut } : {}),
      ...(o.cycles && w.clockChain ? { clockDeltas: w.clockChain.deltas } : {}),
      ...(o.contention && w.throughputChain ? { throughputDeltas: w.throughputChain.deltas } : {}),
    })),
    distribution: o.cycles
      ? { ...o.distribution, cycles: o.cycles.distribution, coreClock: o.cycles.coreClock }
      : o.distribution,
    // The machine's between-run component, when the run was given one, widens the published intervals (the stop
    // rule above judged the within-run interval: what more sampling can narrow).
    central: withBetweenRunComponent(
      o.cycles ? { ...o.central, cycles: o.cycles.central } : o.central,
      campaign.timing.betweenRun,
    ),
    ...(o.contention ? { contention: o.contention } : {}),
  };
}
