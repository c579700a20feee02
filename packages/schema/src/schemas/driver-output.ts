// What the native programs print on stdout (native/README.md): the timing driver's commands (info, check, time,
// sample, memory, overhead), the counter probe, the instruction counter and the constant-time test. All but the
// probe also run a submission's code, so their JSON line is what that process wrote, not necessarily the
// driver: the runner validates every line against the schema of its kind before any figure is derived from it
// (docs/security.md). Not records of a store: no kind or schemaVersion field. Bounds follow the programs' own
// limits (the command-line caps in native/); what one field implies for another (switchedOut indices below the
// sample count, per-input arrays of the input count) is checked beside the schema (driver-output.ts in src/).
import { DRAFT, ID_BASE, type JsonSchema } from "./builders.ts";
import { arr, bool, int, nat, nonneg, nullable, num, obj, oneOfEnum, pickDefs, str } from "./common.ts";

/** The timing record's counter kinds and units (one list of each). */
const recordCounter = pickDefs("counter").counter as { properties: Record<string, JsonSchema> };
const counterKind = recordCounter.properties.kind as JsonSchema;

/** The driver's caps (ngcc_driver.c, ngcc_icount.c, ngcc_ct.c, ngcc_probe.c, ngcc_hw.h). */
const CAP = {
  samples: 10_000_000,
  keys: 4096,
  pool: 65_536,
  batch: 1_000_000_000,
  trials: 100_000,
  messageBytes: 2 ** 30,
  hwInputs: 100,
  icountCalls: 100_000,
  ctKeys: 64,
  declassifySites: 64,
  leakMeasurements: 10_000_000,
  probeRounds: 10_000,
} as const;

const positive = (description: string): JsonSchema => num(description, { exclusiveMinimum: 0 });
const count = (description: string, maximum?: number): JsonSchema =>
  int(description, { minimum: 1, ...(maximum !== undefined ? { maximum } : {}) });
const operation = str("The operation, as --op named it.", { minLength: 1, maxLength: 32 });
const messageBytes = nat("The signed message length (--msg-bytes), echoed.", { maximum: CAP.messageBytes });
const pinnedCpu = nullable(nat("The CPU the process was pinned to (--pin), or null.", { maximum: 1023 }));
const deltas = (description: string, maxItems: number): JsonSchema =>
  arr(description, nonneg("One counter delta, in the counter's unit."), { minItems: 1, maxItems });

const counter = obj("The counter: exactly the fields of the timing record's counter object.", {
  kind: counterKind,
  unit: recordCounter.properties.unit as JsonSchema,
  rateHz: nullable(positive("Counter increments per second (Hz); null when not finite.")),
  overhead: nullable(nonneg("Cost of one counter read in the counter's unit; null when not finite.")),
  serialization: str("How reads are ordered against surrounding instructions."),
  description: str("The counter in words."),
});

const lengthStats = obj("smlen − mlen over the sign calls the process made.", {
  min: nat("Shortest signature, bytes."),
  max: nat("Longest signature, bytes."),
  sum: nat("Sum of the lengths, bytes."),
  count: nat("Sign calls counted."),
});
const lengths = obj(
  "Output lengths: signatureBytes for a signature's sign (and check); {} otherwise.",
  {},
  {
    signatureBytes: lengthStats,
  },
);

const inputs = obj("How the inputs varied from call to call (the timing record's sampling.inputs).", {
  keyPairs: nat("Key pairs in rotation (0 when the operation takes none).", { maximum: CAP.keys }),
  pool: nat("Pool entries in rotation (0 when none).", { maximum: CAP.pool }),
  messages: oneOfEnum("fresh: a fresh message per call; pool: from the pool; none.", ["fresh", "pool", "none"]),
  description: str("The same in words."),
});

/** A program's output schema: a closed object with the $id of its kind. */
function outputSchema(
  kind: string,
  title: string,
  description: string,
  required: Record<string, JsonSchema>,
  optional: Record<string, JsonSchema> = {},
): JsonSchema {
  return { $schema: DRAFT, $id: `${ID_BASE}${kind}.schema.json`, title, ...obj(description, required, optional) };
}

