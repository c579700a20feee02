// The summary of a system (`ngcc-perf report`, docs/report.md "Summary and exports"): written as
// site/<system>/summary.json beside summary.csv and the summary page; an export of the site, not a record of the
// store. One row per algorithm × instance × build profile × operation, each figure with its own 95 % interval.
import { bool, int, type JsonSchema, nonneg, nullable, num, obj, oneOfEnum, recordSchema, str } from "./builders.ts";
import { algorithmId, buildProfileName, category, instanceName, operationName, systemId } from "./common.ts";

/** A path from the export's folder to a record of the store (it climbs out of site/<system>/, so it holds ..). */
const recordHref = nullable(str("Path of the record relative to this file's folder, with / separators."));
const nonnegOrNull = (description: string): JsonSchema => nullable(nonneg(description));

const row = obj(
  "One operation of one instance under one build profile.",
  {
    system: systemId,
    algorithmId,
    algorithmName: nullable(str("The algorithm's name, as its survey gives it.")),
    category,
    instance: instanceName,
    buildProfile: nullable(buildProfileName),
    operation: operationName,
    status: oneOfEnum("ok: measured; failed: the timing record is a failure; not measured: no timing record.", [
      "ok",
      "failed",
      "not measured",
    ]),
    statistic: nullable(
      oneOfEnum("median or mean per call (method per-call), or the mean over all iterations (trials).", [
        "median",
        "mean",
      ]),
    ),
    method: nullable(oneOfEnum("How the record was timed.", ["per-call", "trials"])),
    timeNs: nonnegOrNull("The published time per call, ns."),
    ci95LowNs: nullable(num("The time's 95 % interval, lower bound, ns (per call only).")),
    ci95HighNs: nullable(num("The time's 95 % interval, upper bound, ns (per call only).")),
    timeRelativeHalfWidth: nonnegOrNull(
      "The time's 95 % interval's half-width as a fraction of timeNs (the record's central.relativeHalfWidth).",
    ),
    cycles: nonnegOrNull("The published statistic in estimated core cycles per call (central.cycles.value)."),
    cyclesCi95Low: nullable(num("The estimated cycles' own 95 % interval, lower bound.")),
    cyclesCi95High: nullable(num("The estimated cycles' own 95 % interval, upper bound.")),
    cyclesRelativeHalfWidth: nonnegOrNull("The estimated cycles' interval's half-width as a fraction of cycles."),
    targetFigure: nullable(
      oneOfEnum("The figure the precision target applied to (sampling stopped on its interval).", ["time", "cycles"]),
    ),
    inputDependent: nullable(
      bool(
        "Whether the operation's work depends on its input: the instructions decision, else whether the mean is published.",
      ),
    ),
    decidedBy: nullable(
      oneOfEnum("How the statistic was chosen (null: the record does not say).", ["instructions", "distribution"]),
    ),
    instructionsPerCallMin: nonnegOrNull(
      "Fewest instructions per call over the inputs counted (instructions decision).",
    ),
    instructionsPerCallMax: nonnegOrNull("Most instructions per call over the inputs counted (instructions decision)."),
    p99Ns: nonnegOrNull("99th percentile of the time per call, ns."),
    p999Ns: nonnegOrNull("99.9th percentile of the time per call, ns (null when the record lacks it)."),
    maxNs: nonnegOrNull("Largest time per call, ns."),
    calls: nullable(int("Calls timed: the count behind the tail.", { minimum: 1 })),
    contentionState: nullable(
      oneOfEnum("The contention probe's state over the workers (null: no probe).", [
        "uncontended",
        "contended",
        "mixed",
      ]),
    ),
    publishedFrom: nullable(
      oneOfEnum("The workers the figure was published from: the uncontended ones, or all.", ["uncontended", "all"]),
    ),
    ratioToBaseline: nonnegOrNull("timeNs ÷ the baseline's timeNs for the same operation."),
    publicKeyBytes: nullable(int("Public key, bytes (size audit).", { minimum: 0 })),
    ciphertextBytes: nullable(int("Ciphertext, bytes.", { minimum: 0 })),
    signatureBytes: nullable(int("Signature, bytes.", { minimum: 0 })),
    hashShare: nullable(num("Share of the time in the hash groups (hash/DRNG profile).", { minimum: 0 })),
    drngShare: nullable(num("Share of the time in the DRNG.", { minimum: 0 })),
    failure: nullable(str("The failure's first line, when status is failed.")),
    records: obj("The records the row comes from, relative to this file's folder.", {
      timing: recordHref,
      profile: recordHref,
      sizes: recordHref,
    }),
  },
  { notPlausible: { const: true, description: "Present when the figure failed a cross-check (shown marked)." } },
);

export const summary: JsonSchema = recordSchema(
  "summary",
  "ngcc-perf summary of a system",
  "Every operation of every instance measured on one system, as the summary page shows it: the published time and estimated cycles each with its own 95 % interval, the tail, how the statistic was chosen, the contention state, sizes and hash/DRNG shares, with the paths of the records.",
  {
    system: systemId,
    baseline: nullable(str("The baseline the ratios are relative to (<algorithm-id>/<instance>[@<profile>]).")),
    recordPathsRelativeTo: str("Where the record paths start, in words."),
    rows: { type: "array", description: "The rows, in page order.", items: row },
  },
  {},
  {},
);
