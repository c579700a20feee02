// Section 5 of the algorithm page: the memory figures of the timing records (ELF image, baseline and peak RSS).
import type { TimingRecord } from "@ngcc-perf/schema";
import { formatBytes, formatKiB } from "../format.ts";
import { type Cell, cell, text } from "../model.ts";
import { DASH, EMULATED, failedText, leadCells, leadHeaders, NOT_MEASURED, section } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

/** With `precise` (some record of the algorithm has them), the stack and heap columns too. */
function memoryCells(t: TimingRecord | undefined, precise: boolean): Cell[] {
  if (t?.memory)
    return [
      cell(formatBytes(t.memory.elfImageBytes)),
      cell(formatKiB(t.memory.baselineRssKiB)),
      cell(formatKiB(t.memory.peakRssKiB)),
      ...(!precise
        ? []
        : [
            cell(t.memory.stackBytes !== undefined ? formatBytes(t.memory.stackBytes) : DASH),
            cell(
              t.memory.heapPeakBytes !== undefined
                ? `${formatBytes(t.memory.heapPeakBytes)} (${t.memory.heapAllocations ?? 0} allocations)`
                : DASH,
            ),
          ]),
    ];
  const why = !t ? NOT_MEASURED : t.status !== "ok" || !t.aggregates ? failedText(t.failure) : NOT_MEASURED;
  return [cell(why), cell(DASH), cell(DASH), ...(precise ? [cell(DASH), cell(DASH)] : [])];
}

export function memorySection(view: SystemView, alg: AlgorithmView) {
  const rows: Cell[][] = [];
  const precise = view.timingsOf(alg.id).some((t) => t.memory?.stackBytes !== undefined);
  for (const row of view.rowsOf(alg))
    for (const op of view.operationsOf(alg, row.instance))
      rows.push([...leadCells(alg, row), cell(op), ...memoryCells(view.timingOf(alg.id, row, op), precise)]);
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
          ...(precise
            ? [
                [
                  text(
                    "Stack is the high-water of one call run on its own painted 8 MiB stack (the deepest overwritten 8-byte word), the harness's own baseline (the same switch with a no-op call) subtracted; heap is the peak of live bytes requested through the instance's own malloc, calloc, realloc, posix_memalign and aligned_alloc calls during that call (renamed at link time to counting wrappers), with the number of allocations.",
                  ),
                ],
              ]
            : []),
        ]
      : view.environment?.emulated
        ? [
            [
              text(
                `${EMULATED}: memory is measured with the time step, which does not run under an emulator (an emulated process's RSS and stack are the emulator's).`,
              ),
            ],
          ]
        : [[text("No memory figures in the store: the timing step did not record any for this algorithm.")]],
    tables: [
      {
        caption: `Memory per operation of each ${alg.id} instance`,
        headers: [
          ...leadHeaders(alg),
          "operation",
          "static: ELF image (bytes)",
          "baseline RSS",
          "peak RSS",
          ...(precise ? ["stack (painted)", "heap peak"] : []),
        ],
        rows,
        rowHeaders: true,
      },
    ],
  });
}
