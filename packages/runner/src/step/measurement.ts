// One measurement over an instance × build profile × operation, and the one step that runs every such
// measurement (instanceStep). A measurement says only what is its own: its name and record kind, when it is off,
// what it needs before the first job (prepare: a tool's version, a decision), its gates, the inputs its records
// depend on, how it builds and how it measures one operation (or all of a unit's operations at once). Planning,
// job hashes, the record header, failure records, outcomes, progress, resume, shards and the pipeline step are
// the same for every measurement and live here (docs/architecture.md, "Adding a measurement").
import { buildPath, type InstanceKey, type StoreEntry } from "@ngcc-perf/schema";
import {
  BuildError,
  type BuiltInstance,
  buildInputsHash,
  buildInstance,
  kexPasses,
  type Toolchain,
  toolchain,
} from "../build.ts";
import type { BuildProfile, Campaign } from "../campaign.ts";
import { DriverError } from "../driver.ts";
import { type InstanceSpec, operationsOf } from "../instances.ts";
import { katGate } from "../kat-gate.ts";
import { commandOf } from "../proc.ts";
import type { ResolvedCampaign } from "../resolved.ts";
import { sha256 } from "../store.ts";
import { emulated } from "../target.ts";
import { TOOL } from "../tool.ts";
import { cpuHasAvx512, valgrindRefusal } from "../valgrind.ts";
import type { PipelineStep, PipelineStepResult } from "./pipeline-step.ts";
import {
  type Failure,
  failedRecord,
  instanceNames,
  type Job,
  runStep,
  type StepDefinition,
  selectUnits,
  type Unit,
  type UnitContext,
} from "./run.ts";
import { emptySummary, type StepName, type StepOptions } from "./types.ts";

/** The options a measurement runs with: the step's, the KAT gate's and whether --steps named it. */
export interface MeasurementOptions extends StepOptions {
  /** Do not measure an instance whose KAT record says FAIL or ERROR (the pipeline sets it for KAT-gated steps). */
  requireKatPass?: boolean;
  /** Named in --steps: a measurement that is off in the campaign runs all the same. */
  asked?: boolean;
}

/** What a measurement's functions see: the campaign, its toolchain, the options and what prepare returned. */
export interface MeasureEnv<P> {
  campaign: ResolvedCampaign;
  tc: Toolchain;
  options: MeasurementOptions;
  /** The store's root. */
  out: string;
  prepared: P;
}

/** The work of an instance unit: the instance. */
export interface InstanceWork {
  spec: InstanceSpec;
}

/** The work of an algorithm unit: the algorithm's measured instances under the unit's build profile. */
export interface AlgorithmWork {
  algorithmId: string;
  specs: InstanceSpec[];
}

/**
 * A record per algorithm × build profile over the instances measured there (the profile step's survey): planned
 * right after the algorithm's instance units, over the instances --only chose.
 */
export interface PerAlgorithm<P> {
  /** The kind of its records; its job is named after it. */
  kind: StoreEntry["kind"];
  /** What its record depends on: the job's inputs hash is of this. */
  inputs(env: MeasureEnv<P>, algorithmId: string, profile: BuildProfile, specs: readonly InstanceSpec[]): object;
  /** Writes the unit's one record (or its failure) through ctx. */
  run(env: MeasureEnv<P>, unit: Unit<AlgorithmWork>, job: Job, ctx: UnitContext): Promise<void>;
}

/** A failure a measurement reports itself, with the fields its failure record carries (commands run so far). */
export class MeasureError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/** Where a measurement that measures all of a unit's operations at once writes: records, failures, skips. */
export interface MeasureOutput extends UnitContext {
  /** The record of a measured job: header, status ok, inputs hash, then the body. */
  compose(job: Job, body: object): Record<string, unknown>;
  /** Writes compose(job, body). */
  record(job: Job, body: object): void;
  /** Writes the job's failure record, with the measurement's failure fields of the build. */
  fail(job: Job, failure: Failure): void;
}

