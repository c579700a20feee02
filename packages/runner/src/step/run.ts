import { type AlgorithmKey, type InstanceKey, recordPath, type StoreEntry, unitName } from "@ngcc-perf/schema";
import type { BuildProfile } from "../campaign.ts";
import { matchesAny } from "../instances.ts";
import { readJsonOrNull, writeFileAtomic, writeJsonAtomic } from "../store.ts";
import { emptySummary, inShard, type StepName, type StepOptions, type StepSummary } from "./types.ts";

/** One record a step writes (or, for the build step, one build). */
export interface Job {
  /** What the progress line names: the operation, "kat", "sizes", "build". */
  operation: string;
  /** The record this job writes; null for a job that writes none (a build). */
  entry: StoreEntry | null;
  /** Hash of everything the record depends on: a current record with the same hash is skipped on --resume. */
  inputsHash: string | null;
}

export interface Unit<W> {
  /** An instance under a build profile, or an algorithm under a build profile; shards split by its name. */
  key: InstanceKey | AlgorithmKey;
  /** The build profile of the unit (the one its key names). */
  profile: BuildProfile;
  /** Names --only globs are matched against ("<alg>/<instance>", the instance, the algorithm id). */
  names: string[];
  jobs: Job[];
  work: W;
}

/** A measured failure: written as a failure record, counted, and the campaign goes on. */
export interface Failure {
  reason: string;
  message: string;
  /** Step-specific fields for the failure record (commands, build facts). */
  extra?: Record<string, unknown>;
}

/**
 * A step's failure record for a job: the record's base fields (kind, identity, provenance), status failed, the
 * reason and message, the job's inputs hash (so a resumed run knows what failed), and the step's extra fields.
 */
export function failedRecord<B extends object>(base: B, job: Job, f: Failure) {
  return {
    ...base,
    status: "failed" as const,
    failure: { reason: f.reason as "error", message: f.message },
    ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
    ...(f.extra ?? {}),
  };
}

export interface UnitContext {
  /** Writes the job's record (atomically, at its layout path) and counts it as ok or failed by outcomeOf. */
  write(job: Job, record: unknown): void;
  /** Writes a file that belongs to the store beside a record (a KAT log). */
  writeFile(entry: StoreEntry, data: string | Buffer): void;
  /** Writes failure records for the jobs of the unit that have none yet. */
  failRest(failure: Failure): void;
  /** A job that writes no record (a build) is done. */
  done(job: Job, status: "ok" | "failed" | "skipped", failure?: Failure): void;
  /** A build of the unit finished (progress only). */
  built(cached: boolean): void;
  /** Notes of a build (what it left out), for the console (progress only; none: nothing said). */
  note(notes: readonly string[]): void;
  /** The store root. */
  out: string;
}

export interface StepDefinition<W> {
  name: StepName;
  /** Every unit of the campaign, in order; selection and shards are applied by the runner. */
  plan(): Promise<Array<Unit<W>>> | Array<Unit<W>>;
  /** Runs the unit's pending jobs (those not current), writing each job's record through ctx. */
  run(unit: Unit<W>, pending: Job[], ctx: UnitContext): Promise<void>;
  /** The failure record of a job that did not run to a record of its own. */
  failureRecord(unit: Unit<W>, job: Job, failure: Failure): unknown;
  /** Whether a written record reports a failure (its reason and message), or null for a success. */
  outcomeOf(record: unknown): { reason: string; message: string } | null;
  /** Maps a known error thrown by run to a measured failure; anything else propagates as an internal error. */
  failureOf?(err: unknown): Failure | null;
  /** A reason not to run the unit at all (e.g. its KAT failed); every job then gets a failure record. */
  gate?(unit: Unit<W>): Failure | null;
  /** Whether a record on disk still stands for these inputs (default: same inputsHash, status "ok"). */
  isCurrent?(record: unknown, job: Job): boolean;
  /** Units run at once (default 1: timing must not share the machine with itself). */
  concurrency?: number;
}

function defaultCurrent(record: unknown, job: Job): boolean {
  const r = record as { inputsHash?: string; status?: string } | null;
  return !!r && r.status === "ok" && job.inputsHash !== null && r.inputsHash === job.inputsHash;
}

/** The units of a plan that this run takes: selected by --only and in this shard. */
export function selectUnits<W>(units: ReadonlyArray<Unit<W>>, options: StepOptions): Array<Unit<W>> {
  return units.filter(
    (u) =>
      (!options.only?.length || u.names.some((n) => matchesAny(n, options.only))) &&
      inShard(unitName(u.key), options.shard),
  );
}

/** The names --only matches for an instance. */
export function instanceNames(algorithmId: string, instance: string): string[] {
  return [`${algorithmId}/${instance}`, instance, algorithmId];
}

