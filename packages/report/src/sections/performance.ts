// Section 4 of the algorithm page: time per operation of every instance under every build profile, the counter
// column in the unit the records count, unstable operations, and the time and per-trial spread charts. Records
// measured per call add the published central figure in the median column with the time's own ± after it, the
// estimated cycles with their own ± (when probed), workers × calls in n, the tail of input-dependent operations and
// the statistic's evidence, the environment's warnings above the table and one legend line per mark under it
// (per-call.ts); a page of trials records (the seeds') keeps the seeds' columns.
import type { EnvironmentRecord, TimingRecord } from "@ngcc-perf/schema";
import { fitTimeAxis } from "../charts.ts";
import { formatCounter, formatGHz, formatN, formatOpsPerSecond, formatShare, formatTime } from "../format.ts";
import { type Cell, type Chart, type ChartDatum, cell, type Inline, text } from "../model.ts";
import {
  DASH,
  EMULATED,
  emulatedSentence,
  failedText,
  leadHeaders,
  NOT_MEASURED,
  operationRows,
  rowName,
  section,
} from "../parts.ts";
import {
  anyBatched,
  callsCell,
  centralCell,
  contendedMark,
  contendedNote,
  cyclesCell,
  cyclesHalfWidthCell,
  decisionOf,
  decisionText,
  halfWidthCell,
  inputDependent,
  isTrials,
  meanNote,
  methodLine,
  missedNotes,
  type Named,
  type PerCall,
  perCallOf,
  tailCell,
  targetLine,
  timingWarnings,
  warningsText,
} from "../per-call.ts";
import { implausibleChecks, implausibleLine, NOT_PLAUSIBLE } from "../plausible.ts";
import { type AlgorithmView, byOperation, type InstanceRow, type SystemView } from "../view.ts";
import { instructionsTable } from "./instructions.ts";

const COUNTER_COLUMN: Record<string, string> = {
  "core-cycles": "mean cycles",
  "tsc-ticks": "mean TSC ticks",
  "timer-ticks": "mean timer ticks",
  instructions: "mean instructions",
  ns: "mean counter ns",
};

/** The counter column's header and, for a unit that is not core cycles, the note saying what it counts. */
export function counterColumn(
  timings: ReadonlyArray<TimingRecord>,
  env: EnvironmentRecord | null,
): { header: string; mixed: boolean; note: string | null; estimated?: boolean } {
  const units = new Set(timings.filter((t) => t.status === "ok" && t.counter).map((t) => t.counter?.unit as string));
  if (units.size === 0 && env) units.add(env.counter.unit);
  const measured = timings.filter((t) => t.status === "ok" && t.aggregates);
  if (measured.length > 0 && measured.every((t) => perCallOf(t)?.distribution.cycles !== undefined))
    return {
      header: "mean cycles (est.)",
      mixed: false,
      estimated: true,
      note: "Cycles are estimated core cycles: each sample's time × the core clock its worker measured with a chain of one-cycle adds (see the method line below); they follow the core, not a reference-rate counter.",
    };
  if (units.size !== 1) return { header: "mean counter", mixed: units.size > 1, note: null };
  const unit = [...units][0] as string;
  const counter = timings.find((t) => t.counter?.unit === unit)?.counter ?? env?.counter;
  const rate = counter?.rateHz ? ` (${formatGHz(counter.rateHz)} here)` : "";
  const notes: Record<string, string> = {
    "tsc-ticks": `The counter is the x86-64 time-stamp counter: TSC ticks at its constant reference rate${rate}, not core cycles.`,
    "timer-ticks": `The counter is the aarch64 generic timer (cntvct_el0): timer ticks${rate}, not core cycles.`,
    instructions: "The counter is perf_event's instructions retired (user mode): a count of work, not of time.",
    ns: "The counter is CLOCK_MONOTONIC: the counter column repeats the mean time in ns; no cycle counter was available.",
  };
  return { header: COUNTER_COLUMN[unit] ?? `mean counter (${unit})`, mixed: false, note: notes[unit] ?? null };
}

type Methods = { perCall: boolean; trials: boolean };
type Extra = { cycles: boolean; tail: boolean; why: boolean };
type Aggregates = NonNullable<TimingRecord["aggregates"]>;

/** The shape of section 4's table: its counter column, the methods of its records, batches and extra columns. */
interface Layout {
  counter: ReturnType<typeof counterColumn>;
  methods: Methods;
  batched: boolean;
  extra: Extra;
}