const info = outputSchema(
  "driver-info",
  "ngcc-driver info output",
  "The instance's category, API sizes and the counters usable here (ngcc-driver info).",
  {
    category: oneOfEnum("The instance's category.", ["kem", "sign", "kex"]),
    algname: nullable(str("CRYPTO_ALGNAME, or null when absent.")),
    namespace: nullable(str("-DNGCC_NAMESPACE, or null.")),
    sizes: {
      type: "object",
      description: "The API macros by name (publicKeyBytes, …), in bytes.",
      propertyNames: { pattern: "^[a-z][A-Za-z0-9]{0,63}$" },
      maxProperties: 32,
      additionalProperties: nat("Bytes."),
    },
    counters: arr("The counter kinds usable here.", counterKind, { minItems: 1, uniqueItems: true }),
    defaultCounter: counterKind,
  },
);

const check = outputSchema(
  "driver-check",
  "ngcc-driver check output",
  "The functional check passed (ngcc-driver check): round trips and a tampered case.",
  {
    ok: { const: true, description: "Always true: a failed check exits 3 with nothing printed." },
    iterations: count("Round trips made (--iterations)."),
    messageBytes,
    lengths,
  },
);

const profileSymbol = obj(
  "One wrapped symbol.",
  {
    name: str("The symbol."),
    group: str("Its group."),
    outer: nat("Outermost calls."),
    nested: nat("Calls made inside another wrapped call."),
    ticks: nat("Ticks inside its outermost calls."),
  },
  {
    perOperation: nullable(
      obj(
        "Outermost calls per operation (null: the histogram was lost).",
        {
          operations: nat("Operations counted."),
          min: nat("Fewest calls in one operation."),
          max: nat("Most calls in one operation."),
          median: nonneg("Median calls per operation (a half at most).", { multipleOf: 0.5 }),
          sum: nat("Calls over all operations."),
          distinct: nat("Distinct call counts."),
        },
        {
          histogram: arr(
            "[calls, operations] per distinct count, in increasing calls.",
            arr("[calls, operations].", nat("A count."), { minItems: 2, maxItems: 2 }),
            { maxItems: 64 },
          ),
        },
      ),
    ),
  },
);

const profile = obj("What the hash/DRNG profiler's wrappers counted during the trials (-DNGCC_PROFILE only).", {
  clock: oneOfEnum("The wrappers' clock.", ["rdtsc", "cntvct", "clock_gettime"]),
  totalTicks: nat("Ticks over the trials."),
  groups: arr(
    "Per group.",
    obj("One group.", { name: str("The group."), ticks: nat("Ticks."), outer: nat("Outermost calls.") }),
  ),
  symbols: arr("Per wrapped symbol.", profileSymbol),
});

const time = outputSchema(
  "driver-time",
  "ngcc-driver time output",
  "Trials of one operation (ngcc-driver time): one counter delta and one CLOCK_MONOTONIC delta per trial.",
  {
    op: operation,
    counter,
    warmupIterations: count("Iterations of the warm-up."),
    iterationsPerTrial: count("Iterations in every trial."),
    calibration: obj("How iterations per trial were chosen.", {
      targetNs: nat("--target-ns."),
      warmupNs: nat("--warmup-ns."),
      minIterations: count("--min-iterations."),
      maxIterations: count("--max-iterations."),
      estimateNs: positive("The warm-up's estimate of one iteration, ns."),
      limitedBy: oneOfEnum("The rule that fixed iterationsPerTrial.", [
        "min-iterations",
        "target-ns",
        "counter-overhead",
        "max-iterations",
      ]),
    }),
    trials: arr(
      "The trials, in order.",
      obj("One trial.", {
        iterations: count("Iterations."),
        counterDelta: nonneg("Counter delta over the trial, in the counter's unit."),
        ns: nonneg("CLOCK_MONOTONIC ns over the trial."),
      }),
      { minItems: 1, maxItems: CAP.trials },
    ),
    pinnedCpu,
    messageBytes,
  },
  { lengths, profile },
);

