// What `ngcc-perf compare` produces (docs/report.md "Comparing stores"): the comparison of two record stores (or
// two build profiles of one), measurement by measurement — the shape of compare.json.
import type { Contention } from "../per-call.ts";

export type Verdict = "faster" | "slower" | "same" | "not-comparable";
export type CountVerdict = "fewer" | "more" | "same";

export interface CompareOptions {
  /** The noise band: a ratio within [1 − threshold, 1 + threshold] is no change (default 0.05). */
  threshold?: number;
  /** Bootstrap resamples (default 1000). */
  resamples?: number;
  /** Base seed of the bootstrap (default 1); each measurement's generator is seeded from it and its key. */
  seed?: number;
  /** Compare build profile `a` of store A with build profile `b` of store B (the key then leaves the profile out). */
  profiles?: { a: string; b: string };
}

/** The key of a measurement: system, algorithm, instance, build profile, operation. */
export interface MeasurementKey {
  system: string;
  algorithmId: string;
  instance: string;
  /** The build profile (of A; of B it is `profiles.b` when profiles are paired). */
  buildProfile: string;
  operation: string;
}

/** The figure compared: the published statistic, of the time or of the estimated core cycles. */
export interface Figure {
  statistic: "median" | "mean";
  /** cycles: estimated core cycles per call (both records targeted them); time: ns per call. */
  unit: "cycles" | "ns";
}

export interface TimeComparison {
  key: MeasurementKey;
  figure: Figure;
  /** The figures of A and B (in figure.unit) and their ratio B/A. */
  a: number;
  b: number;
  ratio: number;
  /** 95 % percentile interval of the ratio over the bootstrap resamples. */
  ci95: { low: number; high: number };
  verdict: Verdict;
  /** The time ratio too, when the figure is the cycles (the time moves with the core clock). */
  timeRatio?: number;
  /** Records of A and B, relative to their system folder. */
  records: { a: string; b: string };
  /** Why the figure is not the published one of a side (the sides publish different statistics). */
  note?: string;
  /** A side was sampled by one worker: the interval holds no process-to-process noise. */
  oneWorker?: boolean;
  /** The 95 % interval of each side's own figure as a fraction of it (the record's central.relativeHalfWidth, or
   * central.cycles.relativeHalfWidth for the cycles), where the figure compared is the side's published one. */
  aRelativeHalfWidth?: number;
  bRelativeHalfWidth?: number;
  /** The contention state each side's figure was published in (records with the contention probe). */
  contention?: { a: Contention["state"] | null; b: Contention["state"] | null };
  /** Both sides carried a between-run component of the figure (run --between-run), added to ci95. */
  betweenRun?: { relativeSd: number; df: number };
  /** The states differed, so both sides were compared over their uncontended workers only: how many on each. */
  uncontendedWorkers?: { a: number; b: number };
}

export interface CountComparison {
  key: MeasurementKey;
  a: number;
  b: number;
  /** null when A counted 0 and B did not. */
  ratio: number | null;
  verdict: CountVerdict;
  records: { a: string; b: string };
}

export interface OneSided {
  key: MeasurementKey;
  kind: "timing" | "instructions";
  /** Where it is: only in A, only in B, or in both but failed on a side (`failed in A`, `failed in both`). */
  where: "only-a" | "only-b" | "failed-a" | "failed-b" | "failed-both";
  record: string;
}

export interface Comparison {
  kind: "comparison";
  schemaVersion: number;
  a: { store: string; profile?: string };
  b: { store: string; profile?: string };
  threshold: number;
  method: { resamples: number; seed: number; interval: string };
  timings: TimeComparison[];
  instructions: CountComparison[];
  unmatched: OneSided[];
  counts: {
    same: number;
    faster: number;
    slower: number;
    instructionsSame: number;
    instructionsDiffer: number;
    /** Timings with a side sampled by one worker (their interval holds no process-to-process noise). */
    oneWorker: number;
    /** Timings given no verdict: the sides were measured in different contention states. */
    notComparable: number;
  };
  /** Whether a gate should fail: a time slower, or an instruction count higher, by more than the threshold. */
  regressed: boolean;
}
