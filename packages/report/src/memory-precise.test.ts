// Section 5 with the memory step's records: a store with memory records for one instance of kem-22 shows the
// "stack (painted)" and "heap peak" columns beside the timing records' proxies (which carry no stack or heap
// figure), with the sentences on how they were measured taken from the records' method, a failed record as
// FAILED, "not measured" for the other instances; an algorithm of the same store without memory records (kex-06)
// gets no such columns and says they were not measured; a store with no memory record at all (the seeds) shows the
// three proxy columns only and says nothing of them (seed-cells.test.ts holds the seed pages' cells). Records with
// inputs, distributions and section sizes (the memory step over the KAT-seed inputs) add the spread over the
// inputs, the footprint sentence per operation (with the budgets it fits, and the part not counted where a record
// has no figure) and the table of section sizes, from a code-size record (Mithril-128) or, in records written before
// that kind, from the memory records (Mithril-256), beside the shared library's loadable image.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordPath, validateFile } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSite } from "./site.ts";
import { miniStore, stepRecordBase, writeJson, writeKeygenAndFailedDec, writeStepRecord } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-memory-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(tmp, "store");
const out = join(tmp, "out");
const plainRoot = join(tmp, "plain");
const plainOut = join(tmp, "plain-out");

const command = {
  argv: ["ngcc-driver-memory", "memory", "--op", "keygen", "--measure", "highwater", "--msg-bytes", "32"],
  exitCode: 0,
  signal: null,
  durationMs: 12.5,
  timedOut: false,
};

const dist = (values: number[]) => ({
  min: Math.min(...values),
  median: [...values].sort((a, b) => a - b)[values.length >> 1] as number,
  max: Math.max(...values),
  maxInput: values.indexOf(Math.max(...values)),
  values,
});

const sections = (textBytes: number) => ({
  textBytes,
  rodataBytes: 2900,
  dataBytes: 64,
  bssBytes: 36,
  unwindBytes: 1200,
  objects: ["kem.o", "fips202.o"],
  method: "ELF section headers",
});

/** keygen over 3 inputs whose stack differs, enc (no heap figure) over 3 equal inputs, with section sizes. */
function withInputs(operation: "keygen" | "enc") {
  const r = record(operation, true) as Record<string, unknown>;
  const inputs = {
    count: 3,
    asked: 3,
    limitedBy: "inputs",
    source: "kat-seeds",
    description: "input i: KAT count i's seed",
  };
  if (operation === "keygen")
    return {
      ...r,
      instance: "Mithril-256",
      inputs,
      stackBytes: 15272,
      distribution: { stackBytes: dist([15176, 15272, 15200]), heapPeakBytes: dist([208, 208, 208]) },
      sections: sections(17000),
    };
  const { heapPeakBytes: _h, heapAllocations: _a, ...rest } = r;
  return {
    ...rest,
    instance: "Mithril-256",
    inputs,
    stackBytes: 60000,
    distribution: { stackBytes: dist([60000, 60000, 60000]) },
    sections: sections(17000),
    limits: ["no heap figure: under -flto the objects hold compiler IR whose allocation calls objcopy cannot rename"],
    method: { stack: (r.method as { stack: unknown }).stack },
  };
}

const build = {
  compiler: "gcc",
  compilerVersion: "gcc 12.2.0",
  flags: ["-O3"],
  sourcesSha256: "0".repeat(64),
  artifact: "ngcc-driver-memory",
  linkage: "static-objects",
};

function record(operation: string, ok: boolean) {
  const base = stepRecordBase("memory", operation);
  return ok
    ? {
        ...base,
        status: "ok",
        build,
        stackBytes: 15272,
        stackBaselineBytes: 32,
        heapPeakBytes: 208,
        heapAllocations: 17,
        method: {
          stack: { regionBytes: 8388608, pattern: "0x6e6763635f73746b", entry: "makecontext / swapcontext" },
          heap: {
            functions: ["malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc"],
            technique: "objcopy",
          },
        },
        commands: [command],
      }
    : {
        ...base,
        status: "failed",
        failure: { reason: "crash", message: "Mithril-128 dec: memory: killed by SIGSEGV" },
        build,
        commands: [{ ...command, exitCode: null, signal: "SIGSEGV" }],
      };
}

/** The code-size record of Mithril-128 (the code-size step): its sections beside the shared library's image. */
function codeSizeRecord(): string {
  const { operation: _op, ...header } = stepRecordBase("memory", "keygen");
  const key = { system: "arm_1", algorithmId: "kem-22", instance: "Mithril-128", buildProfile: "guide" };
  const file = recordPath(root, { kind: "code-size", key });
  writeJson(file, {
    ...header,
    kind: "code-size",
    status: "ok",
    build: { ...build, artifact: "/build/libinstance.so" },
    sections: sections(20000),
    image: { elfImageBytes: 31337, file: "/build/libinstance.so" },
  });
  return file;
}

