// The time step: for every instance × build profile × operation, a timing record with its raw trials,
// aggregates and memory figures, or a failure record. The campaign goes on after a failure.
import { existsSync, readFileSync } from "node:fs";
import {
  buildPath,
  cyclesPerInstructionCheck,
  type InstanceKey,
  type InstructionsRecord,
  recordPath,
  type TimingRecord,
} from "@ngcc-perf/schema";
import {
  BuildError,
  type BuiltInstance,
  buildInputsHash,
  buildInstance,
  type Command,
  elfLoadSize,
  kexPasses,
  type Toolchain,
} from "./build.ts";
import type { BuildProfile, Campaign, CounterKind } from "./campaign.ts";
import {
  type DriverCounter,
  DriverError,
  type DriverInfo,
  type DriverSample,
  type DriverTime,
  driverRun,
  infoAndCheck,
} from "./driver.ts";
import { type InstanceSpec, operationsOf } from "./instances.ts";
import { type OpSampling, perCallChecks, perCallFields, samplePerCall, workerTrials } from "./per-call.ts";
import { checkRssOutput, checkTimeOutput, type RssMemory, recordPlausibility, trialChecks } from "./plausibility.ts";
import { commandOf } from "./proc.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import type { CentralDecision } from "./samples.ts";
import { aggregate } from "./stats.ts";
import {
  type Failure,
  failedRecord,
  instanceNames,
  type Job,
  type StepDefinition,
  type Unit,
  type UnitContext,
} from "./step/run.ts";
import type { StepOptions } from "./step/types.ts";
import { sha256 } from "./store.ts";
import { emulated } from "./target.ts";
import { TOOL } from "./tool.ts";

export interface TimeOptions extends StepOptions {
  /** Do not time an instance whose KAT record says FAIL or ERROR (the guide's functional testing first). */
  requireKatPass?: boolean;
}

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

/** The operations an instance is measured on; a key exchange's pass2 only when its api.h has two passes. */
export async function plannedOperations(spec: InstanceSpec, tc: Toolchain, timeoutMs: number): Promise<string[]> {
  return operationsOf(spec.category, spec.category === "kex" ? await kexPasses(spec, tc, timeoutMs) : 1);
}

/** What the gate reads of a KAT record. */
interface KatGist {
  verdict?: string;
  outcome?: string;
  corruption?: Array<{ file?: string; line?: number; message?: string }>;
  diagnosis?: { firstCount?: number; field?: string };
  error?: { reason?: string; message?: string };
  log?: { path?: string };
}

function readKat(out: string, key: InstanceKey): KatGist | null {
  const path = recordPath(out, { kind: "kat", key });
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as KatGist;
  } catch {
    return null;
  }
}

/** The KAT verdict of an instance under a profile, or null when it has none (KAT not run). */
export function katVerdict(out: string, key: InstanceKey): string | null {
  return readKat(out, key)?.verdict ?? null;
}

/** Why a KAT did not pass, blaming what the record blames: the submission's KAT file or the implementation. */
function katCause(k: KatGist): string {
  const cut = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").slice(0, 160);
  if (k.outcome === "corrupt-kat") {
    const p = k.corruption?.[0];
    const at = p ? ` (${p.file ?? "?"}${p.line ? `:${p.line}` : ""}: ${cut(p.message)})` : "";
    return `the submitted KAT file is corrupt${at}: the submission's fault, not the implementation's`;
  }
  if (k.outcome === "output-differs" && !k.diagnosis && k.error?.message) {
    // No diagnosis: the generator's forms disagreed with each other (tampered or inconsistent output).
    return cut(k.error.message);
  }
  if (k.outcome === "output-differs") {
    const d = k.diagnosis;
    const at =
      d?.firstCount !== undefined ? ` (first at count ${d.firstCount}${d.field ? `, field ${d.field}` : ""})` : "";
    return `the implementation's output differs from its KAT${at}`;
  }
  if (k.outcome === "no-expected-kat") return "there is nothing to compare its KAT output with";
  return k.error ? `${k.error.reason ?? "error"}: ${cut(k.error.message)}` : "its KAT could not be verified";
}

/** The failure that keeps an instance from being timed or profiled: a KAT verdict other than PASS, and why. */
export function katGate(out: string, key: InstanceKey): Failure | null {
  const k = readKat(out, key);
  const verdict = k?.verdict ?? null;
  if (!k || verdict === null || verdict === "PASS") return null;
  const log = k.log?.path ? `the KAT log ${k.log.path}` : "the KAT log";
  return { reason: "kat-failed", message: `not measured: its KAT verdict is ${verdict} — ${katCause(k)} (see ${log})` };
}

/** Known failures of building and running an instance; anything else is an internal error. */
export function buildOrDriverFailure(err: unknown): Failure | null {
  if (err instanceof BuildError)
    return { reason: "compile-error", message: err.message, extra: { commands: err.commands } };
  if (err instanceof DriverError)
    return { reason: err.reason, message: err.message, extra: { commands: [commandOf(err.result)] } };
  return null;
}

