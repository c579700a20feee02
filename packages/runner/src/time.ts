// The time step: for every instance × build profile × operation, a timing record with its raw trials,
// aggregates and memory figures, or a failure record. The campaign goes on after a failure.
import {
  cyclesPerInstructionCheck,
  type InstanceKey,
  type InstructionsRecord,
  recordPath,
  type TimingRecord,
} from "@ngcc-perf/schema";
import { type BuiltInstance, type Command, elfLoadSize } from "./build.ts";
import type { Campaign, CounterKind } from "./campaign.ts";
import {
  type DriverCounter,
  DriverError,
  type DriverInfo,
  type DriverSample,
  type DriverTime,
  driverRun,
  infoAndCheck,
} from "./driver.ts";
import { operationsOf } from "./instances.ts";
import { type OpSampling, perCallChecks, perCallFields, samplePerCall, workerTrials } from "./per-call.ts";
import { checkRssOutput, checkTimeOutput, type RssMemory, recordPlausibility, trialChecks } from "./plausibility.ts";
import { commandOf } from "./proc.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import type { CentralDecision } from "./samples.ts";
import { aggregate } from "./stats.ts";
import {
  type BuiltWithFacts,
  buildWithFacts,
  type InstanceWork,
  type MeasureEnv,
  type Measurement,
  type MeasurementOptions,
  type MeasureOutput,
  runMeasurement,
} from "./step/measurement.ts";
import type { Job, Unit } from "./step/run.ts";
import { readJsonOrNull } from "./store.ts";
import { emulated } from "./target.ts";
import { type DecideCentral, decideCentral } from "./time-campaign.ts";

/** The time step's options: a measurement's (requireKatPass: the guide's functional testing first). */
export type TimeOptions = MeasurementOptions;

/** The counter to ask the driver for: the campaign's choice, else the best the machine has. */
export function chooseCounter(campaign: Campaign, available: readonly string[]): CounterKind {
  if (campaign.counter.kind !== "auto") return campaign.counter.kind;
  for (const k of ["perf-cycles", "rdtsc", "cntvct"] as const) if (available.includes(k)) return k;
  return "clock_gettime";
}

/** The driver's `time` arguments for an operation under the campaign's calibration (also used by the profiler). */
export function driverTimeArgs(campaign: Campaign, op: string, counter: CounterKind): string[] {
  const t = campaign.timing;
  return [
    "time",
    "--op",
    op,
    "--counter",
    counter,
    "--trials",
    String(t.trials),
    "--min-iterations",
    String(t.minIterations),
    "--max-iterations",
    String(t.maxIterations),
    "--target-ns",
    String(Math.round(t.targetTrialNs)),
    "--warmup-ns",
    String(Math.round(t.warmupNs)),
    "--msg-bytes",
    String(t.messageBytes),
    ...(t.pinCpu !== null ? ["--pin", String(t.pinCpu)] : []),
    ...(counter === "fixed-clock" && campaign.counter.fixedClockHz
      ? ["--fixed-clock-hz", String(campaign.counter.fixedClockHz)]
      : []),
  ];
}

function statisticBy(d: CentralDecision | undefined): string | null {
  if (!d) return null;
  return d.by === "instructions" ? (d.inputDependent ? "mean" : "median") : "distribution";
}

/** What the time step of an emulated campaign says for each instance it checked and did not time. */
export const EMULATED_NOT_TIMED =
  "emulated — not a timing: the build passed its functional check under the emulator; nothing is timed";

/**
 * The time step: KAT-gated in the pipeline; env.prepared decides each operation's statistic (decideCentral, which
 * counts the reference profiles' instructions first), undefined for the trials method.
 */
export const timeMeasurement: Measurement<DecideCentral | undefined, BuiltWithFacts> = {
  name: "time",
  kind: "timing",
  katGate: true,
  prepare: (campaign, options) => decideCentral(campaign, options),
  inputs: ({ campaign, options, prepared: decide }, spec, _profile, op) => ({
    operation: op,
    counter: campaign.counter,
    timing: campaign.timing,
    quick: !!options.quick,
    // What decides the statistic, not its evidence: a recount with the same outcome keeps the record.
    ...(decide ? { statisticBy: statisticBy(decide(spec, op)) } : {}),
  }),
  build: buildWithFacts,
  failureFields: (_env, built) => ({ build: built.facts }),
  measureAll: timeUnit,
};