beforeAll(async () => {
  miniStore(root, ["kem-22", "kex-06"]);
  expect(validateFile(codeSizeRecord()).errors).toEqual([]);
  for (const file of writeKeygenAndFailedDec(root, record)) expect(validateFile(file).errors).toEqual([]);
  for (const op of ["keygen", "enc"] as const)
    expect(validateFile(writeStepRecord(root, withInputs(op))).errors).toEqual([]);
  await renderSite(root, { out });
  miniStore(plainRoot, ["kem-22"]);
  await renderSite(plainRoot, { out: plainOut });
}, 120_000);

/** The lines of section 5 of a page (Markdown). */
function section5(file: string): string {
  const md = readFileSync(file, "utf8");
  const from = md.indexOf("5. Resource consumption");
  expect(from).toBeGreaterThan(0);
  return md.slice(from, md.indexOf("6. ", from));
}

describe("section 5 with the memory step's records", () => {
  it("shows the painted-stack and heap columns beside the proxies, and says how they were measured", () => {
    const s = section5(join(out, "site", "arm_1", "kem-22.md"));
    expect(s).toContain("| stack (painted) | heap peak |");
    expect(s).toContain("peak RSS");
    expect(s).toMatch(/Mithril-128.*\| keygen \|.*\| 15272 \| 208 \(17 allocations\) \|/);
    expect(s).toMatch(/Mithril-128.*\| dec \|.*\| FAILED[^|]*crash[^|]*\| — \|/);
    expect(s).toMatch(/Mithril-256.*\| dec \|.*\| not measured \| — \| — \|/);
    expect(s).toContain("painted stack of its own (8 MiB, every 8-byte word set to 0x6e6763635f73746b");
    expect(s).toContain("its calls to malloc, calloc, realloc, free, posix_memalign, aligned_alloc renamed");
    expect(s).toContain("PQClean's common fips202.c, sha2.c and aes.c");
    expect(s).not.toContain("Stack and heap high-water: not measured");
  });

  it("over the KAT-seed inputs: the spread, the footprint sentence with the budgets it fits, and the section sizes", () => {
    const s = section5(join(out, "site", "arm_1", "kem-22.md"));
    expect(s).toContain("| footprint (code + data + stack + heap) |");
    // keygen: 17000 + (2900 + 64 + 36) + 15272 + 208 = 35480 bytes = 34.65 KiB, rounded up.
    expect(s).toMatch(
      /Mithril-256.*\| keygen \|.*\| 15272 \(max of 3 inputs; min 15176, median 15200\) \| 208 \(17 allocations; every one of 3 inputs\) \| code \+ data \+ stack \+ heap = 34\.7 KiB \(fits 64 \/ 128 \/ 256 KiB\): code 16\.7 \+ data 3\.0 \+ stack 15\.0 \+ heap 0\.3 \|/,
    );
    // enc: no heap figure (-flto): said, not taken as 0; 17000 + 3000 + 60000 = 80000 bytes = 78.13 KiB.
    expect(s).toMatch(
      /Mithril-256.*\| enc \|.*\| 60000 \(every one of 3 inputs\) \| not measured \| code \+ data \+ stack = 78\.2 KiB \(fits 128 \/ 256 KiB, not 64 KiB\): code 16\.7 \+ data 3\.0 \+ stack 58\.6; heap not counted/,
    );
    // Mithril-128's sections are its code-size record's (Mithril-256's, in records written before that kind, its
    // memory records'): 20000 + 3000 + 15272 + 208 = 38480 bytes = 37.58 KiB, rounded up.
    expect(s).toMatch(
      /Mithril-128.*\| keygen \|.*\| 15272 \| 208 \(17 allocations\) \| code \+ data \+ stack \+ heap = 37\.6 KiB \(fits 64 \/ 128 \/ 256 KiB\): code 19\.6 \+ data 3\.0 \+ stack 15\.0 \+ heap 0\.3 \|/,
    );
    expect(s).toContain(
      "| .text | .rodata | .data | .bss | .eh_frame (not counted) | objects | shared library as loaded (PT_LOAD) |",
    );
    expect(s).toMatch(/Mithril-128.*\| 20000 \| 2900 \| 64 \| 36 \| 1200 \| kem\.o, fips202\.o \| 31337 \|/);
    expect(s).toMatch(/Mithril-256.*\| 17000 \| 2900 \| 64 \| 36 \| 1200 \| kem\.o, fips202\.o \| — \|/);
    expect(s).toContain("Stack and heap are the highest of 3 calls per operation, one per input");
    expect(s).toContain("allocations inside linked libraries (such as -lcrypto) and the C library are not counted");
  });

  it("an algorithm without memory records: no such columns, and the page says they were not measured", () => {
    const s = section5(join(out, "site", "arm_1", "kex-06.md"));
    expect(s).not.toContain("stack (painted)");
    expect(s).toContain("Stack and heap high-water: not measured");
  });

  it("a store without any memory record: the three proxy columns only, nothing said of stack or heap", () => {
    const s = section5(join(plainOut, "site", "arm_1", "kem-22.md"));
    expect(s).toContain("peak RSS |");
    expect(s).not.toContain("stack (painted)");
    expect(s).not.toMatch(/Stack|heap/);
  });
});