/** What the units of one step run share: the step, its options, the summary and the progress count. */
interface StepRun<W> {
  step: StepDefinition<W>;
  options: StepOptions;
  summary: StepSummary;
  total: number;
  done: number;
}

/** The context a unit's run writes through: records, failure records, progress and counts. */
function unitContext<W>(r: StepRun<W>, unit: Unit<W>, pending: ReadonlySet<Job>, finished: Set<Job>): UnitContext {
  const { step, options, summary } = r;
  const k = unit.key;
  const instance = "instance" in k ? k.instance : "";
  const at = { algorithmId: k.algorithmId, instance, profile: k.buildProfile };
  const tell = (job: Job, status: "ok" | "failed" | "skipped", message?: string, record?: unknown) => {
    finished.add(job);
    const e = { type: "job" as const, step: step.name, ...at, operation: job.operation, status };
    const extra = { ...(message ? { message } : {}), ...(record !== undefined ? { record } : {}) };
    options.onProgress?.({ ...e, done: ++r.done, total: r.total, ...extra });
  };
  const countFailure = (job: Job, f: { reason: string; message: string }) => {
    summary.failed++;
    const where = { algorithmId: k.algorithmId, instance, buildProfile: k.buildProfile, operation: job.operation };
    summary.failures.push({ ...where, reason: f.reason, message: f.message });
  };
  const ctx: UnitContext = {
    out: options.out,
    write(job, record) {
      if (!job.entry) throw new Error(`${step.name}: job ${job.operation} writes no record`);
      if (finished.has(job)) throw new Error(`${step.name}: ${job.operation} of ${unitName(k)} written twice`);
      writeJsonAtomic(recordPath(options.out, job.entry), record);
      const failed = step.outcomeOf(record);
      if (failed) countFailure(job, failed);
      else summary.records++;
      tell(job, failed ? "failed" : "ok", failed?.message, record);
    },
    writeFile: (entry, data) => writeFileAtomic(recordPath(options.out, entry), data),
    failRest(failure) {
      for (const job of unit.jobs.filter((j) => pending.has(j) && !finished.has(j))) {
        if (job.entry) ctx.write(job, step.failureRecord(unit, job, failure));
        else ctx.done(job, "failed", failure);
      }
    },
    done(job, status, failure) {
      if (status === "failed") countFailure(job, failure ?? { reason: "error", message: "failed" });
      else if (status === "skipped") summary.skipped++;
      else summary.records++;
      tell(job, status, failure?.message);
    },
    built: (cached) => options.onProgress?.({ type: "build", step: step.name, ...at, cached }),
    note: (notes) => {
      if (notes.length) options.onProgress?.({ type: "note", step: step.name, ...at, notes: [...notes] });
    },
  };
  return Object.assign(ctx, { tell });
}

/** One unit: the gate, resume, the step's run, known failures as failure records, and a check that all was written. */
async function runUnit<W>(r: StepRun<W>, unit: Unit<W>): Promise<void> {
  const { step, options } = r;
  const isCurrent = step.isCurrent ?? defaultCurrent;
  // The gate first: a record that is current for its inputs no longer stands once its KAT fails.
  const gated = step.gate?.(unit) ?? null;
  const current = (job: Job) =>
    !gated &&
    options.resume &&
    job.entry !== null &&
    isCurrent(readJsonOrNull(recordPath(options.out, job.entry)), job);
  const pending = unit.jobs.filter((j) => !current(j));
  const finished = new Set<Job>();
  const ctx = unitContext(r, unit, new Set(pending), finished) as UnitContext & {
    tell: (j: Job, s: "skipped") => void;
  };
  for (const job of unit.jobs.filter((j) => !pending.includes(j))) {
    r.summary.skipped++;
    ctx.tell(job, "skipped");
  }
  if (pending.length === 0) return;
  if (gated) return ctx.failRest(gated);
  try {
    await step.run(unit, pending, ctx);
  } catch (err) {
    const failure = step.failureOf?.(err) ?? null;
    if (!failure) throw err;
    ctx.failRest(failure);
  }
  const missing = pending.filter((j) => !finished.has(j));
  if (missing.length > 0) {
    const ops = missing.map((j) => j.operation).join(", ");
    throw new Error(`${step.name}: ${unitName(unit.key)} ended without a record for ${ops}`);
  }
}

export async function runStep<W>(step: StepDefinition<W>, options: StepOptions): Promise<StepSummary> {
  const units = selectUnits(await step.plan(), options);
  const total = units.reduce((n, u) => n + u.jobs.length, 0);
  const r: StepRun<W> = { step, options, summary: { ...emptySummary(), planned: total }, total, done: 0 };
  options.onProgress?.({ type: "plan", step: step.name, total, units: units.length });
  let next = 0;
  const worker = async () => {
    while (next < units.length) await runUnit(r, units[next++] as Unit<W>);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(step.concurrency ?? 1, units.length)) }, worker));
  return r.summary;
}
