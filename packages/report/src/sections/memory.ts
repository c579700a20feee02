// Section 5 of the algorithm page: the memory figures of the timing records (ELF image, baseline and peak RSS).
import type { TimingRecord } from "@ngcc-perf/schema";
import { formatBytes, formatKiB } from "../format.ts";
import { type Cell, cell, text } from "../model.ts";
import { DASH, failedText, leadCells, leadHeaders, NOT_MEASURED, section } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

function memoryCells(t: TimingRecord | undefined): Cell[] {
  if (t?.memory)
    return [
      cell(formatBytes(t.memory.elfImageBytes)),
      cell(formatKiB(t.memory.baselineRssKiB)),
      cell(formatKiB(t.memory.peakRssKiB)),
    ];
  const why = !t ? NOT_MEASURED : t.status !== "ok" || !t.aggregates ? failedText(t.failure) : NOT_MEASURED;
  return [cell(why), cell(DASH), cell(DASH)];
}

export function memorySection(view: SystemView, alg: AlgorithmView) {
  const rows: Cell[][] = [];
  for (const row of view.rowsOf(alg))
    for (const op of view.operationsOf(alg, row.instance))
      rows.push([...leadCells(alg, row), cell(op), ...memoryCells(view.timingOf(alg.id, row, op))]);
  const measured = view.timingsOf(alg.id).some((t) => t.memory);
  return section("resources", "5. Resource consumption", {
    // What the schema defines the figures to be (timing record, memory): said only when a record holds them.
    notes: measured
      ? [
          [
            text(
              "Static memory is approximated by the library's loadable ELF segments; peak memory is the process high-water mark (VmHWM) including the benchmark driver and libc, so both are upper-bound proxies rather than isolated algorithm memory.",
            ),
          ],
        ]
      : [[text("No memory figures in the store: the timing step did not record any for this algorithm.")]],
    tables: [
      {
        caption: `Memory per operation of each ${alg.id} instance`,
        headers: [...leadHeaders(alg), "operation", "static: ELF image (bytes)", "baseline RSS", "peak RSS"],
        rows,
        rowHeaders: true,
      },
    ],
  });
}
