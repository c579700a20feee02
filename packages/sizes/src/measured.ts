// Measured output lengths: what the KAT and timing steps saw under one build profile, read from their records
// in the store (paths from the layout of @ngcc-perf/schema). Each figure keeps the records it came from; the combined distribution takes the smallest minimum, the largest
// maximum and the mean weighted by the number of outputs.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { operationsOf } from "@ngcc-perf/runner";
import { type InstanceKey, recordPath, relativeRecordPath, type StoreEntry } from "@ngcc-perf/schema";

export const MEASURED_FIELDS = ["publicKeyBytes", "ciphertextBytes", "signatureBytes"] as const;
export type MeasuredField = (typeof MEASURED_FIELDS)[number];

export interface LengthStats {
  min: number;
  mean: number;
  max: number;
  samples: number;
}
export interface MeasuredSource extends LengthStats {
  source: "kat" | "timing";
  /** Record path relative to the system's folder of the store. */
  path: string;
}
export interface Distribution extends LengthStats {
  sources: MeasuredSource[];
}
export type Measured = Partial<Record<MeasuredField, Distribution>>;

/**
 * One length distribution from a record: {min, max, mean, samples} (timing records, and the KAT records'
 * `lengths`) or the driver's raw {min, max, sum, count}. Anything else is not a measurement and is ignored.
 */
export function lengthStats(value: unknown): LengthStats | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const whole = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
  if (!whole(v.min) || !whole(v.max) || v.min > v.max) return null;
  if (whole(v.samples) && v.samples > 0 && typeof v.mean === "number" && Number.isFinite(v.mean)) {
    return { min: v.min, max: v.max, mean: v.mean, samples: v.samples };
  }
  if (whole(v.count) && v.count > 0 && typeof v.sum === "number" && Number.isFinite(v.sum)) {
    return { min: v.min, max: v.max, mean: v.sum / v.count, samples: v.count };
  }
  return null;
}

/** Combines distributions from several records. */
export function combine(sources: MeasuredSource[]): Distribution | null {
  if (sources.length === 0) return null;
  const samples = sources.reduce((n, s) => n + s.samples, 0);
  return {
    min: Math.min(...sources.map((s) => s.min)),
    max: Math.max(...sources.map((s) => s.max)),
    mean: sources.reduce((t, s) => t + s.mean * s.samples, 0) / samples,
    samples,
    sources,
  };
}

/** A record file read for the audit: its path relative to the system folder and the SHA-256 of its bytes. */
export interface MeasuredFile {
  path: string;
  sha256: string;
}

interface ReadRecord {
  file: MeasuredFile;
  /** null when the file is not a JSON object (a broken record is `ngcc-perf validate`'s to report). */
  value: Record<string, unknown> | null;
}

function readRecord(out: string, entry: StoreEntry): ReadRecord | null {
  const path = recordPath(out, entry);
  if (!existsSync(path)) return null;
  const bytes = readFileSync(path);
  const file = { path: relativeRecordPath(entry), sha256: createHash("sha256").update(bytes).digest("hex") };
  try {
    const v = JSON.parse(bytes.toString("utf8"));
    return { file, value: typeof v === "object" && v !== null ? (v as Record<string, unknown>) : null };
  } catch {
    return { file, value: null };
  }
}

export interface MeasuredRead {
  measured: Measured;
  /** Every record file that was read, with its hash (for the audit's inputs hash). */
  files: MeasuredFile[];
}

/**
 * The lengths recorded for an instance under one build profile in the store at `out`: the KAT record's
 * `lengths` (kat/<alg>/<profile>/<instance>.json) and the `lengths` of its successful timing records
 * (records/<alg>/<profile>/<instance>__<operation>.json), both by the layout of @ngcc-perf/schema. Either may
 * be missing.
 */
export function readMeasured(out: string, key: InstanceKey, category: "kem" | "sign" | "kex"): MeasuredRead {
  const bySource: Record<MeasuredField, MeasuredSource[]> = {
    publicKeyBytes: [],
    ciphertextBytes: [],
    signatureBytes: [],
  };
  const take = (source: "kat" | "timing", path: string, lengths: unknown) => {
    if (typeof lengths !== "object" || lengths === null) return;
    for (const f of MEASURED_FIELDS) {
      const s = lengthStats((lengths as Record<string, unknown>)[f]);
      if (s) bySource[f].push({ source, path, ...s });
    }
  };
  const kat = readRecord(out, { kind: "kat", key });
  if (kat) take("kat", kat.file.path, kat.value?.lengths);
  const timing = operationsOf(category, 2).flatMap((operation) => {
    const r = readRecord(out, { kind: "timing", key: { ...key, operation } });
    return r ? [r] : [];
  });
  for (const r of timing) if (r.value?.status === "ok") take("timing", r.file.path, r.value.lengths);
  const measured: Measured = {};
  for (const f of MEASURED_FIELDS) {
    const d = combine(bySource[f]);
    if (d) measured[f] = d;
  }
  return { measured, files: [...(kat ? [kat.file] : []), ...timing.map((r) => r.file)] };
}
