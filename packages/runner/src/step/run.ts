// The one step runner. A step supplies its units (planned before the first job, so totals are known) and
// small per-unit functions; selection, shards, resume, failure records, progress and the summary are owned here.
import { existsSync, readFileSync } from "node:fs";
import { type AlgorithmKey, type InstanceKey, recordPath, type StoreEntry, unitName } from "@ngcc-perf/schema";
import { matchesAny } from "../instances.ts";
import { writeFileAtomic, writeJsonAtomic } from "../store.ts";
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

function readJson(path: string): unknown {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
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

export async function runStep<W>(step: StepDefinition<W>, options: StepOptions): Promise<StepSummary> {
  const units = selectUnits(await step.plan(), options);
  const progress = options.onProgress ?? (() => {});
  const summary = emptySummary();
  const total = units.reduce((n, u) => n + u.jobs.length, 0);
  summary.planned = total;
  progress({ type: "plan", step: step.name, total, units: units.length });
  let done = 0;
  const isCurrent = step.isCurrent ?? defaultCurrent;

  const runUnit = async (unit: Unit<W>) => {
    const k = unit.key;
    const instance = "instance" in k ? k.instance : "";
    const finished = new Set<Job>();
    const tell = (job: Job, status: "ok" | "failed" | "skipped", message?: string) => {
      finished.add(job);
      progress({
        type: "job",
        step: step.name,
        algorithmId: k.algorithmId,
        instance,
        profile: k.buildProfile,
        operation: job.operation,
        status,
        done: ++done,
        total,
        ...(message ? { message } : {}),
      });
    };
    const countFailure = (job: Job, f: { reason: string; message: string }) => {
      summary.failed++;
      summary.failures.push({
        algorithmId: k.algorithmId,
        instance,
        buildProfile: k.buildProfile,
        operation: job.operation,
        reason: f.reason,
        message: f.message,
      });
    };
    const ctx: UnitContext = {
      out: options.out,
      write(job, record) {
        if (!job.entry) throw new Error(`${step.name}: job ${job.operation} writes no record`);
        if (finished.has(job)) throw new Error(`${step.name}: ${job.operation} of ${unitName(k)} written twice`);
        writeJsonAtomic(recordPath(options.out, job.entry), record);
        const failed = step.outcomeOf(record);
        if (failed) {
          countFailure(job, failed);
          tell(job, "failed", failed.message);
        } else {
          summary.records++;
          tell(job, "ok");
        }
      },
      writeFile(entry, data) {
        writeFileAtomic(recordPath(options.out, entry), data);
      },
      failRest(failure) {
        for (const job of unit.jobs) {
          if (finished.has(job) || !pendingSet.has(job)) continue;
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
      built(cached) {
        progress({
          type: "build",
          step: step.name,
          algorithmId: k.algorithmId,
          instance,
          profile: k.buildProfile,
          cached,
        });
      },
    };
    // The gate first: a record that is current for its inputs no longer stands once its KAT fails.
    const gated = step.gate?.(unit) ?? null;
    const pending: Job[] = [];
    for (const job of unit.jobs) {
      const current =
        !gated && options.resume && job.entry !== null && isCurrent(readJson(recordPath(options.out, job.entry)), job);
      if (current) {
        summary.skipped++;
        tell(job, "skipped");
      } else pending.push(job);
    }
    const pendingSet = new Set(pending);
    if (pending.length === 0) return;
    if (gated) {
      ctx.failRest(gated);
      return;
    }
    try {
      await step.run(unit, pending, ctx);
    } catch (err) {
      const failure = step.failureOf?.(err) ?? null;
      if (!failure) throw err;
      ctx.failRest(failure);
    }
    const missing = pending.filter((j) => !finished.has(j));
    if (missing.length > 0) {
      throw new Error(
        `${step.name}: ${unitName(k)} ended without a record for ${missing.map((j) => j.operation).join(", ")}`,
      );
    }
  };

  const jobs = Math.max(1, Math.min(step.concurrency ?? 1, units.length));
  let next = 0;
  const worker = async () => {
    while (next < units.length) await runUnit(units[next++] as Unit<W>);
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return summary;
}
