// The method page of a system: the counter, calibration, statistics, build profiles and environment, read from
// the records. Records measured per call have their own sections (the sampling: workers, batches, inputs, the
// precision target and budget; the statistics: the published figure and its interval); the seeds' sections
// describe the trials method and appear when the store holds such records (or no measured record at all).
import type { EnvironmentRecord, TimingRecord } from "@ngcc-perf/schema";
import { formatCompiler, formatG, formatPercent, formatShare, formatTime } from "../format.ts";
import { cell, type Inline, type Page, type Section, text } from "../model.ts";
import {
  EMULATED,
  emulatedSentence,
  footer,
  header,
  NOT_MEASURED,
  provenanceNote,
  rowName,
  section,
} from "../parts.ts";
import {
  decisionOf,
  NEGLIGIBLE_OVERHEAD,
  type PerCall,
  perCallOf,
  targeted,
  timingWarnings,
  warningsText,
} from "../per-call.ts";
import { implausibleChecks, NOT_PLAUSIBLE } from "../plausible.ts";
import { environmentRows } from "../sections/environment.ts";
import { byOperation, type SiteContext, type SystemView } from "../view.ts";

/** A timing record measured per call, with its per-call blocks. */
type PerCallTiming = { t: TimingRecord; pc: PerCall };

export function methodPage(ctx: SiteContext, view: SystemView): Page {
  const env = view.environment;
  const measured = view.store.timings.filter((t) => t.status === "ok");
  // Records of the trials method (the seeds') and of the per-call method each have their own sections.
  const timings = measured.filter((t) => perCallOf(t) === null);
  const perCall = measured.flatMap((t) => {
    const pc = perCallOf(t);
    return pc ? [{ t, pc }] : [];
  });
  const sampling = perCall.length ? samplingSections(measured.length, perCall) : null;
  return {
    kind: "method",
    path: `${view.system}/method`,
    header: header(ctx, view, "method", (other) => `../${other.system}/method`),
    title: `Method of system ${view.system}`,
    intro: methodIntro(view, timings.length > 0, perCall.length > 0),
    sections: [
      counterSection(view, measured),
      ...(sampling ?? []),
      // An emulated system times nothing: no calibration or statistics of times to describe.
      ...(env?.emulated
        ? []
        : timings.length || !perCall.length
          ? trialsSections(view, timings, perCall.length > 0)
          : []),
      plausibilitySection(view),
      profilesSection(view),
      environmentSection(view),
    ],
    footer: footer(ctx, view),
  };
}

/** The page's opening: what it describes (after the methods the records use), emulation and provenance. */
function methodIntro(view: SystemView, trials: boolean, perCall: boolean): Inline[][] {
  const emulated = emulatedSentence(view.environment);
  return [
    [
      text(
        `How the figures of this system's pages were obtained: the counter, ${perCall ? (trials ? "the calibration of the trials, the per-call sampling" : "the per-call sampling") : "calibration"}, statistics, build profiles and environment, read from the records.`,
      ),
    ],
    ...(emulated ? [[text(emulated)]] : []),
    ...provenanceNote(view.records()),
  ];
}

/** The counter's table (the environment's counter, else the first measured record's) and what its column means. */
function counterSection(view: SystemView, measured: ReadonlyArray<TimingRecord>): Section {
  return section("counter", "Counter", {
    notes: [
      [
        text(
          "The counter column of section 4 is in the counter's unit. x86-64 rdtsc counts at a constant reference rate and is never called cycles; core cycles come from perf_event or from a fixed, known clock (time × clock).",
        ),
      ],
    ],
    tables: [
      kvTable(
        `Counter of system ${view.system}`,
        ["item", "value"],
        counterRows(view.environment, measured[0]?.counter),
      ),
    ],
  });
}

