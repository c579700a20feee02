// The memory record: stack and heap high-water of one operation (the `memory` step, docs/methodology.md
// "Memory"), measured by the driver's memory executable in a fresh process of its own.
import { ref } from "./builders.ts";
import { arr, int, nat, nonneg, obj, oneOfEnum, pickDefs, str } from "./common.ts";
import { jobFields, operationRecord } from "./header.ts";
import { sectionSizes } from "./section-sizes.ts";

export const memory = operationRecord({
  kind: "memory",
  title: "ngcc-perf memory record",
  description:
    "Stack and heap high-water of one operation, the maximum over many inputs (inputs: KAT count i's seed behind randombytes for input i, at most 100): each call run on a painted stack of its own (the deepest overwritten 8-byte word, the harness's no-op baseline subtracted) with the instance's allocation calls renamed to counting wrappers (peak live bytes requested, allocations), every input's figures in distribution; (the code and data size by section of the instance's objects are the code-size record's). Exact and repeatable; the seeds' RSS proxies stay in the timing record.",
  fields: {
    ...jobFields("How the measured program (the memory executable, build.artifact) was built."),
    inputs: obj(
      "The inputs the operation ran on (one call each, in one process): input i is made, as the KAT generator makes count i's, after randombytes was seeded with KAT count i's 48-byte seed (the NIST AES-256 CTR_DRBG seeded with 0x00..0x2F yields the seeds).",
      {
        count: int("Inputs run (calls measured); the figures are the maxima over them.", { minimum: 1 }),
        asked: int("Inputs asked for.", { minimum: 1 }),
        limitedBy: oneOfEnum(
          "inputs: every input asked for ran; time-limit: the run stopped after count inputs to stay within the operation timeout.",
          ["inputs", "time-limit"],
        ),
        source: oneOfEnum(
          "kat-seeds: the KAT DRBG behind randombytes, reseeded per input (input i = KAT count i); build-randomness: the build's own randomness (no randomness source to replace: one input).",
          ["kat-seeds", "build-randomness"],
        ),
        description: str("The inputs in words."),
      },
    ),
    stackBytes: nat(
      "Stack high-water in bytes, exact to the 8-byte word: the maximum over the inputs of the deepest overwritten word of the painted stack, minus stackBaselineBytes; absent when the stack could not be painted (AddressSanitizer builds, see limits).",
    ),
    stackBaselineBytes: nat(
      "The harness's own part of that figure (the same stack switch with a no-op call), in bytes; already subtracted from stackBytes.",
    ),
    heapPeakBytes: nat(
      "Peak live heap bytes (as requested, not the allocator's rounding) of the instance's own allocation calls (method.heap.functions) during one call, less what it freed, the maximum over the inputs; absent when the calls could not be renamed (-flto, see limits). Allocations inside linked libraries (-lcrypto, the C library's own) are not counted.",
    ),
    heapAllocations: nat(
      "Allocations (successful calls of the allocating functions among method.heap.functions; a realloc counts as one) of the instance's code during one call, the maximum over the inputs.",
    ),
    distribution: obj(
      "Every input's figures (present with inputs): stack bytes, heap peak bytes and allocations per call.",
      {},
      {
        stackBytes: ref("memoryDistribution", "Stack high-water per input (present when stackBytes is)."),
        heapPeakBytes: ref("memoryDistribution", "Heap peak per input (present when heapPeakBytes is)."),
        heapAllocations: ref("memoryDistribution", "Allocations per input (present when heapAllocations is)."),
      },
    ),
    sections: sectionSizes(
      "Code and data size of the instance's own objects, in records written before the code-size step had records of its own (now in the code-size record).",
    ),
    method: obj(
      "How the figures were measured.",
      {},
      {
        stack: obj("The painted stack (present when stackBytes is).", {
          regionBytes: int(
            "Size of the painted stack the call ran on, in bytes (mmap'ed, a PROT_NONE guard page below).",
            {
              minimum: 1,
            },
          ),
          pattern: str("The 64-bit word every 8-byte word of it was painted with, in hex, e.g. 0x6e6763635f73746b."),
          entry: str("How the call was put on that stack, e.g. makecontext / swapcontext."),
        }),
        heap: obj("The interposed allocation calls (present when heapPeakBytes is).", {
          functions: arr(
            "The C library functions whose calls in the instance's objects were renamed to counting wrappers.",
            {
              type: "string",
            },
          ),
          technique: str("How, e.g. objcopy --redefine-sym on copies of the instance's objects."),
        }),
      },
    ),
    limits: arr(
      "What this build could not give, or gave differently, and why (e.g. no heap figure under -flto; the stack of an AddressSanitizer build).",
      {
        type: "string",
      },
    ),
    messageBytes: nat("Signed message length (signatures)."),
    commands: arr("Child processes run.", ref("command", "One process.")),
  },
  defs: {
    ...pickDefs("provenance", "failure", "build", "command"),
    memoryDistribution: obj("One figure over the inputs.", {
      min: nat("Smallest value."),
      median: nonneg("Median (the mean of the two middle values for an even count)."),
      max: nat("Largest value (the record's figure)."),
      maxInput: nat("The input (KAT count) that gave the largest value first."),
      values: arr("Every input's value, input 0 first.", nat("One input's value.")),
    }),
  },
  ok: { required: ["build", "method", "commands"] },
});
