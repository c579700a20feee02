// Whether an operation's work depends on its input, decided from its per-call instruction counts (the
// instructions record's perCall): a property of the code, not of the machine, so the published statistic (mean
// for input-dependent work, else median) is the same under every profile, in every run and on every system
// (docs/methodology.md: "Instruction counts (valgrind)", and "The published figure" under timing per call).
import { quantile, sortedCopy } from "@ngcc-perf/stats";
import type { InstructionsRecord } from "./generated/types.ts";

/**
 * The relative spread (max − min) / median of the per-call instruction counts above which an operation is
 * input-dependent: 10 %. Work that does not loop on its input varies by a few SHAKE128 blocks at most: PQClean
 * ML-KEM's rejection sampling of the matrix from its seed spreads 0.03–0.24 % over 16 calls, and a seed whose
 * matrix needs one more block adds ~7,400 instructions, 2.0 % of ML-KEM-512 keygen (the smallest such
 * operation; two more blocks in one call are rarer still); the demo fixtures' operations spread 0–0.2 %, except
 * Quill-V-192 verify, 15 % (its work follows the variable length of the signature it checks: input-dependent,
 * the mean). A signing loop that starts over on rejection varies by multiples: PQClean ML-DSA-65 sign 322 % over
 * 16 calls (one more round adds about the whole of a round). 10 % is five times the one-block case and thirty times below ML-DSA's
 * spread, and the same share as the distribution rule's (WIDE_SHARE in the runner), so the fallback and the
 * decision draw the line at the same place.
 */
export const INPUT_DEPENDENCE_THRESHOLD = 0.1;

/** The decision and its evidence. */
export interface InputDependence {
  inputDependent: boolean;
  /** (max − min) / median of the per-call counts. */
  relativeSpread: number;
  minInstructions: number;
  maxInstructions: number;
  /** Calls counted. */
  calls: number;
  threshold: number;
}

/**
 * The decision for one operation from its instructions record: input-dependent when the per-call counts spread
 * by more than the threshold (INPUT_DEPENDENCE_THRESHOLD by default). null when the record cannot decide: not ok,
 * or without per-call counts (a record made before they were counted).
 */
export function inputDependence(
  rec: Pick<InstructionsRecord, "status" | "perCall">,
  threshold: number = INPUT_DEPENDENCE_THRESHOLD,
): InputDependence | null {
  const counts = rec.status === "ok" ? rec.perCall?.instructions : undefined;
  if (!counts || counts.length === 0) return null;
  const sorted = sortedCopy(counts);
  const mid = quantile(sorted, 0.5);
  const min = sorted[0] as number;
  const max = sorted[sorted.length - 1] as number;
  const relativeSpread = mid > 0 ? (max - min) / mid : 0;
  return {
    inputDependent: relativeSpread > threshold,
    relativeSpread,
    minInstructions: min,
    maxInstructions: max,
    calls: counts.length,
    threshold,
  };
}