/** The time step on its own: the statistic decided first (decideCentral), then every instance timed. */
export const timeCampaign = (campaign: ResolvedCampaign, options: MeasurementOptions) =>
  runMeasurement(timeMeasurement, campaign, options);

/** One instance under one profile, built: a functional check, then every pending operation timed (per call or by trials). */
async function timeUnit(
  env: MeasureEnv<DecideCentral | undefined>,
  unit: Unit<InstanceWork>,
  built: BuiltWithFacts,
  pending: Job[],
  out: MeasureOutput,
): Promise<void> {
  const { campaign, options, prepared: decide } = env;
  const { spec } = unit.work;
  const build = built.facts;
  // API figures and the counters this machine offers; then a functional check before any timing.
  let info: DriverInfo;
  try {
    info = await infoAndCheck(built.driver, campaign, spec.instance);
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    out.failRest({ reason: err.reason, message: err.message, extra: { build, commands: [commandOf(err.result)] } });
    return;
  }
  // Under an emulator the functional check above ran as the target's; nothing is timed (no timing figure is
  // ever published from emulation): the jobs end without records, the pages say "emulated — not a timing".
  if (emulated(campaign.target)) {
    out.note([EMULATED_NOT_TIMED]);
    for (const job of pending) out.done(job, "skipped");
    return;
  }
  const counter = chooseCounter(campaign, info.counters);
  const passes = info.sizes.passes ?? 1;
  const measured = new Set(operationsOf(spec.category, passes));
  for (const job of pending.filter((j) => !measured.has(j.operation))) {
    out.fail(job, {
      reason: "error",
      message: `${job.operation}: the built instance has ${passes} pass(es), its api.h said otherwise`,
    });
  }
  const timed = pending.filter((j) => measured.has(j.operation));
  const m: Measured = {
    campaign,
    store: env.out,
    out,
    unit,
    built,
    build,
    counter,
    elfImageBytes: elfLoadSize(built.sharedObject),
  };
  // perf_event counts carry no time, so per-call nanoseconds cannot be had from them: those counters are
  // read by the trials method (every trial has its CLOCK_MONOTONIC time), and the record says trials.
  if (campaign.timing.method === "trials" || counter === "perf-cycles" || counter === "perf-instructions") {
    for (const job of timed) await timeOperation(m, job);
    return;
  }
  const byOp = new Map(timed.map((j) => [j.operation, j]));
  await samplePerCall(
    campaign,
    built,
    spec.instance,
    [...byOp.keys()],
    counter,
    !!options.quick,
    (o) => perCallRecord(m, byOp.get(o.operation) as Job, o, !!options.quick),
    (op) => decide?.(spec, op),
  );
}

/** What every timed operation of a built instance shares. */
interface Measured {
  campaign: Campaign;
  /** The store. */
  store: string;
  /** Where records are written. */
  out: MeasureOutput;
  unit: Unit<InstanceWork>;
  built: BuiltInstance;
  build: BuiltWithFacts["facts"];
  counter: CounterKind;
  elfImageBytes: number;
}

/**
 * Baseline and peak RSS of one operation (the seeds' proxies), in a fresh process of the timed executable; the
 * stack and heap high-water are the memory step's (memory.ts), so this run skips them (--measure rss).
 */
async function memoryOf(m: Measured, op: string) {
  const mem = await driverRun<RssMemory>(
    m.campaign.context,
    m.built.driver,
    ["memory", "--op", op, "--measure", "rss", "--msg-bytes", String(m.campaign.timing.messageBytes)],
    m.campaign.timeouts.operationMs,
    `${m.unit.work.spec.instance} ${op}: memory`,
    "driver-memory",
    checkRssOutput,
  );
  const memory = {
    elfImageBytes: m.elfImageBytes,
    baselineRssKiB: mem.value.baselineRssKiB,
    peakRssKiB: mem.value.peakRssKiB,
  };
  return { memory, command: commandOf(mem.result) };
}

function counterFields(c: DriverCounter) {
  return {
    kind: c.kind,
    unit: c.unit,
    rateHz: c.rateHz,
    overhead: c.overhead,
    ...(c.serialization ? { serialization: c.serialization } : {}),
    ...(c.description ? { description: c.description } : {}),
  };
}

function signatureLengths(sig: { min: number; max: number; sum: number; count: number } | undefined) {
  return sig && sig.count > 0
    ? { lengths: { signatureBytes: { min: sig.min, max: sig.max, mean: sig.sum / sig.count, samples: sig.count } } }
    : {};
}