/** What the table's rows found that the lines under it speak of. */
interface Tally {
  /** Rows timed in trials whose trial means spread beyond the threshold. */
  unstable: string[];
  /** One line per row whose figure failed a cross-check. */
  implausible: string[];
  /** How many rows were timed in trials. */
  trialRows: number;
  /** The rows measured per call, by name. */
  perCall: Named[];
}

/** Which methods the page's measured records use: the table's columns follow (the seeds' columns for trials). */
function methodsOf(timings: ReadonlyArray<TimingRecord>): Methods {
  return { perCall: timings.some((t) => perCallOf(t) !== null), trials: timings.some(isTrials) };
}

/**
 * An emulated system's section 4: every operation "emulated — not a timing" (the time step times nothing under an
 * emulator) and the instruction counts' table when the store holds one (valgrind's refusal there).
 */
function emulatedPerformance(view: SystemView, alg: AlgorithmView, sentence: string) {
  const rows = operationRows(view, alg, (lead) => [[...lead, cell(EMULATED)]]);
  const counted = instructionsTable(view, alg);
  return section("performance", "4. Performance", {
    notes: [[text(sentence)]],
    tables: [
      {
        caption: `Time per operation of each ${alg.id} instance: not measured under emulation`,
        headers: [...leadHeaders(alg), "operation", "time"],
        rows,
        rowHeaders: true,
      },
      ...(counted ? [counted.table] : []),
    ],
    after: counted ? counted.notes : [],
  });
}

export function performanceSection(view: SystemView, alg: AlgorithmView) {
  const sentence = emulatedSentence(view.environment);
  if (sentence) return emulatedPerformance(view, alg, sentence);
  const timings = view.timingsOf(alg.id);
  const pcs = timings.map(perCallOf).filter((p): p is PerCall => p !== null);
  // The ± column and the per-call cells only when a record of the page was measured per call: the seeds' pages
  // (trials method) keep their columns.
  const layout: Layout = {
    counter: counterColumn(timings, view.environment),
    methods: methodsOf(timings),
    batched: anyBatched(pcs),
    extra: extraColumns(pcs),
  };
  const tally: Tally = { unstable: [], implausible: [], trialRows: 0, perCall: [] };
  const rows = operationRows(view, alg, (lead, row, op) => [timingRow(view, alg, row, op, lead, layout, tally)]);
  const warnings = warningsText(timingWarnings(view.environment, timings));
  const counted = instructionsTable(view, alg);
  return section("performance", "4. Performance", {
    notes: warnings ? [[text(warnings)]] : [],
    tables: [
      {
        caption: captionOf(alg.id, layout.methods),
        headers: [
          ...leadHeaders(alg),
          "operation",
          layout.counter.header,
          "mean time",
          "ops/s",
          ...columnsOf(layout.methods, layout.batched, layout.extra),
        ],
        rows,
        rowHeaders: true,
      },
      ...(counted ? [counted.table] : []),
    ],
    after: [...performanceNotes(timings, layout, tally), ...(counted ? counted.notes : [])],
    charts: [timeChart(view, alg), spreadChart(view, alg), workerChart(view, alg)].filter(
      (c): c is Chart => c !== null,
    ),
  });
}

/** `n` cells of a dash. */
function dashes(n: number): Cell[] {
  return Array.from({ length: n }, () => cell(DASH));
}

/** The row of one operation of one row: not measured, failed, or its figures (per call, or the seeds' trials). */
function timingRow(
  view: SystemView,
  alg: AlgorithmView,
  row: InstanceRow,
  op: string,
  lead: Cell[],
  layout: Layout,
  tally: Tally,
): Cell[] {
  const t = view.timingOf(alg.id, row, op);
  const { methods, extra } = layout;
  const width = (methods.perCall ? 5 : 4) + (extra.cycles ? 2 : 0) + Number(extra.tail) + Number(extra.why);
  if (!t) return [...lead, cell(NOT_MEASURED), ...dashes(width)];
  if (t.status !== "ok" || !t.aggregates) return [...lead, cell(failedText(t.failure, t)), ...dashes(width)];
  const name = `${rowName(alg, row)} ${op}`;
  // A figure that failed a cross-check is marked beside it, and why is said under the table.
  const flagged = implausibleChecks(t, view.store.instructions);
  const mark = flagged.length ? ` ${NOT_PLAUSIBLE}` : "";
  if (flagged.length) tally.implausible.push(implausibleLine(name, flagged));
  const seed = seedCells(t, t.aggregates, layout.counter, mark);
  const pc = perCallOf(t);
  if (pc) {
    tally.perCall.push({ name, operation: op, pc });
    return [...lead, ...seed, ...perCallCells(t, pc, mark, layout)];
  }
  return [...lead, ...seed, ...trialsCells(t.aggregates, name, layout, tally)];
}

