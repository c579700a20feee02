// Section 5 of the algorithm page: the seeds' proxies of the timing records (ELF image, baseline and peak RSS)
// and, when the memory step ran, the stack and heap high-water of its memory records beside them (the maxima over
// the records' inputs), the footprint sentence "code + data + stack + heap = N KiB (fits 64 / 128 / 256 KiB)" per
// instance and operation, and the code and data size by section of each instance's own objects.
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

/** The memory budgets the footprint is compared with, in KiB. */
export const FOOTPRINT_BUDGETS_KIB = [64, 128, 256] as const;

/** Bytes as KiB with one decimal, rounded up (a footprint is never understated). */
function kibUp(bytes: number): string {
  return (Math.ceil((bytes / 1024) * 10) / 10).toFixed(1);
}

/** What a figure of the memory record is over its inputs ("every one of N inputs", "max of N inputs; min …"), or "". */
function overInputs(m: MemoryRecord, d: { min: number; median: number; max: number } | undefined): string {
  const n = m.inputs?.count;
  if (!n) return "";
  if (!d || d.min === d.max) return n > 1 ? `every one of ${n} inputs` : "1 input";
  return `max of ${n} inputs; min ${formatBytes(d.min)}, median ${formatBytes(d.median)}`;
}

/** The stack and heap high-water of the memory record (the memory step). */
function highWaterCells(m: MemoryRecord | undefined): Cell[] {
  if (!m) return [cell(NOT_MEASURED), cell(DASH)];
  if (m.status !== "ok") return [cell(failedText(m.failure, m)), cell(DASH)];
  const stackOver = overInputs(m, m.distribution?.stackBytes);
  const heapOver = overInputs(m, m.distribution?.heapPeakBytes);
  return [
    cell(
      m.stackBytes !== undefined ? `${formatBytes(m.stackBytes)}${stackOver ? ` (${stackOver})` : ""}` : NOT_MEASURED,
    ),
    cell(
      m.heapPeakBytes !== undefined
        ? `${formatBytes(m.heapPeakBytes)} (${m.heapAllocations ?? 0} allocations${heapOver ? `; ${heapOver}` : ""})`
        : NOT_MEASURED,
    ),
  ];
}

/**
 * The footprint sentence of one memory record: "code + data + stack + heap = N KiB (fits 64 / 128 / 256 KiB)",
 * code the instance's .text, data its .rodata + .data + .bss, stack and heap the maxima over the inputs; a part
 * the record has no figure for is named as not counted, never taken as 0. Null without section sizes.
 */
export function footprintText(m: MemoryRecord): string | null {
  const sec = m.sections;
  if (m.status !== "ok" || !sec) return null;
  const parts: [string, number][] = [
    ["code", sec.textBytes],
    ["data", sec.rodataBytes + sec.dataBytes + sec.bssBytes],
  ];
  const missing: string[] = [];
  if (m.stackBytes !== undefined) parts.push(["stack", m.stackBytes]);
  else missing.push("stack");
  if (m.heapPeakBytes !== undefined) parts.push(["heap", m.heapPeakBytes]);
  else missing.push("heap");
  const total = parts.reduce((a, [, v]) => a + v, 0);
  const fits = FOOTPRINT_BUDGETS_KIB.filter((k) => total <= k * 1024);
  const budgets = `${FOOTPRINT_BUDGETS_KIB.join(" / ")} KiB`;
  const verdict = !fits.length
    ? `fits none of ${budgets}`
    : fits.length === FOOTPRINT_BUDGETS_KIB.length
      ? `fits ${budgets}`
      : `fits ${fits.join(" / ")} KiB, not ${FOOTPRINT_BUDGETS_KIB.filter((k) => !fits.includes(k)).join(" / ")} KiB`;
  const sums = parts.map(([n, v]) => `${n} ${kibUp(v)}`).join(" + ");
  return `${parts.map(([n]) => n).join(" + ")} = ${kibUp(total)} KiB (${verdict}): ${sums}${missing.length ? `; ${missing.join(" and ")} not counted (no figure in this build, see the limits below)` : ""}`;
}

function footprintCell(m: MemoryRecord | undefined): Cell {
  if (m?.status !== "ok") return cell(DASH);
  return cell(footprintText(m) ?? "no section sizes in the record");
}