/** The counter's kind, unit, rate, read overhead, serialization and description. */
function counterRows(env: EnvironmentRecord | null, recorded: TimingRecord["counter"] | undefined): string[][] {
  const counterRec = env?.counter ?? recorded;
  if (!counterRec) return [["counter", "not recorded"]];
  return [
    ["kind", counterRec.kind],
    [
      "unit",
      counterRec.unit +
        (counterRec.unit === "tsc-ticks" ? " (TSC ticks at a constant reference rate, not core cycles)" : ""),
    ],
    [
      "rate",
      counterRec.rateHz
        ? `${formatG(counterRec.rateHz / 1e6, 6)} MHz${env?.emulated ? " (the emulator's, not the target's)" : ""}`
        : "not recorded",
    ],
    [
      "read overhead",
      env?.emulated
        ? EMULATED
        : counterRec.overhead === null || counterRec.overhead === undefined
          ? "not recorded"
          : `${formatG(counterRec.overhead, 3)} ${counterRec.unit}`,
    ],
    ...(counterRec.serialization ? [["serialization", counterRec.serialization]] : []),
    ...(counterRec.description ? [["description", counterRec.description]] : []),
  ];
}

/** The seeds' method: trials × calibrated iterations (shown also for a store with no measured record). */
function trialsSections(view: SystemView, timings: ReadonlyArray<TimingRecord>, perCall: boolean): Section[] {
  const calibrated = timings.filter((t) => t.calibration).length;
  const ofTrials = perCall ? " of the trials method" : "";
  const unstable = timings.filter((t) => t.aggregates?.unstable);
  return [
    section("calibration", "Calibration", {
      notes: [
        [
          text(
            calibrated
              ? `The driver chose the iterations per trial of ${calibrated === timings.length ? `every timing record${ofTrials}` : `${calibrated} of the ${timings.length} timing records${ofTrials}`} from its own estimate of one call: enough for a trial to last the target time and for the counter's read overhead to stay below 1/1000 of a trial, at least the minimum and at most the maximum (the table says which decided). Each trial is one timed batch, n = trials × iterations.`
              : "The records do not say how the iterations per trial were chosen. Each trial is one timed batch, n = trials × iterations.",
          ),
        ],
      ],
      tables: [
        kvTable(
          perCall ? "Calibration over the timing records of the trials method" : "Calibration over all timing records",
          ["item", "value"],
          calibrationRows(timings),
        ),
      ],
    }),
    section("statistics", "Statistics", {
      notes: [
        [
          text(
            `Mean time is the mean over all iterations; the median trial is the median of the trials' per-operation means. Records also hold ${timings.length && timings.every((t) => t.trials?.length) ? "the raw trials, " : ""}the minimum, maximum, quartiles, standard deviation and a Student-t 95% interval of the trial means. An operation is flagged unstable when (max − min) / median of its trial means exceeds the threshold.`,
          ),
        ],
      ],
      after: unstable.length ? [[text(`Unstable: ${unstable.map((t) => operationName(view, t)).join(", ")}.`)]] : [],
    }),
  ];
}

/** A timed operation in running text: algorithm, instance (with its build profile when its algorithm has several,
 * else the same instance repeats) and operation. */
function operationName(view: SystemView, t: TimingRecord): string {
  const alg = view.algorithm(t.algorithmId);
  const row = alg ? rowName(alg, { instance: t.instance, profile: t.buildProfile }) : t.instance;
  return `${t.algorithmId} ${row} ${t.operation}`;
}

/** The calibration of the trials records: trials, iterations, target duration, what decided, unstable ones. */
function calibrationRows(timings: ReadonlyArray<TimingRecord>): string[][] {
  if (!timings.length) return [["timing", NOT_MEASURED]];
  const iterations = timings.map((t) => t.aggregates?.iterationsPerTrial ?? 0).filter((n) => n > 0);
  const trialCounts = [...new Set(timings.map((t) => t.aggregates?.trials ?? 0))].sort((a, b) => a - b);
  const targets = [
    ...new Set(timings.map((t) => t.calibration?.targetTrialNs).filter((n): n is number => n !== undefined)),
  ];
  const thresholds = [
    ...new Set(timings.map((t) => t.aggregates?.unstableThreshold).filter((n): n is number => n !== undefined)),
  ];
  return [
    ["trials per operation", trialCounts.join(", ")],
    ["iterations per trial", `${Math.min(...iterations)} – ${Math.max(...iterations)}`],
    ["target trial duration", targets.length ? targets.map((t) => formatTime(t)).join(", ") : "not recorded"],
    ["iterations decided by", limitedBy(timings)],
    ["operations timed", String(timings.length)],
    ["unstable threshold", thresholds.length ? thresholds.map((t) => formatShare(t)).join(", ") : "not recorded"],
    ["operations flagged unstable", String(timings.filter((t) => t.aggregates?.unstable).length)],
  ];
}