/** The cells every measured row has: the counter, the mean time (marked when implausible) and ops/s. */
function seedCells(t: TimingRecord, a: Aggregates, counter: Layout["counter"], mark: string): Cell[] {
  const estimated = counter.estimated ? perCallOf(t)?.distribution.cycles?.meanCycles : undefined;
  const counterText =
    estimated !== undefined
      ? formatCounter(estimated)
      : formatCounter(a.meanCounter) + (counter.mixed && t.counter ? ` ${t.counter.unit}` : "");
  return [cell(counterText), cell(`${formatTime(a.meanNs)}${mark}`), cell(formatOpsPerSecond(a.opsPerSecond))];
}

/** A row measured per call, after the seed cells: each figure with its own interval (the time's ± after the time,
 * the cycles' ± after the cycles), n, and the tail and the statistic's evidence where the table has them. */
function perCallCells(t: TimingRecord, pc: PerCall, mark: string, { extra, batched }: Layout): Cell[] {
  return [
    cell(`${centralCell(pc)}${mark}${contendedMark(t)}`),
    cell(halfWidthCell(pc)),
    ...(extra.cycles ? [cell(cyclesCell(pc) ?? DASH), cell(cyclesHalfWidthCell(pc) ?? DASH)] : []),
    cell(callsCell(pc, batched)),
    ...(extra.tail ? [cell(inputDependent(pc) ? tailCell(pc) : DASH)] : []),
    ...(extra.why ? [cell(whyCell(pc))] : []),
  ];
}

/** A row timed in trials, after the seed cells: the median trial (an unstable row marked with § and the trial
 * means' spread, explained once below), dashes for the per-call columns, and trials × iterations. */
function trialsCells(a: Aggregates, name: string, { methods, extra }: Layout, tally: Tally): Cell[] {
  const spread = a.medianTrialNs > 0 ? (a.maxTrialNs - a.minTrialNs) / a.medianTrialNs : 0;
  if (a.unstable) tally.unstable.push(name);
  tally.trialRows++;
  return [
    cell(`${formatTime(a.medianTrialNs)}${a.unstable ? ` § ${formatShare(spread)}` : ""}`),
    ...(methods.perCall ? [cell(DASH)] : []),
    ...(extra.cycles ? [cell(DASH), cell(DASH)] : []),
    cell(formatN(a.trials, a.iterationsPerTrial)),
    ...dashes(Number(extra.tail) + Number(extra.why)),
  ];
}

/** The lines under the table: the counter's unit, the per-call legend, mixed methods, unstable and implausible rows. */
function performanceNotes(timings: ReadonlyArray<TimingRecord>, layout: Layout, tally: Tally): Inline[][] {
  const { perCall } = tally;
  const after: Inline[][] = [];
  if (layout.counter.note) after.push([text(layout.counter.note)]);
  for (const line of [
    targetLine(perCall),
    meanNote(perCall),
    ...missedNotes(perCall),
    contendedNote(timings),
    tailLine(perCall, layout.extra.tail),
    methodLine(perCall),
  ])
    if (line) after.push([text(line)]);
  if (layout.methods.perCall && layout.methods.trials)
    after.push([
      text(
        `Rows with ${DASH} under ± were timed by the trials method: their median is the median of the trial means and n is trials × iterations per trial; the other rows were measured per call: n is the calls timed, workers × ${layout.batched ? "samples × batch" : "calls per worker"}.`,
      ),
    ]);
  if (tally.unstable.length) {
    const threshold = timings.find((t) => isTrials(t))?.aggregates?.unstableThreshold ?? 0.05;
    after.push([
      text(
        `§ Unstable (${tally.unstable.length} of ${tally.trialRows} rows timed in trials): the trial means spread by more than ${formatShare(threshold)} ((max − min) / median, the share after §); the median trial resists such spikes better than the mean.`,
      ),
    ]);
  }
  if (tally.implausible.length) after.push([text(implausibleNote(tally.implausible))]);
  return after;
}