export interface Measurement<P = undefined, B = BuiltInstance> {
  name: StepName;
  /** The kind of its records (null: the build step, which writes none). */
  kind: StoreEntry["kind"] | null;
  /** Off in a campaign unless --steps names it (absent: always on). */
  enabled?(campaign: Campaign): boolean;
  /** What it needs before planning (a tool's version; throws InputError when missing); handed on as env.prepared. */
  prepare?(campaign: ResolvedCampaign, options: MeasurementOptions): Promise<P>;
  /** Checks its own input (a notes file) before the pipeline writes anything (throws InputError). */
  check?(campaign: ResolvedCampaign): void;
  /** Gated by the instance's KAT when the pipeline asks (requireKatPass). */
  katGate?: boolean;
  /** Runs under valgrind: not on an emulated campaign, nor on flags valgrind cannot decode. */
  valgrind?: { doing: string; refused: string };
  /**
   * One record per instance × build profile, keyed without an operation (its one job is named after the
   * measurement); default: one per operation.
   */
  perInstance?: boolean;
  /** The operations of an instance (default: its category's, a key exchange's pass2 when api.h has two passes). */
  operations?(env: MeasureEnv<P>, spec: InstanceSpec): Promise<string[]>;
  /** What a job's record depends on beside the build; the inputs hash is of both (absent: the build's alone). */
  inputs?(env: MeasureEnv<P>, spec: InstanceSpec, profile: BuildProfile, operation: string): object;
  /** Whether a planned unit is measured at all (a campaign setting naming instances). */
  select?(env: MeasureEnv<P>, unit: Unit<InstanceWork>): boolean;
  /** Jobs that this process has already measured (skipped, not counted again). */
  alreadyDone?(env: MeasureEnv<P>, job: Job): boolean;
  /** Builds what it runs; `cached` for the progress line. Absent: measureAll builds (the build step). */
  build?(env: MeasureEnv<P>, unit: Unit<InstanceWork>): Promise<B & { cached: boolean }>;
  /** Fields of a failure record once the build is done (the build facts). */
  failureFields?(env: MeasureEnv<P>, built: B): object;
  /** Measures one operation: the body of its record (throws DriverError or MeasureError for a measured failure). */
  measure?(env: MeasureEnv<P>, unit: Unit<InstanceWork>, built: B, job: Job): Promise<object>;
  /** Measures all the pending operations of a unit at once, writing through out. */
  measureAll?(env: MeasureEnv<P>, unit: Unit<InstanceWork>, built: B, jobs: Job[], out: MeasureOutput): Promise<void>;
  /** The failure an ok record still reports (a profiled build that did not reproduce the KAT), or null. */
  recordFailure?(record: unknown): { reason: string; message: string } | null;
  /** A record per algorithm × build profile besides the instances' (absent: none). */
  perAlgorithm?: PerAlgorithm<P>;
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

/** The unit's instance built under its profile into the unit's build folder (cached by every input). */
export function buildUnit(env: MeasureEnv<unknown>, unit: Unit<InstanceWork>): Promise<BuiltInstance> {
  const { campaign, tc, out } = env;
  return buildInstance(unit.work.spec, unit.profile, tc, buildPath(out, unit.key), campaign.timeouts.buildMs);
}

/** A build with the facts its records carry. */
export type BuiltWithFacts = BuiltInstance & { facts: ReturnType<typeof buildFacts> };

/** buildUnit, with the build facts its records carry. */
export async function buildWithFacts(env: MeasureEnv<unknown>, unit: Unit<InstanceWork>): Promise<BuiltWithFacts> {
  const built = await buildUnit(env, unit);
  return { ...built, facts: buildFacts(env.campaign, env.tc, unit.profile, built) };
}

/** Known failures of building and running an instance; anything else is an internal error. */
export function buildOrDriverFailure(err: unknown): Failure | null {
  if (err instanceof MeasureError) return err.failure;
  if (err instanceof BuildError)
    return { reason: "compile-error", message: err.message, extra: { commands: err.commands } };
  if (err instanceof DriverError)
    return { reason: err.reason, message: err.message, extra: { commands: [commandOf(err.result)] } };
  return null;
}

/** The operations an instance is measured on; a key exchange's pass2 only when its api.h has two passes. */
export async function plannedOperations(spec: InstanceSpec, tc: Toolchain, timeoutMs: number): Promise<string[]> {
  return operationsOf(spec.category, spec.category === "kex" ? await kexPasses(spec, tc, timeoutMs) : 1);
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
        const key = { system: campaign.system, algorithmId: spec.algorithmId, instance: spec.instance };
        const k = { ...key, buildProfile: profile.name };
        units.push({
          key: k,
          profile,
          names: instanceNames(spec.algorithmId, spec.instance),
          jobs: ops.map((op) => jobOf(spec, profile, op, k)),
          work: work(spec),
        });
      }
    }
  }
  return units;
}

/**
 * The header every record of a measurement starts with: kind, schema version, provenance and identity (the
 * operation's name unless op is null: a record of the whole instance).
 */
export function recordHeader(kind: string, campaign: Campaign, spec: InstanceSpec, profile: string, op: string | null) {
  return {
    kind,
    schemaVersion: 1 as const,
    provenance: { origin: "measured" as const, tool: TOOL, createdAt: new Date().toISOString() },
    system: campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    implementation: spec.implementation,
    buildProfile: profile,
    ...(op === null ? {} : { operation: op }),
  };
}

/** The operation a job's record names: null for a record of the whole instance. */
const headerOperation = (m: { perInstance?: boolean }, job: Job) => (m.perInstance ? null : job.operation);