/** Writes the failure record of an operation whose driver run failed. */
function driverFailure(m: Measured, job: Job, err: DriverError, commands: Command[]): void {
  m.out.fail(job, { reason: err.reason, message: err.message, extra: { commands } });
}

/**
 * A record with its cross-checks (plausibility.ts): the runner's, and cycles per instruction against the
 * instructions record of the same operation when the store already holds one (the report checks it again with
 * whatever the store holds when the page is made).
 */
function withPlausibility(m: Measured, record: TimingRecord, checks: ReturnType<typeof trialChecks>): TimingRecord {
  const key = { ...(m.unit.key as InstanceKey), operation: record.operation };
  // An unreadable record is the validator's to report, not a timing figure's.
  const counted = readJsonOrNull<InstructionsRecord>(recordPath(m.store, { kind: "instructions", key })) ?? undefined;
  return { ...record, plausibility: recordPlausibility(checks, cyclesPerInstructionCheck(record, counted)) };
}

/** The record of an operation sampled per call (the default method). */
async function perCallRecord(m: Measured, job: Job, o: OpSampling, quick: boolean): Promise<void> {
  if (o.failure) return driverFailure(m, job, o.failure, o.commands);
  const first = o.workers[0] as DriverSample;
  const spec = m.unit.work.spec;
  try {
    const { memory, command } = await memoryOf(m, job.operation);
    const trials = workerTrials(o);
    const sig = o.workers.flatMap((w) => (w.lengths?.signatureBytes ? [w.lengths.signatureBytes] : []));
    const record = m.out.compose(job, {
      build: m.build,
      counter: counterFields(first.counter),
      ...(spec.category === "sign" ? { messageBytes: m.campaign.timing.messageBytes } : {}),
      ...perCallFields(m.campaign, o, quick),
      trials,
      aggregates: aggregate(trials, m.campaign.timing.unstableThreshold),
      memory,
      ...signatureLengths(
        sig.length > 0
          ? {
              min: Math.min(...sig.map((x) => x.min)),
              max: Math.max(...sig.map((x) => x.max)),
              sum: sig.reduce((a, x) => a + x.sum, 0),
              count: sig.reduce((a, x) => a + x.count, 0),
            }
          : undefined,
      ),
      commands: [...o.commands, command],
    }) as TimingRecord;
    m.out.write(job, withPlausibility(m, record, perCallChecks(o)));
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    return driverFailure(m, job, err, [...o.commands, commandOf(err.result)]);
  }
}

/** The record of an operation timed by the seed pages' method: trials × calibrated iterations. */
async function timeOperation(m: Measured, job: Job): Promise<void> {
  const { campaign, built } = m;
  const spec = m.unit.work.spec;
  const op = job.operation;
  const commands: Command[] = [];
  try {
    const args = driverTimeArgs(campaign, op, m.counter);
    const timed = await driverRun<DriverTime>(
      campaign.context,
      built.driver,
      args,
      campaign.timeouts.operationMs,
      `${spec.instance} ${op}: time`,
      "driver-time",
      checkTimeOutput,
    );
    commands.push(commandOf(timed.result));
    const { memory, command } = await memoryOf(m, op);
    commands.push(command);
    const t = timed.value;
    const record = m.out.compose(job, {
      build: m.build,
      counter: counterFields(t.counter),
      ...(spec.category === "sign" ? { messageBytes: campaign.timing.messageBytes } : {}),
      method: "trials",
      calibration: {
        targetTrialNs: campaign.timing.targetTrialNs,
        warmupIterations: t.warmupIterations,
        minIterations: campaign.timing.minIterations,
        ...(t.calibration
          ? {
              maxIterations: t.calibration.maxIterations,
              warmupNs: t.calibration.warmupNs,
              estimateNs: t.calibration.estimateNs,
              limitedBy: t.calibration.limitedBy,
            }
          : {}),
      },
      trials: t.trials,
      aggregates: aggregate(t.trials, campaign.timing.unstableThreshold),
      memory,
      ...signatureLengths(t.lengths?.signatureBytes),
      commands,
    }) as TimingRecord;
    m.out.write(job, withPlausibility(m, record, trialChecks(t, args, timed.result.durationMs)));
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    return driverFailure(m, job, err, [...commands, commandOf(err.result)]);
  }
}
