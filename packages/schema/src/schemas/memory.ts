// The memory record: stack and heap high-water of one operation (the `memory` step, docs/methodology.md
// "Memory"), measured by the driver's memory executable in a fresh process of its own.
import { recordSchema, ref } from "./builders.ts";
import {
  algorithmId,
  arr,
  buildProfileName,
  implementationName,
  inputsHash,
  instanceName,
  int,
  nat,
  obj,
  oneOfEnum,
  operationName,
  pickDefs,
  str,
  systemId,
} from "./common.ts";

export const memory = recordSchema(
  "memory",
  "ngcc-perf memory record",
  "Stack and heap high-water of one call of one operation: the call run on a painted stack of its own (the deepest overwritten 8-byte word, the harness's no-op baseline subtracted) with the instance's allocation calls renamed to counting wrappers (peak live bytes requested, allocations). Exact and repeatable; the seeds' RSS proxies stay in the timing record.",
  {
    provenance: ref("provenance", "Where this record came from."),
    system: systemId,
    algorithmId,
    instance: instanceName,
    implementation: implementationName,
    buildProfile: buildProfileName,
    operation: operationName,
    status: oneOfEnum("ok: measured; failed: the job failed, see failure.", ["ok", "failed"]),
  },
  {
    inputsHash,
    failure: ref("failure", "Why the job failed."),
    build: ref("build", "How the measured program (the memory executable, build.artifact) was built."),
    stackBytes: nat(
      "Stack high-water of one call, in bytes, exact to the 8-byte word: the deepest overwritten word of the painted stack, minus stackBaselineBytes; absent when the stack could not be painted (AddressSanitizer builds, see limits).",
    ),
    stackBaselineBytes: nat(
      "The harness's own part of that figure (the same stack switch with a no-op call), in bytes; already subtracted from stackBytes.",
    ),
    heapPeakBytes: nat(
      "Peak live heap bytes (as requested, not the allocator's rounding) of the instance's own allocation calls (method.heap.functions) during one call, less what it freed; absent when the calls could not be renamed (-flto, see limits).",
    ),
    heapAllocations: nat(
      "Allocations (successful calls of the allocating functions among method.heap.functions; a realloc counts as one) of the instance's code during one call.",
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
  pickDefs("provenance", "failure", "build", "command"),
  {
    allOf: [
      {
        if: { properties: { status: { const: "failed" } }, required: ["status"] },
        then: { required: ["failure"] },
      },
      {
        if: { properties: { status: { const: "ok" } }, required: ["status"] },
        then: { required: ["build", "method", "commands"] },
      },
    ],
  },
);