interface TimeWork {
  spec: InstanceSpec;
}

/** The build facts a record carries. */
export function buildFacts(campaign: Campaign, tc: Toolchain, profile: BuildProfile, built: BuiltInstance) {
  return {
    compiler: campaign.cc,
    compilerVersion: tc.version,
    flags: built.flags,
    ...(built.defines.length ? { defines: built.defines } : {}),
    ...(profile.ldflags.length ? { ldflags: profile.ldflags } : {}),
    sourcesSha256: built.inputsHash,
    artifact: built.driver,
    linkage: built.linkage,
  };
}

function baseRecord(campaign: Campaign, spec: InstanceSpec, profile: string, operation: string) {
  return {
    kind: "timing" as const,
    schemaVersion: 1 as const,
    provenance: { origin: "measured" as const, tool: TOOL, createdAt: new Date().toISOString() },
    system: campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    implementation: spec.implementation,
    buildProfile: profile,
    operation,
  };
}

/** Plans a unit per instance × build profile, a job per operation, each with the hash of its inputs. */
export async function instanceUnits<W>(
  campaign: ResolvedCampaign,
  jobOf: (spec: InstanceSpec, profile: BuildProfile, op: string, key: InstanceKey) => Job,
  operations: (spec: InstanceSpec) => Promise<string[]>,
  work: (spec: InstanceSpec) => W,
): Promise<Array<Unit<W>>> {
  const units: Array<Unit<W>> = [];
  for (const a of campaign.algorithms) {
    for (const spec of a.instances) {
      const ops = await operations(spec);
      for (const profile of spec.profiles) {
        const key = {
          system: campaign.system,
          algorithmId: spec.algorithmId,
          instance: spec.instance,
          buildProfile: profile.name,
        };
        units.push({
          key,
          profile,
          names: instanceNames(spec.algorithmId, spec.instance),
          jobs: ops.map((op) => jobOf(spec, profile, op, key)),
          work: work(spec),
        });
      }
    }
  }
  return units;
}

/** How an operation's statistic is decided when the campaign does not set it (time-campaign.ts), per instance. */
export type DecideCentral = (spec: InstanceSpec, operation: string) => CentralDecision | undefined;

function statisticBy(d: CentralDecision | undefined): string | null {
  if (!d) return null;
  return d.by === "instructions" ? (d.inputDependent ? "mean" : "median") : "distribution";
}

export function defineTime(
  campaign: ResolvedCampaign,
  tc: Toolchain,
  options: TimeOptions,
  decide?: DecideCentral,
): StepDefinition<TimeWork> {
  const out = options.out;
  const failureRecord = (unit: Unit<TimeWork>, job: Job, f: Failure): TimingRecord =>
    failedRecord(baseRecord(campaign, unit.work.spec, unit.key.buildProfile, job.operation), job, f);
  return {
    name: "time",
    plan: () =>
      instanceUnits(
        campaign,
        (spec, profile, op, key) => ({
          operation: op,
          entry: { kind: "timing", key: { ...key, operation: op } },
          inputsHash: sha256(
            JSON.stringify({
              build: buildInputsHash(spec, profile, tc),
              operation: op,
              counter: campaign.counter,
              timing: campaign.timing,
              quick: !!options.quick,
              // What decides the statistic, not its evidence: a recount with the same outcome keeps the record.
              ...(decide ? { statisticBy: statisticBy(decide(spec, op)) } : {}),
            }),
          ),
        }),
        (spec) => plannedOperations(spec, tc, campaign.timeouts.buildMs),
        (spec) => ({ spec }),
      ),
    gate: (unit) => (options.requireKatPass ? katGate(out, unit.key as InstanceKey) : null),
    failureOf: buildOrDriverFailure,
    outcomeOf: (r) => {
      const rec = r as TimingRecord;
      return rec.status === "ok"
        ? null
        : { reason: rec.failure?.reason ?? "error", message: rec.failure?.message ?? "" };
    },
    failureRecord,
    run: (unit, pending, ctx) => runTimeUnit({ campaign, tc, options, failureRecord, decide }, unit, pending, ctx),
  };
}

/** What the time step of an emulated campaign says for each instance it checked and did not time. */
export const EMULATED_NOT_TIMED =
  "emulated — not a timing: the build passed its functional check under the emulator; nothing is timed";

