// Cycles per instruction of a timed operation, against the instructions step's count (docs/methodology.md,
// Plausibility): shared by the time step (when the instructions record is already in the store) and the report
// (which has both records whatever order they were made in).
import type { InstructionsRecord, TimingRecord } from "./generated/types.ts";

export type PlausibilityCheck = NonNullable<TimingRecord["plausibility"]>["checks"][number];

/**
 * The band of cycles per instruction a timed operation must lie in: no core these figures come from retires more
 * than 10 instructions per cycle (the widest retire 6–8 per cycle at their best), and straight-line cryptographic
 * code does not average 8 cycles per instruction unless something outside the code (interference, a cold
 * machine) slowed it — or the figure is not the code's.
 */
export const CPI_BAND = { low: 0.1, high: 8 } as const;

/** Cycles per call of a timing record and what they are, or null when its counter gives no cycles. */
export function cyclesPerCallOf(t: TimingRecord): { cycles: number; what: string } | null {
  if (t.status !== "ok") return null;
  const est = t.central?.cycles?.value;
  if (est !== undefined && est > 0) return { cycles: est, what: "estimated core cycles" };
  const unit = t.counter?.unit;
  if (unit !== "core-cycles" && unit !== "tsc-ticks") return null;
  const value = t.central?.valueCounter ?? t.aggregates?.meanCounter;
  if (value === undefined || !(value > 0)) return null;
  return { cycles: value, what: unit === "core-cycles" ? "core cycles" : "TSC ticks (about core cycles)" };
}

function figure(x: number): string {
  return x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toPrecision(3);
}

/**
 * The cycles-per-instruction check of a timing record against the instructions record of the same instance,
 * build profile and operation; null when either gives no figure (failed, not counted, a counter without cycles).
 */
export function cyclesPerInstructionCheck(
  t: TimingRecord,
  i: InstructionsRecord | undefined,
): PlausibilityCheck | null {
  const c = cyclesPerCallOf(t);
  const ipc = i?.status === "ok" ? i.instructionsPerCall : undefined;
  if (!c || ipc === undefined || !(ipc > 0)) return null;
  const cpi = c.cycles / ipc;
  const within = cpi >= CPI_BAND.low && cpi <= CPI_BAND.high;
  const head = `${figure(c.cycles)} ${c.what} per call over ${figure(ipc)} instructions per call counted under valgrind: ${cpi.toPrecision(2)} cycles per instruction`;
  return {
    check: "cycles-per-instruction",
    outcome: within ? "pass" : "flagged",
    message: within
      ? `${head}, within ${CPI_BAND.low}–${CPI_BAND.high}`
      : `${head}, ${cpi < CPI_BAND.low ? "below" : "above"} the plausible ${CPI_BAND.low}–${CPI_BAND.high}: the time figure is not that of the code counted`,
  };
}

/** A record's plausibility block from its checks (flagged when any is). */
export function plausibilityOf(checks: readonly PlausibilityCheck[]): NonNullable<TimingRecord["plausibility"]> {
  return { verdict: checks.some((c) => c.outcome === "flagged") ? "flagged" : "plausible", checks: [...checks] };
}
