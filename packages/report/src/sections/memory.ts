// Section 5 of the algorithm page: the seeds' proxies of the timing records (ELF image, baseline and peak RSS)
// and, when the memory step ran, the stack and heap high-water of its memory records beside them (the maxima over
// the records' inputs), the footprint sentence "code + data + stack + heap = N KiB (fits 64 / 128 / 256 KiB)" per
// instance and operation, and the code and data size by section of each instance's own objects (its code-size
// record; a memory record's sections in stores written before that record kind) beside its shared library's
// loadable image.
import type { CodeSizeRecord, MemoryRecord, TimingRecord } from "@ngcc-perf/schema";
import { formatBytes, formatKiB } from "../format.ts";
import { type Cell, cell, type Inline, text } from "../model.ts";
import { DASH, EMULATED, failedText, leadCells, leadHeaders, NOT_MEASURED, section } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

type SectionSizes = NonNullable<CodeSizeRecord["sections"]>;

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
export function footprintText(m: MemoryRecord, sec: SectionSizes | undefined): string | null {
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

function footprintCell(m: MemoryRecord | undefined, sec: SectionSizes | undefined): Cell {
  if (m?.status !== "ok") return cell(DASH);
  return cell(footprintText(m, sec) ?? "no section sizes in the store");
}

/** How the memory records' figures were measured, in words taken from the records' method. */
function highWaterNotes(records: readonly MemoryRecord[], withSections: boolean): Inline[][] {
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
  if (withSections)
    notes.push([
      text(
        `Footprint: code + data + stack + heap, in KiB rounded up, against budgets of ${FOOTPRINT_BUDGETS_KIB.join(" / ")} KiB. Code is the .text and data the .rodata, .data and .bss of the instance's own objects (those of its sources, and of its support code those a static link pulls in), read from their ELF section headers before the link: no alignment padding, no C library, no driver; unwind tables (.eh_frame), which embedded builds usually leave out, are not counted. Stack and heap are the maxima over the inputs.`,
      ),
    ]);
  const limits = [...new Set(ok.flatMap((r) => r.limits ?? []))];
  if (limits.length) notes.push([text(`Limits of some builds' figures: ${limits.join("; ")}.`)]);
  return notes;
}

/** What section 5 reads of an algorithm: its memory records and the section sizes of each instance × profile. */
interface MemoryView {
  highWater: MemoryRecord[];
  find(instance: string, profile: string | null, op: string): MemoryRecord | undefined;
  /** The code-size record's sections (or, in stores written before it, a memory record's). */
  sectionsOf(instance: string, profile: string | null): SectionSizes | undefined;
  /** The code-size record of an instance × profile. */
  codeSizeOf(instance: string, profile: string | null): CodeSizeRecord | undefined;
  withSections: boolean;
}

function memoryView(view: SystemView, alg: AlgorithmView): MemoryView {
  const highWater = (view.store.memory ?? []).filter((r) => r.algorithmId === alg.id);
  const codeSize = (view.store.codeSize ?? []).filter((r) => r.algorithmId === alg.id);
  const at = (instance: string, profile: string | null) => (r: { instance: string; buildProfile: string }) =>
    r.instance === instance && (profile === null || r.buildProfile === profile);
  const codeSizeOf = (instance: string, profile: string | null) => codeSize.find(at(instance, profile));
  const sectionsOf = (instance: string, profile: string | null) =>
    codeSizeOf(instance, profile)?.sections ?? highWater.find((r) => at(instance, profile)(r) && r.sections)?.sections;
  return {
    highWater,
    find: (instance, profile, op) => highWater.find((r) => at(instance, profile)(r) && r.operation === op),
    sectionsOf,
    codeSizeOf,
    withSections: codeSize.some((r) => r.sections) || highWater.some((r) => r.sections),
  };
}

/** A row of the section table: the sizes by section, the objects, and the shared library's loadable image. */
function sectionCells(sec: SectionSizes | undefined, c: CodeSizeRecord | undefined): Cell[] {
  const image = c?.image ? cell(formatBytes(c.image.elfImageBytes)) : cell(DASH);
  if (!sec)
    return [
      cell(c?.status === "failed" ? failedText(c.failure, c) : NOT_MEASURED),
      ...Array(5).fill(cell(DASH)),
      image,
    ];
  return [
    cell(formatBytes(sec.textBytes)),
    cell(formatBytes(sec.rodataBytes)),
    cell(formatBytes(sec.dataBytes)),
    cell(formatBytes(sec.bssBytes)),
    cell(formatBytes(sec.unwindBytes ?? 0)),
    cell(sec.objects.join(", ")),
    image,
  ];
}

/** The rows of the memory table (one per instance × operation) and of the section table (one per instance). */
function memoryRows(view: SystemView, alg: AlgorithmView, mv: MemoryView) {
  const precise = mv.highWater.length > 0;
  const rows: Cell[][] = [];
  const sectionRows: Cell[][] = [];
  for (const row of view.rowsOf(alg)) {
    const sec = mv.sectionsOf(row.instance, row.profile);
    for (const op of view.operationsOf(alg, row.instance))
      rows.push([
        ...leadCells(alg, row),
        cell(op),
        ...proxyCells(view.timingOf(alg.id, row, op)),
        ...(precise ? highWaterCells(mv.find(row.instance, row.profile, op)) : []),
        ...(mv.withSections ? [footprintCell(mv.find(row.instance, row.profile, op), sec)] : []),
      ]);
    if (mv.withSections)
      sectionRows.push([...leadCells(alg, row), ...sectionCells(sec, mv.codeSizeOf(row.instance, row.profile))]);
  }
  return { rows, sectionRows };
}

export function memorySection(view: SystemView, alg: AlgorithmView) {
  const mv = memoryView(view, alg);
  const { highWater, withSections } = mv;
  const precise = highWater.length > 0;
  const { rows, sectionRows } = memoryRows(view, alg, mv);
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
      ...(precise ? highWaterNotes(highWater, withSections) : []),
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
              headers: [
                ...leadHeaders(alg),
                ".text",
                ".rodata",
                ".data",
                ".bss",
                ".eh_frame (not counted)",
                "objects",
                "shared library as loaded (PT_LOAD)",
              ],
              rows: sectionRows,
              rowHeaders: true,
            },
          ]
        : []),
    ],
  });
}