/** Why a unit is not measured under valgrind here, or null. */
function valgrindGate(campaign: Campaign, v: { doing: string; refused: string }, unit: Unit<unknown>) {
  // valgrind here runs the host's code only: an emulated campaign's programs are the target's.
  if (emulated(campaign.target)) {
    return {
      reason: "error",
      message: `not available: valgrind runs programs of this host's architecture only, and this campaign's programs run under the emulator ${campaign.target.emulator[0]}; ${v.doing} on a native host of the target`,
    };
  }
  const why = valgrindRefusal(unit.profile.cflags, cpuHasAvx512());
  return why ? { reason: "error", message: why.replace(/^not counted/, v.refused) } : null;
}

/** The writer a unit's measuring goes through: records composed from the header, failures with the build facts. */
function measureOutput<P, B>(
  m: Measurement<P, B>,
  env: MeasureEnv<P>,
  unit: Unit<InstanceWork>,
  built: B | undefined,
  ctx: UnitContext,
): MeasureOutput {
  const header = (job: Job) =>
    recordHeader(m.kind ?? m.name, env.campaign, unit.work.spec, unit.key.buildProfile, headerOperation(m, job));
  const fields = built !== undefined ? (m.failureFields?.(env, built) ?? {}) : {};
  const compose = (job: Job, body: object) => ({
    ...header(job),
    status: "ok",
    ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
    ...body,
  });
  return {
    ...ctx,
    compose,
    record: (job, body) => ctx.write(job, compose(job, body)),
    fail: (job, f) => ctx.write(job, failedRecord(header(job), job, { ...f, extra: { ...fields, ...f.extra } })),
  };
}

/** The unit's run: what was measured already, the notes, the build, then each operation or all at once. */
async function runInstanceUnit<P, B>(
  m: Measurement<P, B>,
  env: MeasureEnv<P>,
  unit: Unit<InstanceWork>,
  jobs: Job[],
  ctx: UnitContext,
): Promise<void> {
  const earlier = m.alreadyDone ? jobs.filter((j) => m.alreadyDone?.(env, j)) : [];
  for (const job of earlier) ctx.done(job, "skipped");
  const pending = jobs.filter((j) => !earlier.includes(j));
  if (pending.length === 0) return;
  ctx.note(unit.work.spec.notes ?? []); // what the build leaves out, before it (said even when it fails)
  const built = m.build ? await m.build(env, unit) : undefined;
  if (built) ctx.built(built.cached);
  const out = measureOutput(m, env, unit, built, ctx);
  if (m.measureAll) return m.measureAll(env, unit, built as B, pending, out);
  if (!m.measure) throw new Error(`${m.name}: a measurement needs measure or measureAll`);
  for (const job of pending) {
    try {
      out.record(job, await m.measure(env, unit, built as B, job));
    } catch (err) {
      const f = buildOrDriverFailure(err);
      if (!f) throw err;
      out.fail(job, f);
    }
  }
}

const isAlgorithmUnit = (u: Unit<InstanceWork | AlgorithmWork>): u is Unit<AlgorithmWork> => "specs" in u.work;

/** The per-algorithm units of one algorithm: one per build profile of its chosen instance units. */
function algorithmUnits<P>(
  env: MeasureEnv<P>,
  pa: PerAlgorithm<P>,
  algorithmId: string,
  chosen: ReadonlyArray<Unit<InstanceWork>>,
): Array<Unit<AlgorithmWork>> {
  const profiles = [...new Set(chosen.map((u) => u.profile))];
  return profiles.map((profile) => {
    const specs = chosen.filter((u) => u.profile === profile).map((u) => u.work.spec);
    const key = { system: env.campaign.system, algorithmId, buildProfile: profile.name };
    const inputsHash = sha256(JSON.stringify(pa.inputs(env, algorithmId, profile, specs)));
    return {
      key,
      profile,
      names: [algorithmId, ...specs.flatMap((s) => instanceNames(algorithmId, s.instance))],
      jobs: [{ operation: pa.kind, entry: { kind: pa.kind, key } as StoreEntry, inputsHash }],
      work: { algorithmId, specs },
    };
  });
}

/** Every unit of a measurement: per algorithm its instance units, then its per-algorithm units. */
async function planMeasurement<P, B>(
  m: Measurement<P, B>,
  env: MeasureEnv<P>,
  jobOf: (spec: InstanceSpec, profile: BuildProfile, op: string, key: InstanceKey) => Job,
  operations: (spec: InstanceSpec) => Promise<string[]>,
): Promise<Array<Unit<InstanceWork | AlgorithmWork>>> {
  const all = await instanceUnits(env.campaign, jobOf, operations, (spec) => ({ spec }));
  const units = m.select ? all.filter((u) => m.select?.(env, u)) : all;
  const pa = m.perAlgorithm;
  if (!pa) return units;
  const only = env.options.only;
  const chosen = selectUnits(units, { out: env.out, ...(only ? { only } : {}) });
  const ids = [...new Set(units.map((u) => u.key.algorithmId))];
  return ids.flatMap((id) => [
    ...units.filter((u) => u.key.algorithmId === id),
    ...algorithmUnits(
      env,
      pa,
      id,
      chosen.filter((u) => u.key.algorithmId === id),
    ),
  ]);
}

