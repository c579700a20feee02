// Measured output lengths: what the KAT and timing steps saw, read from their records in the store. Each
// figure keeps the records it came from; the combined distribution takes the smallest minimum, the largest
// maximum and the mean weighted by the number of outputs.
import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { operationsOf } from "@ngcc-perf/runner";

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

function readJson(path: string): Record<string, unknown> | null {
  if (!existsSync(path)) return null;
  try {
    const v = JSON.parse(readFileSync(path, "utf8"));
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : null;
  } catch {
    return null; // a broken record is `ngcc-perf validate`'s to report, not a length
  }
}

export interface MeasuredRead {
  measured: Measured;
  /** Every record file that was read (for the audit's inputs hash), absolute. */
  files: string[];
}

/**
 * The lengths recorded for an instance in the store's system folder `dataDir`: the KAT record's `lengths`
 * (kat/<alg>/<instance>.json) and the `lengths` of its successful timing records
 * (records/<alg>/<instance>__<operation>.json). Either may be missing.
 */
export function readMeasured(
  dataDir: string,
  algorithmId: string,
  instance: string,
  category: "kem" | "sign" | "kex",
): MeasuredRead {
  const bySource: Record<MeasuredField, MeasuredSource[]> = {
    publicKeyBytes: [],
    ciphertextBytes: [],
    signatureBytes: [],
  };
  const files: string[] = [];
  const rel = (p: string) => relative(dataDir, p).split(sep).join("/");
  const take = (source: "kat" | "timing", path: string, lengths: unknown) => {
    if (typeof lengths !== "object" || lengths === null) return;
    for (const f of MEASURED_FIELDS) {
      const s = lengthStats((lengths as Record<string, unknown>)[f]);
      if (s) bySource[f].push({ source, path: rel(path), ...s });
    }
  };
  const katPath = join(dataDir, "kat", algorithmId, `${instance}.json`);
  const kat = readJson(katPath);
  if (kat) {
    files.push(katPath);
    take("kat", katPath, kat.lengths);
  }
  for (const op of operationsOf(category, 2)) {
    const p = join(dataDir, "records", algorithmId, `${instance}__${op}.json`);
    const rec = readJson(p);
    if (!rec) continue;
    files.push(p);
    if (rec.status === "ok") take("timing", p, rec.lengths);
  }
  const measured: Measured = {};
  for (const f of MEASURED_FIELDS) {
    const d = combine(bySource[f]);
    if (d) measured[f] = d;
  }
  return { measured, files };
}