/** What decided the iterations per trial, as the driver recorded it (its calibration block): `by (records)`. */
function limitedBy(timings: ReadonlyArray<TimingRecord>): string {
  const limits = new Map<string, number>();
  for (const t of timings) {
    const by = t.calibration?.limitedBy;
    if (by) limits.set(by, (limits.get(by) ?? 0) + 1);
  }
  if (!limits.size) return "not recorded";
  return [...limits]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([by, n]) => `${by} (${n})`)
    .join(", ");
}

/** Per build profile, every compiler and flag set its timing records name (records of one profile may differ). */
function profilesSection(view: SystemView): Section {
  const profiles = new Map<string, { compilers: Set<string>; flags: Set<string>; records: number }>();
  for (const t of view.store.timings) {
    const p = profiles.get(t.buildProfile) ?? { compilers: new Set(), flags: new Set(), records: 0 };
    p.records++;
    p.compilers.add(t.build ? formatCompiler(t.build.compiler, t.build.compilerVersion) : "not recorded");
    p.flags.add(t.build ? t.build.flags.join(" ") || "no flags" : "not recorded");
    profiles.set(t.buildProfile, p);
  }
  return section("profiles", "Build profiles", {
    tables: profiles.size
      ? [
          kvTable(
            "Build profiles of the timing records",
            ["profile", "compiler", "flags", "timing records"],
            [...profiles]
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([name, p]) => [name, [...p.compilers].join(" | "), [...p.flags].join(" | "), String(p.records)]),
          ),
        ]
      : [],
    notes: profiles.size ? [] : [[text("No timing records: no build profile to show.")]],
  });
}

/** The environment's table (with the processor's architecture, CPUs, hypervisor, host and runtime) and warnings. */
function environmentSection(view: SystemView): Section {
  const env = view.environment;
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
  const warnings = warningsText(timingWarnings(env, view.store.timings));
  return section("environment", "Environment", {
    tables: [kvTable(`Environment of system ${view.system}`, ["item", "value"], envRows)],
    after: warnings ? [[text(warnings)]] : [],
  });
}

/**
 * What the timing figures are cross-checked against, how many failed, and what in-process timing cannot prevent
 * (docs/methodology.md, Plausibility).
 */
function plausibilitySection(view: SystemView): Section {
  const measured = view.store.timings.filter((t) => t.status === "ok");
  const flagged = measured.filter((t) => implausibleChecks(t, view.store.instructions).length > 0);
  const checked = measured.filter((t) => t.plausibility !== undefined).length;
  return section("plausibility", "Plausibility", {
    notes: [
      [
        text(
          `The driver runs in one process with the submission's code. It claims its output before any of that code runs (from .preinit_array, before every constructor) and writes its one document only if its descriptor is still the one it claimed; the runner refuses a document that is not what the driver prints for the arguments given, and cross-checks every figure against what the process cannot touch: the runner's own clock over each worker process, the duration it asked for, the driver's own clocks and warm-up estimate, and the cycles per instruction against the instructions counted under valgrind (0.1–8). ${measured.length ? `${checked} of ${measured.length} timing records carry these checks; ${flagged.length ? `${flagged.length} failed one and ${flagged.length === 1 ? "is" : "are"} marked ${NOT_PLAUSIBLE} beside the figure` : "none failed one"}.` : "No timing records."}`,
        ),
      ],
      [
        text(
          "What in-process timing cannot prevent: the submission's code can interpose the C library functions the driver calls, write into the driver's memory or print a document of its own, and a consistent forgery (every sample and the warm-up estimate divided by k, k times as many samples) passes every check but cycles per instruction, which bounds it only where instructions were counted and only to the 0.1–8 band; the bounds are loose (factors of 8 to 10) so that honest runs on a busy machine pass; only the last call of each worker is checked for a correct result; and a submission can slow or disturb its own measurement.",
        ),
      ],
    ],
  });
}

const kvTable = (caption: string, headers: string[], rows: string[][]) => ({
  caption,
  headers,
  rows: rows.map((r) => r.map((c) => cell(c))),
  rowHeaders: true,
});

