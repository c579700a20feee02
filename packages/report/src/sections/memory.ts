// Section 5 of the algorithm page: the seeds' proxies of the timing records (ELF image, baseline and peak RSS)
// and, when the memory step ran, the stack and heap high-water of its memory records beside them.
import type { MemoryRecord, TimingRecord } from "@ngcc-perf/schema";
import { formatBytes, formatKiB } from "../format.ts";
import { type Cell, cell, type Inline, text } from "../model.ts";
import { DASH, EMULATED, failedText, leadCells, leadHeaders, NOT_MEASURED, section } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

/** The seeds' proxies of the timing record. */
function proxyCells(t: TimingRecord | undefined): Cell[] {
  if (t?.memory)
    return [
      cell(formatBytes(t.memory.elfImageBytes)),
      cell(formatKiB(t.memory.baselineRssKiB)),
      cell(formatKiB(t.memory.peakRssKiB)),
    ];
  const why = !t ? NOT_MEASURED : t.status !== "ok" || !t.aggregates ? failedText(t.failure, t) : NOT_MEASURED;
  return [cell(why), cell(DASH), cell(DASH)];
}

/** The stack and heap high-water of the memory record (the memory step). */
function highWaterCells(m: MemoryRecord | undefined): Cell[] {
  if (!m) return [cell(NOT_MEASURED), cell(DASH)];
  if (m.status !== "ok") return [cell(failedText(m.failure, m)), cell(DASH)];
  return [
    cell(m.stackBytes !== undefined ? formatBytes(m.stackBytes) : NOT_MEASURED),
    cell(
      m.heapPeakBytes !== undefined
        ? `${formatBytes(m.heapPeakBytes)} (${m.heapAllocations ?? 0} allocations)`
        : NOT_MEASURED,
    ),
  ];
}

/** How the memory records' figures were measured, in words taken from the records' method. */
function highWaterNotes(records: readonly MemoryRecord[]): Inline[][] {
  const ok = records.filter((r) => r.status === "ok");
  const notes: Inline[][] = [];
  const stack = ok.find((r) => r.method?.stack)?.method?.stack;
  const heap = ok.find((r) => r.method?.heap)?.method?.heap;
  if (stack)
    notes.push([
      text(
        `Stack (the memory step) is the high-water of one call run on a painted stack of its own (${stack.regionBytes % 1048576 === 0 ? `${stack.regionBytes / 1048576} MiB` : `${formatBytes(stack.regionBytes)} bytes`}, every 8-byte word set to ${stack.pattern}; the deepest overwritten word), the harness's own baseline (the same switch with a no-op call) subtracted. It counts words written, not space reserved.`,
      ),
    ]);
  if (heap)
    notes.push([
      text(
        `Heap is the peak of live bytes the instance's own code requested during that call, with the number of allocations: its calls to ${heap.functions.join(", ")} renamed at link time to counting wrappers; allocations inside the C library are not counted.`,
      ),
    ]);
  if (ok.some((r) => (r.heapPeakBytes ?? 0) > 0))
    notes.push([
      text(
        "A heap peak above 0 is memory the instance's own code asked for during the call: PQClean's common fips202.c, sha2.c and aes.c, for one, keep each hash, XOF and AES key-schedule state in a malloc'ed context that is freed after use.",
      ),
    ]);
  const limits = [...new Set(ok.flatMap((r) => r.limits ?? []))];
  if (limits.length) notes.push([text(`Limits of some builds' figures: ${limits.join("; ")}.`)]);
  return notes;
}

export function memorySection(view: SystemView, alg: AlgorithmView) {
  const rows: Cell[][] = [];
  const highWater = (view.store.memory ?? []).filter((r) => r.algorithmId === alg.id);
  const precise = highWater.length > 0;
  const find = (instance: string, profile: string | null, op: string): MemoryRecord | undefined =>
    highWater.find(
      (r) => r.instance === instance && (profile === null || r.buildProfile === profile) && r.operation === op,
    );
  for (const row of view.rowsOf(alg))
    for (const op of view.operationsOf(alg, row.instance))
      rows.push([
        ...leadCells(alg, row),
        cell(op),
        ...proxyCells(view.timingOf(alg.id, row, op)),
        ...(precise ? highWaterCells(find(row.instance, row.profile, op)) : []),
      ]);
  const measured = view.timingsOf(alg.id).some((t) => t.memory);
  return section("resources", "5. Resource consumption", {
    // What the schema defines the figures to be (timing record, memory): said only when a record holds them.
    notes: [
      ...(measured
        ? [
            [
              text(
                "Static memory is approximated by the library's loadable ELF segments; peak memory is the process high-water mark (VmHWM) including the benchmark driver and libc, so both are upper-bound proxies rather than isolated algorithm memory.",
              ),
            ],
          ]
        : [
            [
              text(
                view.environment?.emulated
                  ? `${EMULATED}: the ELF image and RSS figures are measured with the time step, which does not run under an emulator (an emulated process's RSS is the emulator's).`
                  : precise
                    ? "No RSS figures in the store: the timing step did not record any for this algorithm."
                    : "No memory figures in the store: the timing step did not record any for this algorithm.",
              ),
            ],
          ]),
      ...(precise ? highWaterNotes(highWater) : []),
      // A store whose memory step ran on other algorithms only: this one's stack and heap were not measured.
      ...(!precise && (view.store.memory ?? []).length > 0
        ? [
            [
              text(
                "Stack and heap high-water: not measured (the store holds no memory records of this algorithm: the memory step did not run on it).",
              ),
            ],
          ]
        : []),
    ],
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
