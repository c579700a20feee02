// The comparison of two record stores (`ngcc-perf compare`, docs/report.md "Comparing stores"): written as
// compare.json beside compare.md and compare.html; not a record of a store.
import {
  arr,
  bool,
  int,
  type JsonSchema,
  nat,
  nonneg,
  nullable,
  num,
  obj,
  oneOfEnum,
  recordSchema,
  str,
} from "./builders.ts";
import { algorithmId, buildProfileName, instanceName, operationName, relPath, systemId } from "./common.ts";

const key = obj(
  "The measurement: system, algorithm, instance, build profile (of A when profiles are paired), operation.",
  {
    system: systemId,
    algorithmId,
    instance: instanceName,
    buildProfile: buildProfileName,
    operation: operationName,
  },
);

const side = obj(
  "One side of the comparison.",
  { store: str("The store as named on the command line.") },
  { profile: buildProfileName },
);

const records = obj("The records compared, relative to their system's folder.", { a: relPath, b: relPath });
const ratio = nullable(nonneg("B ÷ A; null when A's figure is 0 and B's is not."));

export const comparison: JsonSchema = recordSchema(
  "comparison",
  "ngcc-perf comparison of two record stores",
  "Every measurement of store B against store A (or build profile B against build profile A): the ratio B/A of the published figure with a 95 % bootstrap interval and a verdict against a noise band; instruction counts compared exactly; what could not be compared.",
  {
    a: side,
    b: side,
    threshold: nonneg("The noise band: a ratio within [1 − threshold, 1 + threshold] is no change.", { maximum: 1 }),
    method: obj("How the intervals were computed.", {
      resamples: int("Bootstrap resamples.", { minimum: 1 }),
      seed: nat("Base seed of the generator (each measurement's seed is derived from it and the key)."),
      interval: str("The interval, in words."),
    }),
    timings: arr(
      "Timings present in both, status ok on both sides, in key order.",
      obj(
        "One timing compared.",
        {
          key,
          figure: obj("The figure compared.", {
            statistic: oneOfEnum("The published statistic (the mean of both when the sides publish different ones).", [
              "median",
              "mean",
            ]),
            unit: oneOfEnum("cycles: estimated core cycles per call (both records targeted them); ns: time per call.", [
              "cycles",
              "ns",
            ]),
          }),
          a: nonneg("A's figure, in figure.unit."),
          b: nonneg("B's figure, in figure.unit."),
          ratio,
          ci95: obj("2.5th and 97.5th percentiles of the bootstrap ratios; null when no resample could be formed.", {
            low: nullable(num("Lower bound.")),
            high: nullable(num("Upper bound.")),
          }),
          verdict: oneOfEnum(
            "slower: the interval lies above 1 + threshold; faster: below 1 − threshold; same: otherwise; not-comparable: the sides were measured in different contention states and one has fewer than 2 uncontended workers to compare over (no verdict).",
            ["faster", "slower", "same", "not-comparable"],
          ),
          records,
        },
        {
          oneWorker: bool("A side was sampled by one worker: the interval holds no process-to-process noise."),
          timeRatio: nonneg("The time ratio B/A, when the figure is the estimated cycles."),
          note: str(
            "Why the figure is not each side's published one, why the interval is narrower than it should be, or why there is no verdict.",
          ),
          aRelativeHalfWidth: nonneg(
            "A's own 95 % interval of the figure as a fraction of it (the record's), when the figure is A's published one.",
          ),
          bRelativeHalfWidth: nonneg(
            "B's own 95 % interval of the figure as a fraction of it (the record's), when the figure is B's published one.",
          ),
          contention: obj("The contention state each side's figure was published in (null: the record has no probe).", {
            a: nullable(oneOfEnum("A's state.", ["uncontended", "contended", "mixed"])),
            b: nullable(oneOfEnum("B's state.", ["uncontended", "contended", "mixed"])),
          }),
          betweenRun: obj(
            "Both sides' records carry a between-run component of the figure compared (run --between-run): it is added to ci95 (on the log scale, t(df) · √(σ_A² + σ_B²) in quadrature with the bootstrap's), so that a change of the machine's state between the two runs is not called a change of the code.",
            {
              relativeSd: nonneg("√(σ_A² + σ_B²), the two sides' components combined."),
              df: int("The smaller of the two sides' degrees of freedom.", { minimum: 1 }),
            },
          ),
          uncontendedWorkers: obj(
            "The sides' figures were published in different contention states, so both were compared over their uncontended workers only (at least 2 on each side): how many on each side. a and b are then those workers' figures, not the published ones.",
            {
              a: int("A's uncontended workers compared.", { minimum: 2 }),
              b: int("B's uncontended workers compared.", { minimum: 2 }),
            },
          ),
        },
      ),
    ),
    instructions: arr(
      "Instruction counts present in both, status ok on both sides.",
      obj("One count compared.", {
        key,
        a: nonneg("A's instructions per call."),
        b: nonneg("B's instructions per call."),
        ratio,
        verdict: oneOfEnum("Exact: same only when equal.", ["fewer", "more", "same"]),
        records,
      }),
    ),
    unmatched: arr(
      "Measurements not compared: on one side only, or failed on a side.",
      obj("One measurement not compared.", {
        key,
        kind: oneOfEnum("The record kind.", ["timing", "instructions"]),
        where: oneOfEnum("Where it is.", ["only-a", "only-b", "failed-a", "failed-b", "failed-both"]),
        record: relPath,
      }),
    ),
    counts: obj(
      "Verdicts counted.",
      {
        same: nat("Timings same."),
        faster: nat("Timings faster."),
        slower: nat("Timings slower."),
        instructionsSame: nat("Instruction counts equal."),
        instructionsDiffer: nat("Instruction counts different."),
        oneWorker: nat("Timings with oneWorker."),
      },
      { notComparable: nat("Timings not comparable (different contention states).") },
    ),
    regressed: bool("Whether a timing is slower, or an instruction count higher, by more than the threshold (exit 1)."),
  },
  {},
  {},
);
