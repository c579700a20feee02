// The hash-profile record: the share of one operation's time spent in the placeholder hash functions and the
// DRNG, from link-time wrappers in a profiling build (the `profile` step).
import { ref } from "./builders.ts";
import { arr, bool, fraction, int, nat, nonneg, nullable, num, obj, oneOfEnum, pickDefs, str } from "./common.ts";
import { jobFields, operationRecord } from "./header.ts";
import { groupKind, groupSource } from "./profiler-groups.ts";

export const hashProfile = operationRecord({
  kind: "hash-profile",
  title: "ngcc-perf hash/DRNG profile record",
  description:
    "Share of one operation's time spent in the placeholder hash functions and the DRNG, measured with link-time wrappers in a profiling build separate from the timing build.",
  fields: {
    ...jobFields("How the profiling build was made."),
    emulated: bool(
      "True when the profiled build ran under an emulator (compiler.emulator): calls per operation only — no share, time or tick figure (those would be the emulator's), groups is empty and no trials are kept.",
    ),
    iterations: int("Operations profiled in all.", { minimum: 1 }),
    totalNsPerOp: nonneg("Mean time per operation in the profiling build (ns), the denominator of the shares."),
    unprofiledNsPerOp: nullable(
      nonneg("Mean time per operation of the unprofiled (timing) build in the same run (ns)."),
    ),
    wrapperOverhead: nullable(num("Relative wrapper overhead: totalNsPerOp / unprofiledNsPerOp − 1.")),
    wrapperClock: oneOfEnum(
      "Clock the wrappers read (plain rdtsc on x86-64, cntvct_el0 on aarch64, else CLOCK_MONOTONIC); shares are ratios of sums in this clock.",
      ["rdtsc", "cntvct", "clock_gettime"],
    ),
    totalTicks: nonneg("Sum of the profiled trials' durations in the wrapper clock (the shares' denominator)."),
    trials: obj(
      "Raw trials of the two runs behind totalNsPerOp and unprofiledNsPerOp.",
      {
        profiled: arr(
          "Trials of the profiling build.",
          obj("One trial.", {
            iterations: int("Operations in the trial.", { minimum: 1 }),
            ns: nonneg("CLOCK_MONOTONIC duration of the trial (ns)."),
          }),
        ),
      },
      {
        unprofiled: arr(
          "Trials of the timing build.",
          obj("One trial.", {
            iterations: int("Operations in the trial.", { minimum: 1 }),
            ns: nonneg("CLOCK_MONOTONIC duration of the trial (ns)."),
          }),
        ),
      },
    ),
    katCheck: obj(
      "The KAT generator linked with the same wrappers (a profiled KAT build), compared with the reference: the wrappers must forward every call unchanged.",
      {
        verdict: oneOfEnum("PASS: identical output; FAIL: it differs; ERROR: it could not be built or run.", [
          "PASS",
          "FAIL",
          "ERROR",
        ]),
      },
      {
        comparedWith: str(
          "What the output was compared with: the committed .rsp file, or the KAT generator built from the same objects without wrappers.",
        ),
        sha256: str("SHA-256 of the profiled KAT generator's output.", { pattern: "^[0-9a-f]{64}$" }),
        message: str("On FAIL or ERROR: what differed or went wrong."),
      },
    ),
    groups: arr(
      "Per symbol group: the share of the operation's time spent inside its outermost wrapped calls.",
      obj(
        "One group.",
        {
          name: str("Group name, e.g. hash or drng.", { pattern: "^[a-z][a-z0-9_]*$" }),
          symbols: arr("Symbols in the group.", { type: "string" }),
          share: fraction(
            "Fraction of the operation's time spent in this group (0.028 = 2.8%); nested wrapped calls counted once.",
          ),
        },
        {
          label: str("Column label, e.g. pseudohash/XOF/sm3."),
          kind: groupKind,
          iccs: bool("Whether the group is ICCS placeholder functions (the page says ICCS only for these)."),
          source: groupSource,
          nsPerOp: nonneg("Mean time per operation inside the group, in ns."),
          ticks: nonneg("Time inside the group's outermost calls over all profiled trials, in the wrapper clock."),
        },
      ),
    ),
    calls: arr(
      "Calls per operation per wrapped symbol (zero counts may be left out).",
      obj(
        "One symbol.",
        {
          symbol: str("Linker symbol, e.g. pseudoXOF."),
          group: str("Group the symbol belongs to."),
          meanPerOperation: nonneg("Mean number of calls per operation (fractions allowed)."),
        },
        {
          label: str("Name shown in the calls column, e.g. drng for randombytes."),
          nsPerOp: nonneg("Mean time per operation inside this symbol's outermost calls, in ns."),
          nestedPerOperation: nonneg(
            "Mean calls per operation made from inside another wrapped call of the same group (not in meanPerOperation, not timed again).",
          ),
          callsPerOperation: obj(
            "The distribution of the outermost calls (as meanPerOperation counts them) over the profiled operations, each operation counted alone: for a rejection-sampling function 1 + the rejections.",
            {
              min: nat("Fewest calls in one operation."),
              max: nat("Most calls in one operation."),
              median: nonneg("Median calls per operation (a half when the two middle operations differ)."),
              mean: nonneg("Mean calls per operation (equals meanPerOperation)."),
              operations: nat("Operations counted (the profiled trials' iterations)."),
            },
            {
              histogram: arr(
                "Calls → operations, in increasing calls; present when there are at most 64 distinct values.",
                {
                  type: "array",
                  description: "[calls, operations that made that many]",
                  prefixItems: [nat("Calls."), nat("Operations.", { minimum: 1 })],
                  items: nat("Calls or operations."),
                  minItems: 2,
                  maxItems: 2,
                },
                { minItems: 1, maxItems: 64 },
              ),
            },
          ),
        },
      ),
    ),
    blindSpots: arr(
      "Configured symbols that cannot be intercepted, reported instead of a silent 0%.",
      obj(
        "One blind spot.",
        {
          symbol: str("The symbol."),
          reason: oneOfEnum(
            "same-object: defined in the same object as its callers; static: not an external symbol; inlined: no call remains; not-referenced: never called.",
            ["same-object", "static", "inlined", "not-referenced"],
          ),
        },
        { detail: str("Where it was found (object file, caller).") },
      ),
    ),
    commands: arr("Child processes run.", ref("command", "One process.")),
  },
  defs: pickDefs("provenance", "failure", "build", "command"),
  ok: { required: ["groups", "calls"] },
});