/** One instance under one profile: build, check, then every pending operation timed (per call or by trials). */
async function runTimeUnit(
  t: {
    campaign: Campaign;
    tc: Toolchain;
    options: TimeOptions;
    failureRecord: (unit: Unit<TimeWork>, job: Job, f: Failure) => TimingRecord;
    decide?: DecideCentral | undefined;
  },
  unit: Unit<TimeWork>,
  pending: Job[],
  ctx: UnitContext,
): Promise<void> {
  const { campaign, tc, options, failureRecord, decide } = t;
  const { spec } = unit.work;
  const { profile } = unit;
  ctx.note(spec.notes ?? []); // what the build leaves out, before it (said even when it fails)
  const built = await buildInstance(spec, profile, tc, buildPath(options.out, unit.key), campaign.timeouts.buildMs);
  ctx.built(built.cached);
  const build = buildFacts(campaign, tc, profile, built);
  // API figures and the counters this machine offers; then a functional check before any timing.
  let info: DriverInfo;
  try {
    info = await infoAndCheck(built.driver, campaign, spec.instance);
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    ctx.failRest({ reason: err.reason, message: err.message, extra: { build, commands: [commandOf(err.result)] } });
    return;
  }
  // Under an emulator the functional check above ran as the target's; nothing is timed (no timing figure is
  // ever published from emulation): the jobs end without records, the pages say "emulated — not a timing".
  if (emulated(campaign.target)) {
    ctx.note([EMULATED_NOT_TIMED]);
    for (const job of pending) ctx.done(job, "skipped");
    return;
  }
  const counter = chooseCounter(campaign, info.counters);
  const passes = info.sizes.passes ?? 1;
  const measured = new Set(operationsOf(spec.category, passes));
  for (const job of pending.filter((j) => !measured.has(j.operation))) {
    const message = `${job.operation}: the built instance has ${passes} pass(es), its api.h said otherwise`;
    ctx.write(job, failureRecord(unit, job, { reason: "error", message, extra: { build } }));
  }
  const timed = pending.filter((j) => measured.has(j.operation));
  const m: Measured = {
    campaign,
    out: options.out,
    unit,
    built,
    build,
    counter,
    elfImageBytes: elfLoadSize(built.sharedObject),
  };
  // perf_event counts carry no time, so per-call nanoseconds cannot be had from them: those counters are
  // read by the trials method (every trial has its CLOCK_MONOTONIC time), and the record says trials.
  if (campaign.timing.method === "trials" || counter === "perf-cycles" || counter === "perf-instructions") {
    for (const job of timed) ctx.write(job, await timeOperation(m, job));
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
    async (o) => {
      const job = byOp.get(o.operation) as Job;
      ctx.write(job, await perCallRecord(m, job, o, !!options.quick));
    },
    (op) => decide?.(spec, op),
  );
}

/** What every timed operation of a built instance shares. */
interface Measured {
  campaign: Campaign;
  /** The store. */
  out: string;
  unit: Unit<TimeWork>;
  built: BuiltInstance;
  build: ReturnType<typeof buildFacts>;
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

/** The failure record of an operation whose driver run failed. */
function driverFailure(m: Measured, job: Job, err: DriverError, commands: Command[]): TimingRecord {
  return {
    ...baseRecord(m.campaign, m.unit.work.spec, m.unit.key.buildProfile, job.operation),
    status: "failed",
    failure: { reason: err.reason as "error", message: err.message },
    ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
    build: m.build,
    commands,
  };
}

/**
 * A record with its cross-checks (plausibility.ts): the runner's, and cycles per instruction against the
 * instructions record of the same operation when the store already holds one (the report checks it again with
 * whatever the store holds when the page is made).
 */
function withPlausibility(m: Measured, record: TimingRecord, checks: ReturnType<typeof trialChecks>): TimingRecord {
  const key = { ...(m.unit.key as InstanceKey), operation: record.operation };
  let counted: InstructionsRecord | undefined;
  try {
    const path = recordPath(m.out, { kind: "instructions", key });
    if (existsSync(path)) counted = JSON.parse(readFileSync(path, "utf8")) as InstructionsRecord;
  } catch {
    counted = undefined; // an unreadable record is the validator's to report, not a timing figure's
  }
  return { ...record, plausibility: recordPlausibility(checks, cyclesPerInstructionCheck(record, counted)) };
}

/** The record of an operation sampled per call (the default method). */
async function perCallRecord(m: Measured, job: Job, o: OpSampling, quick: boolean): Promise<TimingRecord> {
  if (o.failure) return driverFailure(m, job, o.failure, o.commands);
  const first = o.workers[0] as DriverSample;
  const spec = m.unit.work.spec;
  try {
    const { memory, command } = await memoryOf(m, job.operation);
    const trials = workerTrials(o);
    const sig = o.workers.flatMap((w) => (w.lengths?.signatureBytes ? [w.lengths.signatureBytes] : []));
    const record: TimingRecord = {
      ...baseRecord(m.campaign, spec, m.unit.key.buildProfile, job.operation),
      status: "ok",
      ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
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
    };
    return withPlausibility(m, record, perCallChecks(o));
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    return driverFailure(m, job, err, [...o.commands, commandOf(err.result)]);
  }
}

/** The record of an operation timed by the seed pages' method: trials × calibrated iterations. */
async function timeOperation(m: Measured, job: Job): Promise<TimingRecord> {
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
    const record: TimingRecord = {
      ...baseRecord(campaign, spec, m.unit.key.buildProfile, op),
      status: "ok",
      ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
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
    };
    return withPlausibility(m, record, trialChecks(t, args, timed.result.durationMs));
  } catch (err) {
    if (!(err instanceof DriverError)) throw err;
    return driverFailure(m, job, err, [...commands, commandOf(err.result)]);
  }
}