const sample = outputSchema(
  "driver-sample",
  "ngcc-driver sample output",
  "Per-call samples of one operation (ngcc-driver sample): one counter delta per sample of batch calls.",
  {
    op: operation,
    counter,
    estimateNs: positive("The warm-up's estimate of one call, ns."),
    warmupCalls: count("Calls the warm-up made."),
    batch: count("Calls per sample.", CAP.batch),
    batchReason: str("Why this batch, in words."),
    samplesLimitedBy: oneOfEnum("The rule that fixed the sample count.", ["sample-ns", "min-samples", "max-samples"]),
    settings: obj("The settings, echoed.", {
      sampleNs: nat("--sample-ns."),
      warmupNs: nat("--warmup-ns."),
      minSamples: count("--min-samples.", CAP.samples),
      maxSamples: count("--max-samples.", CAP.samples),
      batch: { description: "--batch: auto or a count.", anyOf: [{ const: "auto" }, count("A count.", CAP.batch)] },
      keys: count("--keys.", CAP.keys),
      pool: count("--pool.", CAP.pool),
      seed: nat("--seed."),
    }),
    inputs,
    pinnedCpu,
    messageBytes,
    elapsedNs: obj("CLOCK_MONOTONIC ns of the warm-up's timed calls and of the sampling loop.", {
      warmup: nonneg("Warm-up, ns."),
      sampling: nonneg("Sampling loop, ns."),
    }),
    samples: deltas("One counter delta per sample, in the order taken.", CAP.samples),
  },
  {
    switchedOut: arr(
      "The samples (0-based, ascending, each once) during which the process was switched out; absent when none.",
      nat("A sample index (below the sample count).", { maximum: CAP.samples - 1 }),
      { minItems: 1, maxItems: CAP.samples, uniqueItems: true },
    ),
    clockChain: obj("The core-clock probe after every sample.", {
      adds: int("Adds of the dependent chain.", { minimum: 8, maximum: 100_000_000 }),
      deltas: deltas("One probe per sample.", CAP.samples),
    }),
    throughputChain: obj("The contention probe after every sample.", {
      adds: int("Adds over all chains.", { minimum: 32, maximum: 100_000_000 }),
      chains: count("Independent chains.", 64),
      deltas: deltas("One probe per sample.", CAP.samples),
    }),
    lengths,
  },
);

/** One natural figure per input (memory) or per counted call (icount), at most `maxItems`. */
const perEntry = (description: string, entry: string, maxItems: number): JsonSchema =>
  arr(description, nat(entry), { minItems: 1, maxItems });
const perInput = (description: string): JsonSchema => perEntry(description, "One input's figure.", CAP.hwInputs);

const memory = outputSchema(
  "driver-memory",
  "ngcc-driver memory output",
  "RSS proxies and the stack and heap high-water of one operation (ngcc-driver memory).",
  { op: operation, messageBytes },
  {
    baselineRssKiB: nat("VmRSS before the call, KiB."),
    peakRssKiB: nat("VmHWM after the call, KiB."),
    hwmReset: bool("Whether the high-water mark was reset before the call."),
    hwmResetError: str("Why the reset failed."),
    inputs: obj("The high-water run's inputs.", {
      count: count("Inputs run.", CAP.hwInputs),
      asked: count("Inputs asked for (--inputs).", CAP.hwInputs),
      limitedBy: oneOfEnum("Why it stopped.", ["inputs", "time-limit"]),
      source: oneOfEnum("Where the inputs came from.", ["kat-seeds", "build-randomness"]),
    }),
    stackBytes: nat("Stack high-water, bytes (the baseline subtracted)."),
    stackMaxInput: nat("The first input that gave it (below the input count)."),
    stackBaselineBytes: nat("The harness's own stack, bytes."),
    stackRegionBytes: nat("The painted stack's size, bytes."),
    stackPattern: str("The paint.", { pattern: "^0x[0-9a-f]{16}$" }),
    stackBytesPerInput: perInput("Stack high-water per input."),
    heapPeakBytes: nat("Peak live heap bytes."),
    heapMaxInput: nat("The first input that gave it (below the input count)."),
    heapAllocations: nat("Most allocations of one call."),
    heapPeakBytesPerInput: perInput("Peak live heap bytes per input."),
    heapAllocationsPerInput: perInput("Allocations per input."),
  },
);

const overhead = outputSchema("driver-overhead", "ngcc-driver overhead output", "The counter (ngcc-driver overhead).", {
  counter,
});

const probeDeltas = (description: string): JsonSchema => deltas(description, CAP.probeRounds);

const probe = outputSchema(
  "driver-probe",
  "ngcc-probe output",
  "The counters this machine offers, and one counter's rate and overhead (ngcc-probe, for ngcc-perf env).",
  {
    available: arr("The counter kinds usable here (fixed-clock aside).", counterKind, { uniqueItems: true }),
    default: counterKind,
    counter,
  },
  {
    contention: nullable(
      obj("--contention ROUNDS: the two probes, 5 ms apart (null: the counter has no chain).", {
        adds: int("Adds of the dependent chain.", { minimum: 8 }),
        throughputAdds: count("Adds of the contention probe, over all chains."),
        chains: count("Its chains.", 64),
        clockDeltas: probeDeltas("Core-clock probe deltas."),
        throughputDeltas: probeDeltas("Contention probe deltas."),
      }),
    ),
  },
);

