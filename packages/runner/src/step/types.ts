// What every pipeline step shares: options, progress events, the summary it returns, and the deterministic
// shard split of its units.
import { createHash } from "node:crypto";

export type StepName =
  | "build"
  | "kat"
  | "time"
  | "memory"
  | "code-size"
  | "instructions"
  | "constant-time"
  | "profile"
  | "sizes"
  | "report";

export interface Shard {
  /** 1-based shard number. */
  index: number;
  count: number;
}

export type ProgressEvent =
  | { type: "plan"; step: StepName; total: number; units: number }
  | { type: "build"; step: StepName; algorithmId: string; instance: string; profile: string; cached: boolean }
  /** What a build left out and why (the submitter's randombytes.c); a printer says each note once per run. */
  | { type: "note"; step: StepName; algorithmId: string; instance: string; profile: string; notes: string[] }
  | {
      type: "job";
      step: StepName;
      algorithmId: string;
      instance: string;
      profile: string;
      operation: string;
      status: "ok" | "failed" | "skipped";
      done: number;
      total: number;
      message?: string;
      /** The record the job wrote (its figure goes on the progress line). */
      record?: unknown;
    };

export interface StepOptions {
  /** The store's root folder (records go to <out>/data/<system>/). */
  out: string;
  /** Globs over "<algorithm-id>/<instance>", the instance or the algorithm id. */
  only?: string[];
  /** Skip jobs whose record exists for identical inputs. */
  resume?: boolean;
  /** Only this shard's units (an instance × build profile, or an algorithm × build profile). */
  shard?: Shard;
  onProgress?: (e: ProgressEvent) => void;
  /** time: a smoke run — one short worker per operation, no precision target; its records say so. */
  quick?: boolean;
}

export interface StepFailure {
  algorithmId: string;
  instance: string;
  buildProfile?: string;
  operation?: string;
  reason: string;
  message: string;
}

export interface StepSummary {
  /** Jobs planned for this run (after selection and shard); records + failed + skipped, or fewer for failures. */
  planned: number;
  /** Records written that say the measurement succeeded. */
  records: number;
  /** Records written that say it failed (and builds that failed). */
  failed: number;
  /** Jobs whose record was current (--resume) or whose build was cached. */
  skipped: number;
  failures: StepFailure[];
}

export function emptySummary(): StepSummary {
  return { planned: 0, records: 0, failed: 0, skipped: 0, failures: [] };
}

/** The most parts a campaign is split into (--shard K/N): far more hosts than any cluster gives one campaign. */
export const MAX_SHARDS = 65536;

/**
 * Parses "K/N", whole numbers with 1 ≤ K ≤ N ≤ MAX_SHARDS; null for anything else (0/3, 4/3, 1/0, 1.5/3, a count
 * past the safe integers such as 1/99999999999999999999, which Number would round and accept).
 */
export function parseShard(text: string): Shard | null {
  const m = /^(\d{1,9})\/(\d{1,9})$/.exec(text.trim());
  if (!m) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && count <= MAX_SHARDS && index >= 1 && index <= count ? { index, count } : null;
}

/** Whether a unit (by its name, see unitName in @ngcc-perf/schema) belongs to a shard; the same on every host. */
export function inShard(unitKey: string, shard?: Shard): boolean {
  if (!shard || shard.count === 1) return true;
  const h = createHash("sha256").update(unitKey).digest().readUInt32BE(0);
  return (h % shard.count) + 1 === shard.index;
}