/** `a (2), b (1)`: each value with how many records hold it, the most frequent first. */
function counted(values: ReadonlyArray<string>): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
    .map(([v, n]) => `${v} (${n})`)
    .join(", ");
}

/** `3` or `3 – 5`. */
function span(values: ReadonlyArray<number>, show: (n: number) => string = String): string {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? show(lo) : `${show(lo)} – ${show(hi)}`;
}

/** The rows of the samples left out because the worker was switched out in them, and of the contended workers'
 * time on top of the budget; none when no record has either. */
function switchedOutRows(s: ReadonlyArray<PerCall["sampling"]>): string[][] {
  const rows: string[][] = [];
  const so = s.map((x) => x.switchedOut).filter((x) => x !== undefined);
  if (so.length) {
    const all = s.reduce((a, x) => a + x.samplesPerWorker.reduce((b, y) => b + y, 0), 0);
    const dropped = so.reduce((a, x) => a + x.dropped, 0);
    const over = so.reduce((a, x) => a + x.workersOverCap, 0);
    rows.push([
      "samples left out: the worker's process was switched out during them",
      `${dropped} of ${all} samples, in ${so.length} of ${s.length} operations${over ? `; ${over} worker(s) switched out in more than ${formatPercent(so[0]?.cap ?? 0)} of their samples kept them all` : ""}`,
    ]);
  }
  const contended = s.map((x) => x.contendedMs ?? 0).filter((x) => x > 0);
  if (contended.length)
    rows.push([
      "sampling on contended workers, on top of the budget",
      `${formatTime(contended.reduce((a, b) => a + b, 0) * 1e6)} in ${contended.length} of ${s.length} operations`,
    ]);
  return rows;
}

/** The per-call sampling and its statistics, over the records measured per call (of `total` measured records). */
function samplingSections(total: number, records: ReadonlyArray<PerCallTiming>): Section[] {
  return [
    section("sampling", "Sampling per call", {
      notes: [[text(samplingNote(total, records))]],
      tables: [
        kvTable(
          "Per-call sampling over the records measured per call",
          ["item", "value"],
          samplingRows(total, records),
        ),
        kvTable(
          "Inputs of the operations measured per call",
          ["operation", "inputs varied per call", "timing records"],
          inputRows(records),
        ),
      ],
    }),
    section("statistics-per-call", "Statistics per call", {
      notes: [[text(perCallStatisticsNote(records))]],
      after: perCallStatisticsAfter(records),
    }),
  ];
}

/** How the records measured per call were sampled: single calls or batches, workers, inputs, when sampling stopped. */
function samplingNote(total: number, records: ReadonlyArray<PerCallTiming>): string {
  const n = records.length;
  const s = records.map((r) => r.pc.sampling);
  const batched = s.some((x) => x.batch > 1);
  const quick = s.some((x) => x.stoppedBy === "quick");
  const trialsPerWorker = records.every(
    (r) =>
      r.t.trials?.length === r.pc.sampling.workers &&
      r.t.trials.reduce((a, tr) => a + tr.iterations, 0) === r.pc.distribution.calls,
  );
  const every =
    n === total ? "Every timing record was" : `${n} of the ${total} timing records ${n === 1 ? "was" : "were"}`;
  return `${every} measured per call: each sample is one call timed alone by the counter${batched ? ", or a fixed batch of calls where a single call is too short for the counter (the record gives the batch and the driver's reason)" : ""}, taken in several fresh worker processes (driver processes) per operation, over inputs that vary from call to call as each record states. An operation's sampling stopped when the 95% interval of its published figure was within the target with at least the minimum of workers (stopped by target), or when its sampling budget was spent (budget)${quick ? ", or after a --quick smoke run with no precision target (quick)" : ""}.${trialsPerWorker ? " Each worker's totals are kept as one trial, so the mean time and ops/s of section 4 are over every call kept (a sample during which the worker's process was switched out is left out), and n is the calls timed (workers × calls per worker, or × samples × batch)." : ""}`;
}

