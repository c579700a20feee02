// Section 4's table of instruction counts (the instructions step: valgrind's callgrind, docs/methodology.md):
// instructions per call of every operation, one row per instance × build profile × operation. Labelled as
// instructions counted under valgrind, never as cycles.
import type { InstructionsRecord } from "@ngcc-perf/schema";
import { type Cell, cell, type Inline, type Table, text } from "../model.ts";
import { DASH, failedText, leadCells, leadHeaders, NOT_MEASURED } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

/** An instruction count per call: the mean, to the whole instruction, digits grouped. */
export function formatInstructions(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** The table and the note under it, or null when the algorithm has no instructions record. */
export function instructionsTable(view: SystemView, alg: AlgorithmView): { table: Table; notes: Inline[][] } | null {
  const records = (view.store.instructions ?? []).filter((r) => r.algorithmId === alg.id);
  if (records.length === 0) return null;
  const find = (instance: string, profile: string | null, op: string): InstructionsRecord | undefined =>
    records.find(
      (r) => r.instance === instance && (profile === null || r.buildProfile === profile) && r.operation === op,
    );
  const rows: Cell[][] = [];
  for (const row of view.rowsOf(alg)) {
    for (const op of view.operationsOf(alg, row.instance)) {
      const r = find(row.instance, row.profile, op);
      const lead = [...leadCells(alg, row), cell(op)];
      if (!r) rows.push([...lead, cell(NOT_MEASURED), cell(DASH)]);
      else if (r.status !== "ok" || r.instructionsPerCall === undefined)
        rows.push([...lead, cell(failedText(r.failure, r)), cell(DASH)]);
      else rows.push([...lead, cell(formatInstructions(r.instructionsPerCall)), cell(String(r.calls ?? DASH))]);
    }
  }
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
