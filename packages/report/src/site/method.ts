// The method page of a system: the counter, calibration, statistics, build profiles and environment, read from
// the records.
import { formatG, formatShare, formatTime } from "../format.ts";
import { cell, type Page, text } from "../model.ts";
import { footer, header, NOT_MEASURED, provenanceNote, rowName, section } from "../parts.ts";
import { environmentRows } from "../sections/environment.ts";
import type { SiteContext, SystemView } from "../view.ts";

export function methodPage(ctx: SiteContext, view: SystemView): Page {
  const env = view.environment;
  const timings = view.store.timings.filter((t) => t.status === "ok");
  const counterRec = env?.counter ?? timings[0]?.counter;
  const counterRows: string[][] = counterRec
    ? [
        ["kind", counterRec.kind],
        [
          "unit",
          counterRec.unit +
            (counterRec.unit === "tsc-ticks" ? " (TSC ticks at a constant reference rate, not core cycles)" : ""),
        ],
        ["rate", counterRec.rateHz ? `${formatG(counterRec.rateHz / 1e6, 6)} MHz` : "not recorded"],
        [
          "read overhead",
          counterRec.overhead === null || counterRec.overhead === undefined
            ? "not recorded"
            : `${formatG(counterRec.overhead, 3)} ${counterRec.unit}`,
        ],
        ...(counterRec.serialization ? [["serialization", counterRec.serialization]] : []),
        ...(counterRec.description ? [["description", counterRec.description]] : []),
      ]
    : [["counter", "not recorded"]];
  const iterations = timings.map((t) => t.aggregates?.iterationsPerTrial ?? 0).filter((n) => n > 0);
  const trialCounts = [...new Set(timings.map((t) => t.aggregates?.trials ?? 0))].sort((a, b) => a - b);
  const targets = [
    ...new Set(timings.map((t) => t.calibration?.targetTrialNs).filter((n): n is number => n !== undefined)),
  ];
  const thresholds = [
    ...new Set(timings.map((t) => t.aggregates?.unstableThreshold).filter((n): n is number => n !== undefined)),
  ];
  const unstable = timings.filter((t) => t.aggregates?.unstable);
  // An instance with its build profile when its algorithm has several (the same instance otherwise repeats).
  const rowNameOf = (t: (typeof timings)[number]) => {
    const alg = view.algorithm(t.algorithmId);
    return alg ? rowName(alg, { instance: t.instance, profile: t.buildProfile }) : t.instance;
  };
  // What decided the iterations per trial, as the driver recorded it (its calibration block).
  const limits = new Map<string, number>();
  for (const t of timings) {
    const by = t.calibration?.limitedBy;
    if (by) limits.set(by, (limits.get(by) ?? 0) + 1);
  }
  const calibrated = timings.filter((t) => t.calibration).length;
  const calibrationRows: string[][] = timings.length
    ? [
        ["trials per operation", trialCounts.join(", ")],
        ["iterations per trial", `${Math.min(...iterations)} – ${Math.max(...iterations)}`],
        ["target trial duration", targets.length ? targets.map((t) => formatTime(t)).join(", ") : "not recorded"],
        [
          "iterations decided by",
          limits.size
            ? [...limits]
                .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                .map(([by, n]) => `${by} (${n})`)
                .join(", ")
            : "not recorded",
        ],
        ["operations timed", String(timings.length)],
        ["unstable threshold", thresholds.length ? thresholds.map((t) => formatShare(t)).join(", ") : "not recorded"],
        ["operations flagged unstable", String(unstable.length)],
      ]
    : [["timing", NOT_MEASURED]];
  // Per build profile, every compiler and flag set its timing records name (records of one profile may differ).
  const profiles = new Map<string, { compilers: Set<string>; flags: Set<string>; records: number }>();
  for (const t of view.store.timings) {
    const p = profiles.get(t.buildProfile) ?? { compilers: new Set(), flags: new Set(), records: 0 };
    p.records++;
    p.compilers.add(t.build ? `${t.build.compiler} (${t.build.compilerVersion})` : "not recorded");
    p.flags.add(t.build ? t.build.flags.join(" ") || "no flags" : "not recorded");
    profiles.set(t.buildProfile, p);
  }
  const envRows = environmentRows(env);
  if (env) {
    envRows.push(["architecture", env.processor.architecture]);
    envRows.push([
      "logical CPUs",
      env.processor.logicalCpus === null ? "not recorded" : String(env.processor.logicalCpus),
    ]);
    if (env.processor.hypervisor !== undefined && env.processor.hypervisor !== null)
      envRows.push(["hypervisor", env.processor.hypervisor ? "yes" : "no"]);
    if (env.hostname) envRows.push(["host name", env.hostname]);
    if (env.runtime?.node) envRows.push(["Node.js", env.runtime.node]);
    if (env.runtime?.ngccPerf) envRows.push(["ngcc-perf", env.runtime.ngccPerf]);
  }
  const table = (caption: string, headers: string[], rows: string[][]) => ({
    caption,
    headers,
    rows: rows.map((r) => r.map((c) => cell(c))),
    rowHeaders: true,
  });
  return {
    kind: "method",
    path: `${view.system}/method`,
    header: header(ctx, view, "method", (other) => `../${other.system}/method`),
    title: `Method of system ${view.system}`,
    intro: [
      [
        text(
          "How the figures of this system's pages were obtained: the counter, calibration, statistics, build profiles and environment, read from the records.",
        ),
      ],
      ...provenanceNote(view.records()),
    ],
    sections: [
      section("counter", "Counter", {
        notes: [
          [
            text(
              "The counter column of section 4 is in the counter's unit. x86-64 rdtsc counts at a constant reference rate and is never called cycles; core cycles come from perf_event or from a fixed, known clock (time × clock).",
            ),
          ],
        ],
        tables: [table(`Counter of system ${view.system}`, ["item", "value"], counterRows)],
      }),
      section("calibration", "Calibration", {
        notes: [
          [
            text(
              calibrated
                ? `The driver chose the iterations per trial of ${calibrated === timings.length ? "every timing record" : `${calibrated} of the ${timings.length} timing records`} from its own estimate of one call: enough for a trial to last the target time and for the counter's read overhead to stay below 1/1000 of a trial, at least the minimum and at most the maximum (the table says which decided). Each trial is one timed batch, n = trials × iterations.`
                : "The records do not say how the iterations per trial were chosen. Each trial is one timed batch, n = trials × iterations.",
            ),
          ],
        ],
        tables: [table("Calibration over all timing records", ["item", "value"], calibrationRows)],
      }),
      section("statistics", "Statistics", {
        notes: [
          [
            text(
              `Mean time is the mean over all iterations; the median trial is the median of the trials' per-operation means. Records also hold ${timings.length && timings.every((t) => t.trials?.length) ? "the raw trials, " : ""}the minimum, maximum, quartiles, standard deviation and a Student-t 95% interval of the trial means. An operation is flagged unstable when (max − min) / median of its trial means exceeds the threshold.`,
            ),
          ],
        ],
        after: unstable.length
          ? [[text(`Unstable: ${unstable.map((t) => `${t.algorithmId} ${rowNameOf(t)} ${t.operation}`).join(", ")}.`)]]
          : [],
      }),
      section("profiles", "Build profiles", {
        tables: profiles.size
          ? [
              table(
                "Build profiles of the timing records",
                ["profile", "compiler", "flags", "timing records"],
                [...profiles]
                  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                  .map(([name, p]) => [
                    name,
                    [...p.compilers].join(" | "),
                    [...p.flags].join(" | "),
                    String(p.records),
                  ]),
              ),
            ]
          : [],
        notes: profiles.size ? [] : [[text("No timing records: no build profile to show.")]],
      }),
      section("environment", "Environment", {
        tables: [table(`Environment of system ${view.system}`, ["item", "value"], envRows)],
      }),
    ],
    footer: footer(ctx, view),
  };
}