const counts = (description: string): JsonSchema => perEntry(description, "One call's figure.", CAP.icountCalls);

const icount = outputSchema(
  "driver-icount",
  "ngcc-icount output",
  "The counted calls of one operation (ngcc-icount, under callgrind); the counts themselves are callgrind's dumps.",
  {
    op: operation,
    calls: count("Calls counted (--calls).", CAP.icountCalls),
    warmupCalls: nat("Calls run before, not counted.", { maximum: 1 }),
    chunks: count("Chunks the calls were staged in."),
    messageBytes,
    seed: nat("--seed."),
    inputs,
    randombytes: obj("The randombytes requests of each counted call (one entry per call).", {
      calls: counts("Requests per call."),
      bytes: counts("Bytes asked for per call."),
    }),
    onValgrind: bool("Whether the program ran under valgrind."),
  },
);

const marks = (description: string): JsonSchema => arr(description, str("What was marked."), { minItems: 1 });

const ct = outputSchema(
  "driver-ct",
  "ngcc-ct output",
  "What the constant-time test marked for one operation (ngcc-ct, under memcheck); the findings are memcheck's.",
  {
    op: operation,
    category: oneOfEnum("The instance's category.", ["kem", "sign", "kex"]),
    calls: count("Tested calls.", CAP.ctKeys),
    keyPairs: count("Key pairs (--keys).", CAP.ctKeys),
    messageBytes,
    secret: marks("What was marked secret."),
    declassified: marks("What was declassified."),
    randomBytesMarked: nat("Randomness marked undefined, bytes."),
    declassifySites: arr(
      "The instance's crypto_declassify call sites reached while a tested call ran, in the order first reached (at most 64).",
      obj("One call site.", {
        file: str("Its __FILE__, as the compiler was given it.", { maxLength: 4096 }),
        line: nat("Its __LINE__."),
        calls: count("Calls there."),
        bytes: nat("Bytes declassified there, summed."),
      }),
      { maxItems: CAP.declassifySites },
    ),
    declassifyOtherCalls: nat("Calls at sites beyond the first 64 (not listed)."),
    onValgrind: bool("Whether the program ran under valgrind."),
  },
  { note: str("A note on the marking.") },
);

const leak = outputSchema(
  "driver-leak",
  "ngcc-leak output",
  "The measurements of the fixed-vs-random timing test of one operation (ngcc-leak): each call's counter delta, in call order, and its class.",
  {
    op: operation,
    category: oneOfEnum("The instance's category.", ["kem", "sign"]),
    measurements: count("Calls measured (--measurements).", CAP.leakMeasurements),
    seed: nat("--seed: the generator of the classes, the fresh inputs and the fresh DRBG seeds."),
    messageBytes,
    pinnedCpu,
    counter: obj("The counter the calls were timed with.", {
      kind: counterKind,
      unit: recordCounter.properties.unit as JsonSchema,
      rateHz: nullable(positive("Counter increments per second (Hz); null when not finite.")),
    }),
    classes: obj("The two input classes, in words.", {
      fixed: str("Class 0: the same inputs at every call."),
      random: str("Class 1: inputs that differ from call to call."),
    }),
    times: arr("Each call's counter delta, in the counter's unit, in call order.", nonneg("One delta."), {
      maxItems: CAP.leakMeasurements,
    }),
    class: str("Each call's class, in call order: 0 fixed, 1 random.", { pattern: "^[01]*$" }),
  },
);

/** Every driver-output schema by kind. */
export const driverOutputs = {
  "driver-info": info,
  "driver-check": check,
  "driver-time": time,
  "driver-sample": sample,
  "driver-memory": memory,
  "driver-overhead": overhead,
  "driver-probe": probe,
  "driver-icount": icount,
  "driver-ct": ct,
  "driver-leak": leak,
} as const;

/** The kinds of driver output. */
export type DriverOutputKind = keyof typeof driverOutputs;
export const DRIVER_OUTPUT_KINDS = Object.keys(driverOutputs) as DriverOutputKind[];