/** The line under the table on the figures that failed a cross-check, each row's reasons after it. */
function implausibleNote(lines: ReadonlyArray<string>): string {
  return `${NOT_PLAUSIBLE} (${lines.length} ${lines.length === 1 ? "row" : "rows"}): the figure failed a cross-check against what the measured code cannot touch — the runner's own clock over each worker process, the duration the runner asked for, the driver's own clocks and warm-up estimate, or the cycles per instruction against the instructions counted under valgrind (see the method page, Plausibility). It is shown as the records hold it, not as the code's time, and left out of the charts. ${lines.join(". ")}.`;
}

/** The table's caption: the seeds' for trials records, the per-call figures' otherwise. */
function captionOf(id: string, methods: Methods): string {
  if (!methods.perCall)
    return `Time per operation of each ${id} instance (mean over all iterations; median of the trial means)`;
  const perCall = "the published figure per call (the median, or the mean where marked) and its 95% interval";
  return methods.trials
    ? `Time per operation of each ${id} instance (mean over all calls; ${perCall}; for rows timed in trials, the median of the trial means)`
    : `Time per operation of each ${id} instance (mean over all calls; ${perCall})`;
}

/** The per-call columns a table needs beyond the seeds': the estimated cycles with their own ± (records that
 * estimated them), the tail (input-dependent operations), the statistic's evidence (a decision, or a mean). */
function extraColumns(pcs: ReadonlyArray<PerCall>): Extra {
  return {
    cycles: pcs.some((pc) => pc.central.cycles !== undefined),
    tail: pcs.some(inputDependent),
    why: pcs.some((pc) => decisionOf(pc) !== null || pc.central.statistic === "mean"),
  };
}

/** Why the row publishes its statistic: the decision's evidence, else (a mean) the record's reason without its
 * count of calls and workers (the n column has them). */
function whyCell(pc: PerCall): string {
  const decided = decisionText(pc);
  if (decided) return decided;
  if (pc.central.statistic !== "mean") return DASH;
  return pc.central.reason.replace(/^(mean|median) of \d+ (single calls|samples|calls)[^:]*: /, "");
}

/** What the tail column holds, once. */
function tailLine(items: ReadonlyArray<Named>, shown: boolean): string | null {
  if (!shown) return null;
  const batched = items.some((i) => inputDependent(i.pc) && i.pc.sampling.batch > 1);
  return `Tail (input-dependent operations): the 99th and 99.9th percentiles and the largest time per call, over the calls timed${batched ? " (where calls were batched, of the batches' means: a single call's worst case can be longer)" : ""}; p99.9 only where the record holds it.`;
}

/** The columns after ops/s: the seeds' (median trial, n), or with records measured per call the central figure, ±,
 * the cycles and their ±, n, and the tail and the statistic's evidence where rows have them. */
function columnsOf(methods: Methods, batched: boolean, extra: Extra): string[] {
  if (!methods.perCall) return ["median trial", "n (trials × iters)"];
  const cycles = extra.cycles ? ["cycles per call (est.)", "± cycles"] : [];
  const after = [
    ...(extra.tail ? ["tail per call (p99 · p99.9 · max / calls)"] : []),
    ...(extra.why ? ["statistic chosen by"] : []),
  ];
  if (methods.trials) return ["median", "±", ...cycles, "n", ...after];
  return [
    "median per call",
    "±",
    ...cycles,
    batched ? "n (workers × samples × batch)" : "n (workers × calls)",
    ...after,
  ];
}