/** The sampling table: what was asked (statistic, target, budget, workers), what happened, and its costs. */
function samplingRows(total: number, records: ReadonlyArray<PerCallTiming>): string[][] {
  const n = records.length;
  const s = records.map((r) => r.pc.sampling);
  const elapsed = s.map((x) => x.elapsedMs);
  return [
    ["operations measured per call", n === total ? String(n) : `${n} of ${total}`],
    ["published statistic", counted(records.map((r) => r.pc.central.statistic))],
    ["precision target (95% interval within)", counted(s.map((x) => `±${formatPercent(x.target.relativeHalfWidth)}`))],
    ["sampling budget per operation", counted(s.map((x) => formatTime(x.target.budgetMs * 1e6)))],
    ["workers at least", counted(s.map((x) => String(x.target.minWorkers)))],
    ["stopped by", counted(s.map((x) => x.stoppedBy))],
    ["target reached", `${records.filter((r) => targeted(r.pc).metTarget).length} of ${n} operations`],
    ["worker processes per operation", span(s.map((x) => x.workers))],
    ["samples per worker", span(s.flatMap((x) => x.samplesPerWorker))],
    ["calls per sample (batch)", counted(s.map((x) => String(x.batch)))],
    ["target applies to", counted(records.map((r) => targetFigure(r.pc)))],
    ["core clock (probe after every sample)", coreClockText(records)],
    ...contentionRows(records),
    ...switchedOutRows(s),
    ["statistic decided by", counted(records.map((r) => decidedBy(r.pc)))],
    ["pinned to", counted(s.map((x) => (x.pinnedCpu === null ? "not pinned" : `CPU ${x.pinnedCpu}`)))],
    [
      "sampling time per operation",
      `${span(elapsed, (ms) => formatTime(ms * 1e6))} (${formatTime(elapsed.reduce((a, b) => a + b, 0) * 1e6)} in all)`,
    ],
    ["counter overhead (share of the median sample)", overheadText(Math.max(...s.map((x) => x.overheadShare)))],
  ];
}

/** The figure a record's precision target applied to, in words. */
function targetFigure(pc: PerCall): string {
  return targeted(pc).figure === "cycles" ? "estimated core cycles" : "time";
}

/** The core clock the workers' probes measured, over every record that probed it. */
function coreClockText(records: ReadonlyArray<PerCallTiming>): string {
  const c = records.map((r) => r.pc.distribution.coreClock).filter((x) => x !== undefined);
  if (!c.length) return "not probed";
  const ghz = (hz: number) => `${(hz / 1e9).toFixed(2)} GHz`;
  const lo = Math.min(...c.map((x) => x.minHz));
  const hi = Math.max(...c.map((x) => x.maxHz));
  return `${ghz(lo)} to ${ghz(hi)} (${c.length} of ${records.length} operations probed, ${c[0]?.adds} adds per probe)`;
}

/** The row of which workers the figures were published from, when any record probed contention. */
function contentionRows(records: ReadonlyArray<PerCallTiming>): string[][] {
  if (!records.some((r) => r.pc.contention)) return [];
  const from = records.map((r) => {
    const c = r.pc.contention;
    if (!c) return "not probed";
    return c.publishedFrom === "uncontended" ? "uncontended workers" : `all workers, ${c.state}`;
  });
  return [["contention (throughput probe), figures published from", counted(from)]];
}

/** What decided a record's published statistic, in words. */
function decidedBy(pc: PerCall): string {
  const d = decisionOf(pc);
  return d?.by === "instructions"
    ? "instructions counted per call"
    : d?.by === "distribution"
      ? "the per-call distribution (instructions not counted)"
      : "the per-call distribution (a record without a decision)";
}

/** The counter's largest overhead as a share of the median sample, said negligible when it is. */
function overheadText(overhead: number): string {
  return overhead <= NEGLIGIBLE_OVERHEAD
    ? `at most ${formatShare(overhead)}: negligible (≤ ${formatShare(NEGLIGIBLE_OVERHEAD)})`
    : `up to ${formatShare(overhead)}`;
}

