// Whether a timing figure may be shown as the code's: the record's own cross-checks (the time step's plausibility
// block) and, made here with whatever the store holds, cycles per instruction against the instructions record of
// the same operation (docs/methodology.md, Plausibility). A figure that fails one is shown marked, with why.
import {
  cyclesPerInstructionCheck,
  type InstructionsRecord,
  type PlausibilityCheck,
  type TimingRecord,
} from "@ngcc-perf/schema";

/** The mark beside a figure that failed a cross-check. */
export const NOT_PLAUSIBLE = "⚠ not plausible";

/** The flagged checks of a timing record (empty: nothing against its figure). */
export function implausibleChecks(
  t: TimingRecord | undefined,
  instructions: readonly InstructionsRecord[] | undefined,
): PlausibilityCheck[] {
  if (t?.status !== "ok") return [];
  const own = t.plausibility?.checks ?? [];
  const flagged = own.filter((c) => c.outcome === "flagged");
  if (own.some((c) => c.check === "cycles-per-instruction")) return flagged;
  const counted = (instructions ?? []).find(
    (i) =>
      i.system === t.system &&
      i.algorithmId === t.algorithmId &&
      i.instance === t.instance &&
      i.buildProfile === t.buildProfile &&
      i.operation === t.operation,
  );
  const cpi = cyclesPerInstructionCheck(t, counted);
  return cpi?.outcome === "flagged" ? [...flagged, cpi] : flagged;
}

/** A flagged record's line under a table: what failed, with the figures. */
export function implausibleLine(name: string, checks: readonly PlausibilityCheck[]): string {
  return `${name}: ${checks.map((c) => `${c.check} — ${c.message}`).join("; ")}`;
}