/** A written record's failure: status not ok, or what the measurement finds in an ok record; null for a success. */
function outcomeOf<P, B>(m: Measurement<P, B>, r: unknown): { reason: string; message: string } | null {
  const rec = r as { kind?: string; status?: string; failure?: { reason?: string; message?: string } };
  if (m.perAlgorithm && rec.kind === m.perAlgorithm.kind) return null; // a per-algorithm record has no failure form
  if (rec.status !== "ok") return { reason: rec.failure?.reason ?? "error", message: rec.failure?.message ?? "" };
  return m.recordFailure?.(r) ?? null;
}

/** A measurement as the runner's step definition over a campaign. */
export function defineMeasurement<P, B>(
  m: Measurement<P, B>,
  env: MeasureEnv<P>,
): StepDefinition<InstanceWork | AlgorithmWork> {
  const { campaign, tc } = env;
  const entry = (key: InstanceKey, op: string) =>
    m.kind === null ? null : m.perInstance ? { kind: m.kind, key } : { kind: m.kind, key: { ...key, operation: op } };
  const jobOf = (spec: InstanceSpec, profile: BuildProfile, op: string, key: InstanceKey): Job => {
    const build = buildInputsHash(spec, profile, tc);
    const inputs = m.inputs?.(env, spec, profile, op);
    const inputsHash = inputs ? sha256(JSON.stringify({ build, ...inputs })) : build;
    return { operation: op, entry: entry(key, op) as StoreEntry | null, inputsHash };
  };
  const operations = async (spec: InstanceSpec) =>
    m.perInstance
      ? [m.name]
      : m.operations
        ? m.operations(env, spec)
        : plannedOperations(spec, tc, campaign.timeouts.buildMs);
  const header = (unit: Unit<InstanceWork>, job: Job) =>
    recordHeader(m.kind ?? m.name, campaign, unit.work.spec, unit.key.buildProfile, headerOperation(m, job));
  return {
    name: m.name,
    plan: () => planMeasurement(m, env, jobOf, operations),
    gate: (unit) =>
      (m.katGate && env.options.requireKatPass && !isAlgorithmUnit(unit)
        ? katGate(env.out, unit.key as InstanceKey)
        : null) ?? (m.valgrind ? valgrindGate(campaign, m.valgrind, unit) : null),
    failureOf: buildOrDriverFailure,
    outcomeOf: (r) => outcomeOf(m, r),
    // On --resume a record stands when its inputs are the same and it reports no failure.
    isCurrent: (r, job) =>
      r !== null &&
      job.inputsHash !== null &&
      (r as { inputsHash?: string }).inputsHash === job.inputsHash &&
      outcomeOf(m, r) === null,
    failureRecord: (unit, job, f) => {
      if (isAlgorithmUnit(unit))
        throw new Error(`${m.name}: the ${job.operation} of ${unit.key.algorithmId} has no failure form`);
      return m.kind ? failedRecord(header(unit as Unit<InstanceWork>, job), job, f) : null;
    },
    run: async (unit, pending, ctx) => {
      if (!isAlgorithmUnit(unit)) return runInstanceUnit(m, env, unit as Unit<InstanceWork>, pending, ctx);
      for (const job of pending) await m.perAlgorithm?.run(env, unit, job, ctx);
    },
  };
}

/** Runs a measurement over a campaign: "off in this campaign" unless on or asked, then prepared, planned, run. */
export async function runMeasurement<P, B>(
  m: Measurement<P, B>,
  campaign: ResolvedCampaign,
  options: MeasurementOptions,
): Promise<PipelineStepResult> {
  if (m.enabled && !options.asked && !m.enabled(campaign)) {
    return { ...emptySummary(), notes: ["off in this campaign"] };
  }
  const prepared = (m.prepare ? await m.prepare(campaign, options) : undefined) as P;
  const env: MeasureEnv<P> = { campaign, tc: await toolchain(campaign.context), options, out: options.out, prepared };
  return runStep(defineMeasurement(m, env), options);
}

/** The pipeline's step of a measurement. */
export function instanceStep<P, B>(m: Measurement<P, B>): PipelineStep {
  return {
    name: m.name,
    ...(m.katGate ? { katGate: true } : {}),
    ...(m.check ? { prepare: m.check } : {}),
    run: (c, o) => runMeasurement(m, c, o),
  };
}
