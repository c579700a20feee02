// Definitions shared by several record kinds. Each generated schema carries its own copy of the
// definitions it uses in `$defs`, so every schema file stands alone.
import { arr, bool, int, type JsonSchema, nat, nonneg, nullable, num, obj, oneOfEnum, str } from "./builders.ts";

/** RFC 3339 date-time (as a pattern, so the compiled validators need no format library). */
export const dateTime = (description: string): JsonSchema =>
  str(description, { pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$" });

export const ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_.+-]*$";

export const systemId = str("System (machine class) the measurement ran on, e.g. x86_1 or arm_1.", {
  pattern: ID_PATTERN,
});
export const algorithmId = str("Algorithm (submission) id, e.g. kem-20.", { pattern: ID_PATTERN });
export const instanceName = str("Instance: one parameter set of one implementation, e.g. MAMBA-Frost-CC-384.", {
  pattern: ID_PATTERN,
});
export const implementationName = str("Implementation version the instance belongs to, e.g. reference.", {
  minLength: 1,
});
export const buildProfileName = str(
  "Build profile (named compiler flag set) the instance was built with, e.g. guide.",
  {
    pattern: ID_PATTERN,
  },
);
export const operationName = str(
  "Timed operation: keygen, enc, dec (KEM); keygen, sign, verify (signature); a key-exchange step such as init_a, init_b, pass1, pass2, derive_a, derive_b, or exchange (the whole protocol).",
  { pattern: "^[a-z][a-z0-9_]*$" },
);
export const category = oneOfEnum("Algorithm category: key encapsulation, signature or key exchange.", [
  "kem",
  "sign",
  "kex",
]);
export const relPath = str("Path relative to the system's folder of the store (data/<system>/), with / separators.", {
  pattern: "^(?!/)(?!.*(^|/)\\.\\.(/|$))[^\\\\]+$",
});
export const inputsHash = str(
  "SHA-256 (lower-case hex) over the job's inputs (sources, flags, compiler version, configuration); a job whose record holds the same hash is skipped on --resume.",
  { pattern: "^[0-9a-f]{64}$" },
);

export const defs: Record<string, JsonSchema> = {
  sha256: str("SHA-256 digest, 64 lower-case hex digits.", { pattern: "^[0-9a-f]{64}$" }),
  provenance: obj(
    "Where the record came from.",
    {
      origin: oneOfEnum(
        "measured: produced by a run of ngcc-perf; synthesized: made up to be consistent with published aggregates (e.g. the seed store), never a measurement; curated: written by a person.",
        ["measured", "synthesized", "curated"],
      ),
      tool: obj("The program that wrote the record.", {
        name: str("Program name, e.g. ngcc-perf.", { minLength: 1 }),
        version: str("Program version.", { minLength: 1 }),
      }),
      createdAt: dateTime("When the record was written (UTC, RFC 3339)."),
    },
    {
      source: str("What the record was derived from when not measured (e.g. the seed page's file name)."),
      note: str("Free-text remark on the record's origin."),
    },
  ),
  command: obj(
    "One child process the harness ran to produce the record.",
    {
      argv: arr(
        "Program and arguments, exactly as passed to the operating system (never a shell string).",
        {
          type: "string",
        },
        { minItems: 1 },
      ),
      exitCode: nullable(int("Exit status, or null when the process was ended by a signal or timed out.")),
      signal: nullable(str("Signal name that ended the process (e.g. SIGSEGV), or null.")),
      durationMs: nonneg("Wall-clock duration of the process in milliseconds (ms)."),
      timedOut: bool("True when the process was killed because it exceeded its time limit."),
    },
    {
      cwd: str("Working directory the process ran in."),
      timeLimitMs: nonneg("Time limit applied to the process in milliseconds (ms)."),
      stderrTail: str("Last part of the process's standard error (bounded)."),
      sandboxed: bool(
        "True when the process ran in ngcc-perf's sandbox (bubblewrap, resource limits, an unprivileged user; docs/security.md); false when it ran unconfined because the campaign set sandbox.enabled: false. Absent in records made before the sandbox.",
      ),
    },
  ),
  failure: obj(
    "Why a job failed; present when status is failed.",
    {
      reason: oneOfEnum(
        "compile-error: the instance did not build; crash: killed by a signal; timeout: exceeded its time limit; canary: wrote past an output buffer; check-failed: a result check failed (dec did not recover the key, verify rejected, sides disagree); kat-failed: not timed because its KAT failed; error: anything else.",
        ["compile-error", "crash", "timeout", "canary", "check-failed", "kat-failed", "error"],
      ),
      message: str("Human-readable explanation."),
    },
    {
      signal: nullable(str("Signal name, e.g. SIGSEGV.")),
      exitCode: nullable(int("Exit status of the failing process.")),
      stderrTail: str("Last part of the failing process's standard error (bounded)."),
    },
  ),
  build: obj(
    "How the measured binary was built.",
    {
      compiler: str("Compiler command used, e.g. gcc."),
      compilerVersion: str("First line of the compiler's --version output."),
      flags: arr("Compiler flags of the build profile, in order.", { type: "string" }),
    },
    {
      defines: arr("Preprocessor defines the instance adds (e.g. -D_AES128_FOR_A_).", { type: "string" }),
      ldflags: arr("Linker flags.", { type: "string" }),
      sourcesSha256: str("SHA-256 over the instance's source files (sorted by path).", { pattern: "^[0-9a-f]{64}$" }),
      artifact: str("Path of the built artifact (shared object or executable) in the build cache."),
      linkage: oneOfEnum(
        "How the timed code was linked: static-objects — the instance's objects, compiled without -fPIC, linked straight into the driver (as a submitter's own speed test is built); shared-object — through libinstance.so (records before the per-call method).",
        ["static-objects", "shared-object"],
      ),
    },
  ),
  counter: obj(
    "The counter that produced the record's counter figures.",
    {
      kind: oneOfEnum(
        "rdtsc: x86-64 time-stamp counter (constant reference rate, not core cycles); perf-cycles: core cycles from perf_event; perf-instructions: instructions retired, from perf_event; cntvct: aarch64 generic timer; clock_gettime: CLOCK_MONOTONIC nanoseconds; fixed-clock: core cycles computed as time × a fixed, configured clock frequency.",
        ["rdtsc", "perf-cycles", "perf-instructions", "cntvct", "clock_gettime", "fixed-clock"],
      ),
      unit: oneOfEnum(
        "Unit of counterDelta and of every *Counter figure: tsc-ticks (never to be called cycles), core-cycles, instructions (retired), timer-ticks (cntvct), ns.",
        ["tsc-ticks", "core-cycles", "instructions", "timer-ticks", "ns"],
      ),
      rateHz: nullable(
        nonneg("Counter increments per second (Hz): the measured TSC rate, the timer frequency, or the fixed clock."),
      ),
      overhead: nullable(
        nonneg(
          "Cost of one counter read in the counter's unit: interquartile mean of back-to-back read differences, measured at start; null when not known (records made from published pages).",
        ),
      ),
    },
    {
      serialization: str(
        "How reads are ordered against surrounding instructions (e.g. lfence; rdtsc / rdtscp; lfence).",
      ),
      description: str("Free-text description of the counter."),
    },
  ),
  memory: obj("Memory figures of one operation, each from a fresh process.", {
    elfImageBytes: nat(
      "Static memory proxy: sum of the memory sizes of the PT_LOAD segments of the instance's shared object, in bytes.",
    ),
    baselineRssKiB: nat("Resident set size (VmRSS) just before the operation, in KiB."),
    peakRssKiB: nat("Process high-water mark (VmHWM) after the operation, in KiB; includes driver and libc."),
  }),
  trial: obj("One timed batch of iterations.", {
    iterations: int("Iterations (operations) timed in this trial.", { minimum: 1 }),
    counterDelta: nonneg("Counter difference over the whole trial, in the counter's unit (see counter.unit)."),
    ns: nonneg("Wall-clock nanoseconds over the whole trial (ns), from CLOCK_MONOTONIC."),
  }),
  interval: obj("A two-sided interval.", {
    low: num("Lower bound."),
    high: num("Upper bound."),
  }),
};

/** Names in `$defs` that a schema uses, so only those are copied into it. */
export function pickDefs(...names: string[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const n of names) {
    const d = defs[n];
    if (!d) throw new Error(`unknown def ${n}`);
    out[n] = d;
  }
  return out;
}

export const keyFields = { algorithmId, instance: instanceName };

/** A link shown in section 1 of a page (the campaign's and the store index's). */
export const link = obj(
  "A link shown in section 1 of a page.",
  { label: str("Link text, e.g. kem-20 report.") },
  {
    href: nullable(str("Target URL or relative path; null when only the label is known.")),
  },
);

/** A key exchange's message sizes in pass order (the size catalog's and the size audit's). */
export const kexMessageList = (description: string) =>
  arr(description, { type: "integer", minimum: 0 }, { minItems: 1 });

/** A length distribution's figures, in bytes (the KAT record's and the size audit's). */
export const lengthFields = {
  min: nat("Shortest, bytes."),
  mean: nonneg("Mean, bytes."),
  max: nat("Longest, bytes."),
  samples: int("Outputs measured.", { minimum: 1 }),
};

export const fraction = (description: string): JsonSchema => num(description, { minimum: 0, maximum: 1 });
export { arr, bool, int, nat, nonneg, nullable, num, obj, oneOfEnum, str };
