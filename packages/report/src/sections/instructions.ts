// Section 4's table of instruction counts (the instructions step: valgrind's callgrind, docs/methodology.md):
// instructions per call of every operation, one row per instance × build profile × operation. Labelled as
// instructions counted under valgrind, never as cycles.
import { cell, type Inline, type Table, text } from "../model.ts";
import { DASH, failedText, leadHeaders, NOT_MEASURED, operationRows, recordOfRow } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

/** An instruction count per call: the mean, to the whole instruction, digits grouped. */
export function formatInstructions(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** The table and the note under it, or null when the algorithm has no instructions record. */
export function instructionsTable(view: SystemView, alg: AlgorithmView): { table: Table; notes: Inline[][] } | null {
  const records = (view.store.instructions ?? []).filter((r) => r.algorithmId === alg.id);
  if (records.length === 0) return null;
  const rows = operationRows(view, alg, (lead, row, op) => {
    const r = recordOfRow(records, row, op);
    if (!r) return [[...lead, cell(NOT_MEASURED), cell(DASH)]];
    if (r.status !== "ok" || r.instructionsPerCall === undefined)
      return [[...lead, cell(failedText(r.failure, r)), cell(DASH)]];
    return [[...lead, cell(formatInstructions(r.instructionsPerCall)), cell(String(r.calls ?? DASH))]];
  });
  const ok = records.find((r) => r.status === "ok");
  const version = ok?.tool?.version ? ` (${ok.tool.version})` : "";
  return {
    table: {
      caption: `${alg.id}: instructions per call counted under valgrind`,
      headers: [...leadHeaders(alg), "operation", "instructions (valgrind)", "calls counted"],
      rows,
      rowHeaders: true,
    },
    notes: [
      [
        text(
          `Instructions (valgrind): user-mode instructions executed per call, as valgrind's callgrind${version} counts them (Ir), the mean over the calls counted after one warm-up call, with the instance's randomness from the KAT DRBG seeded with fixed bytes, so every run counts the same (the DRBG's own instructions are left out of the count and recorded beside it); a count of work, not cycles or time.`,
        ),
      ],
    ],
  };
}