/** Mean time per operation and row (instance, and build profile when there are several), log scale. */
function timeChart(view: SystemView, alg: AlgorithmView): Chart | null {
  let perCallBars = 0;
  const data: ChartDatum[] = [];
  const series: string[] = [];
  const rows: string[] = [];
  for (const row of view.rowsOf(alg))
    for (const op of view.operationsOf(alg, row.instance)) {
      const t = view.timingOf(alg.id, row, op);
      const a = t?.aggregates;
      if (!a || a.meanNs <= 0 || implausibleChecks(t, view.store.instructions).length) continue;
      const name = rowName(alg, row);
      // Per call: the published figure (median, or mean where marked) with its 95 % interval; trials: the mean.
      const pc = perCallOf(t);
      if (pc) {
        perCallBars++;
        const c = pc.central;
        data.push({ row: name, series: op, value: c.valueNs, low: c.ci95Ns.low, high: c.ci95Ns.high });
      } else data.push({ row: name, series: op, value: a.meanNs });
      if (!rows.includes(name)) rows.push(name);
      if (!series.includes(op)) series.push(op);
    }
  if (!data.length) return null;
  const what = perCallBars === 0 ? "mean time per operation" : "time per operation";
  const fitted = fitTimeAxis(data, what);
  const figure =
    perCallBars === 0
      ? "the mean time"
      : perCallBars === data.length
        ? "the published figure per call (the median, or the mean where the table marks it) with its 95 % interval as an error bar"
        : "the published figure per call with its 95 % interval (rows measured per call) or the mean time (rows timed in trials)";
  return {
    kind: "time",
    file: `img/${alg.id}-time.svg`,
    title: `${perCallBars === 0 ? "Mean time" : "Time"} per operation${fitted.axis.log ? " (logarithmic axis)" : ""}`,
    description: `Horizontal bars: ${figure} of each operation of each ${alg.id} parameter set${alg.profiles.length > 1 ? " and build profile" : ""}, written after each bar, on a ${fitted.axis.log ? "logarithmic" : "linear"} axis.`,
    data: fitted.data,
    rows,
    series: series.sort(byOperation),
    axis: fitted.axis,
  };
}

/** Each trial's mean relative to the median trial, per row and operation. */
function spreadChart(view: SystemView, alg: AlgorithmView): Chart | null {
  const data: ChartDatum[] = [];
  const rows: string[] = [];
  for (const row of view.rowsOf(alg))
    for (const op of view.operationsOf(alg, row.instance)) {
      const t = view.timingOf(alg.id, row, op);
      const a = t?.aggregates;
      if (!t?.trials || !a || a.medianTrialNs <= 0 || !isTrials(t)) continue;
      const name = `${rowName(alg, row)} ${op}`;
      rows.push(name);
      for (const tr of t.trials)
        data.push({ row: name, series: "trial mean", value: (tr.ns / tr.iterations / a.medianTrialNs - 1) * 100 });
    }
  if (!data.length) return null;
  return {
    kind: "spread",
    file: `img/${alg.id}-spread.svg`,
    title: "Per-trial spread (trial mean relative to the median trial)",
    description: `Dots: each trial's mean time per operation as a percentage above or below the median trial, per ${alg.id} instance${alg.profiles.length > 1 ? ", build profile" : ""} and operation.`,
    data,
    rows,
    series: ["trial mean"],
  };
}

/** Per-call records: each worker process's figure (its median, or its mean where the mean is published) relative to
 * the published figure — the spread between processes, the run's own noise floor. */
function workerChart(view: SystemView, alg: AlgorithmView): Chart | null {
  const data: ChartDatum[] = [];
  const rows: string[] = [];
  const statistics = new Set<string>();
  for (const row of view.rowsOf(alg))
    for (const op of view.operationsOf(alg, row.instance)) {
      const pc = perCallOf(view.timingOf(alg.id, row, op));
      if (!pc || pc.central.valueNs <= 0) continue;
      const mean = pc.central.statistic === "mean";
      const figures = mean ? pc.distribution.workerMeansNs : pc.distribution.workerMediansNs;
      if (!figures.length) continue;
      const name = `${rowName(alg, row)} ${op}`;
      rows.push(name);
      statistics.add(pc.central.statistic);
      for (const f of figures)
        data.push({
          row: name,
          series: mean ? "worker mean" : "worker median",
          value: (f / pc.central.valueNs - 1) * 100,
        });
    }
  if (!data.length) return null;
  const figure = statistics.size === 1 ? `${[...statistics][0]}` : "median, or its mean where the mean is published,";
  return {
    kind: "workers",
    file: `img/${alg.id}-workers.svg`,
    title: `Per-worker spread: each worker process's ${figure} relative to the published figure`,
    description: `Dots: each fresh worker process's ${figure} per call as a percentage above or below the published figure, per ${alg.id} instance${alg.profiles.length > 1 ? ", build profile" : ""} and operation measured per call.`,
    data,
    rows,
    series: ["worker median", "worker mean"],
  };
}
