// What every pipeline step (build+time, kat, profile, sizes) shares: options, progress events, the
// summary it returns, and the deterministic shard split of its jobs.
import { createHash } from "node:crypto";

export type StepName = "build" | "time" | "kat" | "profile" | "sizes" | "report";

export interface Shard {
  /** 1-based shard number. */
  index: number;
  count: number;
}

export type ProgressEvent =
  | { type: "plan"; step: StepName; total: number }
  | { type: "build"; step: StepName; algorithmId: string; instance: string; profile: string; cached: boolean }
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
    };

export interface StepOptions {
  /** The store's root folder (records go to <out>/data/<system>/). */
  out: string;
  /** Globs over "<algorithm-id>/<instance>", the instance or the algorithm id. */
  only?: string[];
  /** Skip jobs whose record exists for identical inputs. */
  resume?: boolean;
  /** Only this shard's jobs (a job is an instance × build profile). */
  shard?: Shard;
  onProgress?: (e: ProgressEvent) => void;
}

export interface StepFailure {
  algorithmId: string;
  instance: string;
  operation?: string;
  reason: string;
  message: string;
}

export interface StepSummary {
  records: number;
  failed: number;
  skipped: number;
  failures: StepFailure[];
}

export function emptySummary(): StepSummary {
  return { records: 0, failed: 0, skipped: 0, failures: [] };
}

/** Parses "K/N" (1 ≤ K ≤ N). */
export function parseShard(text: string): Shard | null {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : null;
}

/**
 * Whether a job unit (an instance under one build profile: "<algorithm-id>/<instance>/<profile>")
 * belongs to a shard. The split depends on the key alone, so every host computes the same one.
 */
export function inShard(unitKey: string, shard?: Shard): boolean {
  if (!shard || shard.count === 1) return true;
  const h = createHash("sha256").update(unitKey).digest().readUInt32BE(0);
  return (h % shard.count) + 1 === shard.index;
}