/** How the memory records' figures were measured, in words taken from the records' method. */
function highWaterNotes(records: readonly MemoryRecord[]): Inline[][] {
  const ok = records.filter((r) => r.status === "ok");
  const notes: Inline[][] = [];
  const stack = ok.find((r) => r.method?.stack)?.method?.stack;
  const heap = ok.find((r) => r.method?.heap)?.method?.heap;
  const inputs = ok.find((r) => r.inputs?.source === "kat-seeds")?.inputs;
  if (inputs)
    notes.push([
      text(
        `Stack and heap are the highest of ${inputs.count === inputs.asked ? inputs.count : `up to ${inputs.asked}`} calls per operation, one per input, in one process: before input i, randombytes (the KAT generator's AES-256 CTR_DRBG) is seeded with KAT count i's seed and the operation's inputs (keys, ciphertext, protocol messages) are made from it as the KAT generator makes count i's; where the inputs differ, the cell gives the smallest and the median too, and the record every input's figure.`,
      ),
    ]);
  if (stack)
    notes.push([
      text(
        `Stack (the memory step) is the high-water of a call run on a painted stack of its own (${stack.regionBytes % 1048576 === 0 ? `${stack.regionBytes / 1048576} MiB` : `${formatBytes(stack.regionBytes)} bytes`}, every 8-byte word set to ${stack.pattern}; the deepest overwritten word), the harness's own baseline (the same switch with a no-op call) subtracted. It counts words written, not space reserved.`,
      ),
    ]);
  if (heap)
    notes.push([
      text(
        `Heap is the peak of live bytes the instance's own code requested during a call, with the number of allocations: its calls to ${heap.functions.join(", ")} renamed at link time to counting wrappers; allocations inside linked libraries (such as -lcrypto) and the C library are not counted, nor in the footprint.`,
      ),
    ]);
  if (ok.some((r) => (r.heapPeakBytes ?? 0) > 0))
    notes.push([
      text(
        "A heap peak above 0 is memory the instance's own code asked for during the call: PQClean's common fips202.c, sha2.c and aes.c, for one, keep each hash, XOF and AES key-schedule state in a malloc'ed context that is freed after use.",
      ),
    ]);
  if (ok.some((r) => r.sections))
    notes.push([
      text(
        `Footprint: code + data + stack + heap, in KiB rounded up, against budgets of ${FOOTPRINT_BUDGETS_KIB.join(" / ")} KiB. Code is the .text and data the .rodata, .data and .bss of the instance's own objects (those of its sources, and of its support code those a static link pulls in), read from their ELF section headers before the link: no alignment padding, no C library, no driver; unwind tables (.eh_frame), which embedded builds usually leave out, are not counted. Stack and heap are the maxima over the inputs.`,
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
  const withSections = highWater.some((r) => r.sections);
  const sectionRows: Cell[][] = [];
  for (const row of view.rowsOf(alg)) {
    for (const op of view.operationsOf(alg, row.instance))
      rows.push([
        ...leadCells(alg, row),
        cell(op),
        ...proxyCells(view.timingOf(alg.id, row, op)),
        ...(precise ? highWaterCells(find(row.instance, row.profile, op)) : []),
        ...(withSections ? [footprintCell(find(row.instance, row.profile, op))] : []),
      ]);
    const sec = highWater.find(
      (r) => r.instance === row.instance && (row.profile === null || r.buildProfile === row.profile) && r.sections,
    )?.sections;
    if (withSections)
      sectionRows.push([
        ...leadCells(alg, row),
        ...(sec
          ? [
              cell(formatBytes(sec.textBytes)),
              cell(formatBytes(sec.rodataBytes)),
              cell(formatBytes(sec.dataBytes)),
              cell(formatBytes(sec.bssBytes)),
              cell(formatBytes(sec.unwindBytes ?? 0)),
              cell(sec.objects.join(", ")),
            ]
          : [cell(NOT_MEASURED), cell(DASH), cell(DASH), cell(DASH), cell(DASH), cell(DASH)]),
      ]);
  }
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
          ...(withSections ? ["footprint (code + data + stack + heap)"] : []),
        ],
        rows,
        rowHeaders: true,
      },
      ...(withSections
        ? [
            {
              caption: `Code and data size by section of each ${alg.id} instance's own objects (bytes)`,
              headers: [...leadHeaders(alg), ".text", ".rodata", ".data", ".bss", ".eh_frame (not counted)", "objects"],
              rows: sectionRows,
              rowHeaders: true,
            },
          ]
        : []),
    ],
  });
}