/** The inputs table: per operation, each description of the inputs varied per call with its count of records. */
function inputRows(records: ReadonlyArray<PerCallTiming>): string[][] {
  const inputs = new Map<string, { operation: string; description: string; records: number }>();
  for (const r of records) {
    const key = `${r.t.operation}\u0000${r.pc.sampling.inputs.description}`;
    const entry = inputs.get(key) ?? {
      operation: r.t.operation,
      description: r.pc.sampling.inputs.description,
      records: 0,
    };
    entry.records++;
    inputs.set(key, entry);
  }
  return [...inputs.values()]
    .sort((a, b) => byOperation(a.operation, b.operation) || (a.description < b.description ? -1 : 1))
    .map((i) => [i.operation, i.description, String(i.records)]);
}

/** Whether the intervals include a between-run component of the machine (run --between-run), in words. */
function betweenRunNote(records: ReadonlyArray<PerCallTiming>): string {
  const given = records.flatMap((r) => (r.pc.central.betweenRun ? [r.pc.central.betweenRun] : []));
  if (given.length === 0) {
    return ". These intervals are within-run: they hold for a repeat run only while the machine stays in the state this run's workers saw; no between-run component of this machine was given (ngcc-perf calibrate measures one, run --between-run adds it)";
  }
  const sds = [
    ...new Set(
      given.map((b) => `${formatPercent(b.relativeSd)} (${b.sessions} A/A sessions, ${b.df} df; ${b.measured})`),
    ),
  ];
  const all = given.length === records.length ? "every interval" : `${given.length} of ${records.length} intervals`;
  return `, and ${all} also includes this machine's between-run component — the relative sd by which a run's figure moved beyond its own interval over repeated A/A sessions of the time step (ngcc-perf calibrate): for the time ${sds.join("; ")}, the estimated cycles' own in each record (central.cycles.betweenRun) — added as √(within² + (t(df) · √2 · sd · figure)²), with the lower end at 0 at most (the records keep the within-run half-width the target judged)`;
}

/** What the published figure per call and its 95 % interval are, and what else the records hold. */
function perCallStatisticsNote(records: ReadonlyArray<PerCallTiming>): string {
  return `The published figure (the median column of section 4) is the median per call over every worker's samples pooled, or the mean per call for an operation whose work depends on its input — decided once per instance and operation for every profile from the per-call instruction counts of its reference profile (more than 10 % spread: the mean), or from the timing distribution where valgrind could not count; each record says which and why (${counted(records.map((r) => r.pc.central.statistic))}). Its 95% interval is one for the figure a repeat run on the same machine publishes: the larger of √2 × the distribution-free interval of the median from order statistics (for the mean, √2 × the 95% interval of the mean) and the Student-t prediction interval over the workers' own figures, t · sd · √(2/W)${betweenRunNote(records)}; each figure is shown with its own interval: the ± column is the time's half-width relative to the time, the ± cycles column the estimated cycles' own (widened the same way), and † marks the one the target applied to where it missed. Records also hold ${records.every((r) => r.t.samples?.length) ? "every raw sample, " : ""}the mean, median, minimum, maximum, p1, p5, p25, p75, p95, p99 (p99.9 in newer records), MAD and standard deviation per call, Tukey's outliers (counted, never dropped) and each worker's median and mean.`;
}

/** The paragraphs on the operations that publish the mean and on those whose target was not reached. */
function perCallStatisticsAfter(records: ReadonlyArray<PerCallTiming>): Inline[][] {
  const n = records.length;
  const means = records.filter((r) => r.pc.central.statistic === "mean");
  const missed = records.filter((r) => !targeted(r.pc).metTarget);
  const after: Inline[][] = [];
  if (means.length) {
    const by = counted(
      means.map((r) =>
        decisionOf(r.pc)?.by === "instructions" ? "instructions counted per call" : "the per-call distribution",
      ),
    );
    after.push([
      text(
        `Mean published instead of the median: ${means.length} of ${n} operations, decided by ${by}; each algorithm page gives the evidence per row (its statistic column) and the tail (p99, p99.9, maximum).`,
      ),
    ]);
  }
  if (missed.length) {
    const stopped = counted(missed.map((r) => `stopped by ${r.pc.sampling.stoppedBy}`));
    const figures = counted(missed.map((r) => targetFigure(r.pc)));
    after.push([
      text(
        `Target not reached: ${missed.length} of ${n} operations (${stopped}; target on ${figures}), marked † on the algorithm pages beside the ± of the figure the target applied to.`,
      ),
    ]);
  }
  return after;
}
