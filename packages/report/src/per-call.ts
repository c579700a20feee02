// Records of the per-call method (`method: "per-call"`: samples of single calls in fresh worker processes, a
// published central figure with its 95 % interval) as the pages show them: the cells of the performance table (each
// figure with its own interval, the tail, the statistic's evidence), one legend line per mark under it (‡ the mean
// published for input-dependent operations, † a missed precision target, ◇ a figure from contended workers), the
// method as measured, and the warnings above it. Fields other steps add (central.decision, distribution.p999Ns,
// contention) are read as optional: older records lack them. Every sentence is built from the records it speaks of. Records of the trials
// method (the seeds') have none of this: their pages are the seeds'.
import { type EnvironmentRecord, environmentWarnings, type TimingRecord } from "@ngcc-perf/schema";
import { formatCallsN, formatCounter, formatHalfWidth, formatPercent, formatShare, formatTime } from "./format.ts";
import { isSynthesized, listText } from "./parts.ts";

export type Sampling = NonNullable<TimingRecord["sampling"]>;
export type Distribution = NonNullable<TimingRecord["distribution"]>;
export type Central = NonNullable<TimingRecord["central"]>;

/** The blocks of a per-call record. */
export interface PerCall {
  sampling: Sampling;
  distribution: Distribution;
  central: Central;
  /** The contention probe, when the record has one (distribution and central may then be of some workers only). */
  contention?: Contention;
}

/** The 0-based indices (in worker order, as in samples and sampling) of the workers the published figure comes
 * from: the uncontended ones when the record published from them, else all. */
export function publishedWorkers(pc: PerCall): number[] {
  const all = pc.sampling.samplesPerWorker.map((_, i) => i);
  const c = pc.contention;
  if (c?.publishedFrom !== "uncontended" || c.workers.length !== all.length) return all;
  return all.filter((i) => c.workers[i]?.contended === false);
}

/** A per-call record of a page, with the name the page gives its row and operation (`Mithril-128 dec`). */
export interface Named {
  name: string;
  operation: string;
  pc: PerCall;
}

/** Marks of the performance table: the mean is published (‡), the precision target was missed (†). */
export const MEAN_MARK = "‡";
export const MISSED_MARK = "†";

/** The counter's read overhead is negligible up to this share of the median sample (the schema's rule). */
export const NEGLIGIBLE_OVERHEAD = 0.001;

/** The per-call blocks of a measured record, or null (trials method, a failure, or a record without them). */
export function perCallOf(t: TimingRecord | undefined): PerCall | null {
  if (t?.status !== "ok" || t.method !== "per-call" || !t.aggregates) return null;
  const { sampling, distribution, central } = t;
  if (!sampling || !distribution || !central) return null;
  const contention = contentionOf(t);
  return contention ? { sampling, distribution, central, contention } : { sampling, distribution, central };
}

/** A measured record of the trials method (the seeds'; also a per-call record lacking its blocks). */
export function isTrials(t: TimingRecord | undefined): boolean {
  return !!t && t.status === "ok" && !!t.aggregates && perCallOf(t) === null;
}

/** The median column's cell: the central figure, marked when it is the mean. */
export function centralCell(pc: PerCall): string {
  const value = formatTime(pc.central.valueNs);
  return pc.central.statistic === "mean" ? `mean ${value} ${MEAN_MARK}` : value;
}

/**
 * The figure the precision target applied to: the estimated core cycles when the core clock was probed
 * (`sampling.target.figure` cycles), else the time. Sampling stopped on its interval.
 */
export function targeted(pc: PerCall): { figure: "cycles" | "time"; relativeHalfWidth: number; metTarget: boolean } {
  const c = pc.central.cycles;
  if (pc.sampling.target.figure === "cycles" && c)
    return { figure: "cycles", relativeHalfWidth: c.relativeHalfWidth, metTarget: c.metTarget };
  return { figure: "time", relativeHalfWidth: pc.central.relativeHalfWidth, metTarget: pc.central.metTarget };
}

/** The ± cell of the time: the time's own 95 % interval (central.relativeHalfWidth), † when the target on the time
 * was missed. */
export function halfWidthCell(pc: PerCall): string {
  const t = targeted(pc);
  const missed = t.figure === "time" && !t.metTarget;
  return `${formatHalfWidth(pc.central.relativeHalfWidth)}${missed ? ` ${MISSED_MARK}` : ""}`;
}

/** The published figure in estimated core cycles, or null when the record has none. */
export function cyclesCell(pc: PerCall): string | null {
  const c = pc.central.cycles;
  return c ? formatCounter(c.value) : null;
}

/** The ± cell of the estimated cycles: their own 95 % interval (central.cycles.relativeHalfWidth), † when the
 * target on the cycles was missed; null when the record has no cycles. */
export function cyclesHalfWidthCell(pc: PerCall): string | null {
  const c = pc.central.cycles;
  if (!c) return null;
  const t = targeted(pc);
  const missed = t.figure === "cycles" && !t.metTarget;
  return `${formatHalfWidth(c.relativeHalfWidth)}${missed ? ` ${MISSED_MARK}` : ""}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Fields other steps add to a per-call record (absent from older records; read as optional).

/** How the published statistic was chosen (central.decision): by instructions counted per call under valgrind, or
 * by the per-call distribution where valgrind could not run. */
export type Decision =
  | {
      by: "instructions";
      profile?: string;
      calls: number;
      minInstructions: number;
      maxInstructions: number;
      relativeSpread: number;
      threshold: number;
      inputDependent: boolean;
    }
  | { by: "distribution"; why: string };

/** The record's decision, when it has a well-formed one. */
export function decisionOf(pc: PerCall): Decision | null {
  const d = (pc.central as { decision?: unknown }).decision as Partial<Decision> | undefined;
  if (!d || typeof d !== "object") return null;
  if (d.by === "instructions") {
    const x = d as Extract<Decision, { by: "instructions" }>;
    const nums = [x.calls, x.minInstructions, x.maxInstructions, x.relativeSpread, x.threshold];
    return nums.every((v) => typeof v === "number" && Number.isFinite(v)) && typeof x.inputDependent === "boolean"
      ? x
      : null;
  }
  if (d.by === "distribution") return typeof (d as { why?: unknown }).why === "string" ? (d as Decision) : null;
  return null;
}

/** Whether the operation's work depends on its input: the instructions decision when there is one, else the
 * published statistic (the mean is published for input-dependent operations). */
export function inputDependent(pc: PerCall): boolean {
  const d = decisionOf(pc);
  return d?.by === "instructions" ? d.inputDependent : pc.central.statistic === "mean";
}

/** The decision's evidence, short (`210.0 k–3.10 M instructions per call over 16 inputs (varies by 1380%, above the 1%
 * threshold)`), or the fallback's why. */
export function decisionText(pc: PerCall): string | null {
  const d = decisionOf(pc);
  if (!d) return null;
  if (d.by === "distribution") return `distribution rule: ${d.why}`;
  const range =
    d.minInstructions === d.maxInstructions
      ? formatCounter(d.minInstructions)
      : `${formatCounter(d.minInstructions)}–${formatCounter(d.maxInstructions)}`;
  const spread = d.relativeSpread >= 0.1 ? formatShare(d.relativeSpread) : formatPercent(d.relativeSpread);
  const side = d.inputDependent ? "above" : "within";
  return `${range} instructions per call over ${d.calls} inputs (varies by ${spread}, ${side} the ${formatPercent(d.threshold)} threshold)`;
}

/** The tail of the per-call distribution: p99, p99.9 (when recorded) and the maximum over `calls` calls. */
export interface Tail {
  p99Ns: number;
  p999Ns: number | null;
  maxNs: number;
  calls: number;
  /** Calls per sample: above 1 the percentiles are of batch means, not single calls. */
  batch: number;
}

export function tailOf(pc: PerCall): Tail {
  const d = pc.distribution;
  const p999 = (d as { p999Ns?: unknown }).p999Ns;
  return {
    p99Ns: d.p99Ns,
    p999Ns: typeof p999 === "number" && Number.isFinite(p999) ? p999 : null,
    maxNs: d.maxNs,
    calls: d.calls,
    batch: pc.sampling.batch,
  };
}

/** The tail cell: `p99 1.21 ms · p99.9 1.5 ms · max 2 ms / 16000 calls`. */
export function tailCell(pc: PerCall): string {
  const t = tailOf(pc);
  const parts = [`p99 ${formatTime(t.p99Ns)}`];
  if (t.p999Ns !== null) parts.push(`p99.9 ${formatTime(t.p999Ns)}`);
  parts.push(`max ${formatTime(t.maxNs)}`);
  const batch = t.batch > 1 ? `, batches of ${t.batch}` : "";
  return `${parts.join(" · ")} / ${t.calls} calls${batch}`;
}

/** The contention probe of a record (the timing step's throughput probe per worker), when it has one. */
export interface Contention {
  probe: string;
  threshold: number;
  workers: Array<{ worker: number; addsPerCycle: number; contended: boolean }>;
  state: "uncontended" | "contended" | "mixed";
  publishedFrom: "uncontended" | "all";
}

export function contentionOf(t: TimingRecord | undefined): Contention | null {
  const c = (t as { contention?: unknown } | undefined)?.contention as Partial<Contention> | undefined;
  if (!c || typeof c !== "object") return null;
  const states = ["uncontended", "contended", "mixed"];
  if (!states.includes(c.state as string) || !["uncontended", "all"].includes(c.publishedFrom as string)) return null;
  return { probe: "", threshold: 0, workers: [], ...c } as Contention;
}

/** The state the published figure was measured in: uncontended when it comes from uncontended workers only (or
 * every worker was uncontended), else the record's state; null for a record without the probe. */
export function publishedState(t: TimingRecord | undefined): Contention["state"] | null {
  const c = contentionOf(t);
  if (!c) return null;
  return c.publishedFrom === "uncontended" ? "uncontended" : c.state;
}

/** The mark of a figure published from contended workers (all workers, some or all contended). */
export const CONTENDED_MARK = "◇";

/** The contended-state mark of a row, or "" when its figure is from uncontended workers (or not probed). */
export function contendedMark(t: TimingRecord | undefined): string {
  const s = publishedState(t);
  return s === "contended" || s === "mixed" ? ` ${CONTENDED_MARK}` : "";
}

/** The n column's cell: calls (workers × calls per worker, or × samples × batch), of the workers the figure is
 * published from. */
export function callsCell(pc: PerCall, withBatch: boolean): string {
  // The samples each worker's figures used: all but those left out for a switch (sampling.switchedOut).
  const perWorker = pc.sampling.switchedOut?.keptPerWorker ?? pc.sampling.samplesPerWorker;
  const per = publishedWorkers(pc).map((i) => perWorker[i] as number);
  return formatCallsN(pc.distribution.calls, per, pc.sampling.batch, withBatch);
}

/** Calls were batched in some record (the n column then writes workers × samples × batch). */
export function anyBatched(items: ReadonlyArray<PerCall>): boolean {
  return items.some((pc) => pc.sampling.batch > 1);
}

/** Groups items by a key, in the order of first appearance. */
function groupBy<T>(items: ReadonlyArray<T>, key: (t: T) => string): Array<[string, T[]]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return [...map];
}

const unique = <T>(xs: ReadonlyArray<T>): T[] => [...new Set(xs)];

/** `3` or `3 to 5`. */
function rangeText(values: ReadonlyArray<number>): string {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? String(lo) : `${lo} to ${hi}`;
}

/** The legend line of the ‡ mark (the mean is published), or null when no row has it. Each row's evidence is in
 * its own cells (the tail and the statistic's columns). */
export function meanNote(items: ReadonlyArray<Named>): string | null {
  const means = items.filter((i) => i.pc.central.statistic === "mean");
  if (!means.length) return null;
  return `${MEAN_MARK} The mean per call over the varied inputs is published, not the median: the operation's work depends on its input (${means.length} of ${items.length} rows; why in the statistic column, the worst case in the tail column).`;
}

/** Why sampling stopped without the target, in words, for the records of one target and budget. */
function missedWhy(s: Sampling): string {
  switch (s.stoppedBy) {
    case "budget":
      return `stopped by the ${formatTime(s.target.budgetMs * 1e6)} sampling budget`;
    case "quick":
      return "a --quick smoke run with no target";
    default:
      return "the interval is wider than the target";
  }
}

/** The legend line of the † mark (the precision target was missed, marked on the ± of the targeted figure): the
 * targets and the causes with how many rows each, or null when every row met its target. */
export function missedNotes(items: ReadonlyArray<Named>): string[] {
  const missed = items.filter((i) => !targeted(i.pc).metTarget);
  if (!missed.length) return [];
  const targets = unique(
    missed.map((i) => {
      const t = targeted(i.pc);
      return `±${formatPercent(i.pc.sampling.target.relativeHalfWidth)} on the ${t.figure === "cycles" ? "estimated core cycles" : "time"}`;
    }),
  );
  const causes = groupBy(missed, (i) => missedWhy(i.pc.sampling)).map(
    ([why, list]) => `${why} (${list.length} ${list.length === 1 ? "row" : "rows"})`,
  );
  return [
    `${MISSED_MARK} Precision target (${orText(targets)}) not reached, marked on the ± it applied to: ${causes.join("; ")}.`,
  ];
}

/** The legend line of the ◇ mark (figures published from every worker, contended ones included), or null. */
export function contendedNote(records: ReadonlyArray<TimingRecord>): string | null {
  const marked = records.filter((t) => contendedMark(t) !== "");
  if (!marked.length) return null;
  const states = groupBy(marked, (t) => publishedState(t) as string).map(([state, list]) => `${state} ${list.length}`);
  const c = contentionOf(marked[0]) as Contention;
  return `${CONTENDED_MARK} Published from every worker, contended ones included (too few uncontended workers): the ${c.probe || "throughput"} probe read a contended core in some (mixed) or all (contended) of the row's workers (${states.join(", ")} ${marked.length === 1 ? "row" : "rows"}); such a figure is slower than the code and is not compared with one measured uncontended.`;
}

/** The line naming the figure the precision target applied to when it is not the time beside the first ±. */
export function targetLine(items: ReadonlyArray<Named>): string | null {
  const cycles = items.filter((i) => targeted(i.pc).figure === "cycles");
  if (!cycles.length) return null;
  const which = cycles.length === items.length ? "every row" : `${cycles.length} of ${items.length} rows`;
  return `Each ± is the 95% interval of the figure before it: the time's under ±, the estimated core cycles' under ± cycles. Sampling stopped on the estimated core cycles' interval (${which}): the precision target applied to them, not to the time.`;
}

/** The batches of calls per sample, in words (`each sample is one call timed alone`, or which ops were batched). */
function batchText(items: ReadonlyArray<Named>): string {
  const batched = items.filter((i) => i.pc.sampling.batch > 1);
  if (!batched.length) return "each sample one call timed alone";
  const groups = groupBy(batched, (i) => `${i.pc.sampling.batch}\u0000${i.pc.sampling.batchReason}`).map(([, list]) => {
    const s = (list[0] as Named).pc.sampling;
    return `${listText(list.map((i) => i.name))}: ${s.batch} calls per sample (${s.batchReason})`;
  });
  if (batched.length === items.length && groups.length === 1) {
    const s = (batched[0] as Named).pc.sampling;
    return `each sample a batch of ${s.batch} calls (${s.batchReason})`;
  }
  const singles = batched.length < items.length;
  return `${singles ? "each sample one call timed alone, except " : "each sample a batch of calls — "}${groups.join("; ")}`;
}

/** The inputs, in words: one description, or each description with the operations it applies to (descriptions
 * may hold their own commas, semicolons and parentheses, so each is a sentence of its own). */
function inputsText(items: ReadonlyArray<Named>): string {
  const end = (d: string) => (/[.!?]$/.test(d) ? d : `${d}.`);
  const groups = groupBy(items, (i) => i.pc.sampling.inputs.description);
  if (groups.length === 1) return `Inputs varied per call: ${end(groups[0]?.[0] ?? "")}`;
  // An operation named alone when each operation has one description on the page, else each row by name.
  const byOp = groupBy(items, (i) => i.operation);
  const opAlone = byOp.every(([, list]) => unique(list.map((i) => i.pc.sampling.inputs.description)).length === 1);
  const parts = groups.map(
    ([description, list]) =>
      `For ${listText(unique(list.map((i) => (opAlone ? i.operation : i.name))))}, ${end(description)}`,
  );
  return `Inputs varied per call. ${parts.join(" ")}`;
}

/** The CPU pinning, in words. */
function pinText(items: ReadonlyArray<Named>): string {
  const cpus = items.map((i) => i.pc.sampling.pinnedCpu);
  const pinned = unique(cpus.filter((c): c is number => c !== null)).sort((a, b) => a - b);
  const unpinned = cpus.filter((c) => c === null).length;
  if (!pinned.length) return "not pinned to a CPU";
  const to = `pinned to CPU${pinned.length > 1 ? "s" : ""} ${listText(pinned.map(String))}`;
  if (!unpinned) return to;
  return `${to} for ${items.length - unpinned} of the ${items.length} operations, not pinned for the others`;
}

/** `a or b`, `a, b or c`. */
function orText(items: ReadonlyArray<string>): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** When sampling stopped, in words: the target with the minimum of workers, or the budget; or a smoke run. */
function stopText(items: ReadonlyArray<Named>): string {
  const quick = items.filter((i) => i.pc.sampling.stoppedBy === "quick");
  const full = items.filter((i) => i.pc.sampling.stoppedBy !== "quick");
  const parts: string[] = [];
  if (full.length) {
    const t = full.map((i) => i.pc.sampling.target);
    const targets = unique(t.map((x) => `±${formatPercent(x.relativeHalfWidth)}`));
    const workers = unique(t.map((x) => x.minWorkers)).sort((a, b) => a - b);
    const budgets = unique(t.map((x) => formatTime(x.budgetMs * 1e6)));
    const varies = targets.length > 1 || workers.length > 1 || budgets.length > 1;
    const which = full.length === items.length ? "" : ` (${listText(full.map((i) => i.name))})`;
    parts.push(
      `sampling went on until the 95% interval was within ${orText(targets)} with at least ${orText(workers.map(String))} worker${workers.length === 1 && workers[0] === 1 ? "" : "s"}, or until ${orText(budgets)} of sampling was spent${varies ? ", as each operation's record sets" : ""}${which}`,
    );
  }
  if (quick.length)
    parts.push(
      `${quick.length === items.length ? "a" : `${listText(quick.map((i) => i.name))}: a`} --quick smoke run with no precision target`,
    );
  return parts.join("; ");
}

/** The counter's read overhead where it is not negligible, or null. */
function overheadText(items: ReadonlyArray<Named>): string | null {
  const heavy = items.filter((i) => i.pc.sampling.overheadShare > NEGLIGIBLE_OVERHEAD);
  if (!heavy.length) return null;
  return `The counter's read overhead is more than ${formatShare(NEGLIGIBLE_OVERHEAD)} of the median sample for ${listText(heavy.map((i) => `${i.name} (${formatShare(i.pc.sampling.overheadShare)})`))}.`;
}

/** The line under the table on the method as measured, true of every per-call record of the page. */
export function methodLine(items: ReadonlyArray<Named>): string | null {
  if (!items.length) return null;
  const workers = rangeText(items.map((i) => i.pc.sampling.workers));
  const one = workers === "1";
  const line = `Method as measured: per call (${batchText(items)}), in ${workers} fresh worker process${one ? "" : "es"} per operation, ${pinText(items)}; ${stopText(items)}.`;
  return [line, inputsText(items), layoutText(items), clockText(items), overheadText(items)]
    .filter((x): x is string => x !== null)
    .join(" ");
}

/** The code layouts the workers rotated over, in words; null when no record says. */
function layoutText(items: ReadonlyArray<Named>): string | null {
  const withLayouts = items.filter((i) => i.pc.sampling.layouts);
  if (!withLayouts.length) return null;
  const pads = unique(withLayouts.map((i) => (i.pc.sampling.layouts?.padBytes ?? []).join(", ")));
  const which = withLayouts.length === items.length ? "" : ` (${listText(withLayouts.map((i) => i.name))})`;
  return `The workers rotated over code layouts${which}: the instance's code ${orText(pads)} bytes past a 64-byte boundary, one layout per worker in turn.`;
}

/** `4.33 GHz` or `4.33–4.50 GHz`. */
function ghzRange(lo: number, hi: number): string {
  const f = (hz: number) => (hz / 1e9).toFixed(2);
  return f(lo) === f(hi) ? `${f(lo)} GHz` : `${f(lo)}–${f(hi)} GHz`;
}

/** The core-clock probe, in words, with the clock seen; null when no record of the page probed it. */
function clockText(items: ReadonlyArray<Named>): string | null {
  const probed = items.filter((i) => i.pc.distribution.coreClock && i.pc.distribution.cycles);
  if (!probed.length) return null;
  const clocks = probed.map((i) => i.pc.distribution.coreClock as NonNullable<Distribution["coreClock"]>);
  const lo = Math.min(...clocks.map((c) => c.minHz));
  const hi = Math.max(...clocks.map((c) => c.maxHz));
  const which = probed.length === items.length ? "" : ` (${listText(probed.map((i) => i.name))})`;
  const targetedCycles = probed.filter((i) => targeted(i.pc).figure === "cycles").length;
  const pm =
    targetedCycles === items.length
      ? " The precision target is on the estimated core cycles: the time per call moves with the core clock, which more samples cannot average away."
      : "";
  return `After every sample a dependent chain of ${clocks[0]?.adds} one-cycle adds estimated the core clock${which}: ${ghzRange(lo, hi)} across the workers; estimated core cycles per call are a sample's time × its worker's core clock.${pm}`;
}

/**
 * The warnings above a timing table: `environmentWarnings` of the system's environment record, shown when the
 * records concerned were measured (per call, or by ngcc-perf: never on records transcribed from published pages,
 * whose environment is the earlier harness's). Pinning follows the per-call records where they say (each records
 * the CPU its workers ran on): not pinned when any of them was not, pinned when all were and no trials record
 * depends on the environment's own entry.
 */
export function timingWarnings(env: EnvironmentRecord | null, records: ReadonlyArray<TimingRecord>): string[] {
  if (!env) return [];
  const measured = records.filter((t) => t.status === "ok" && t.aggregates);
  const perCall = measured.map(perCallOf).filter((p): p is PerCall => p !== null);
  const trials = measured.filter((t) => perCallOf(t) === null);
  if (!perCall.length && !trials.some((t) => !isSynthesized(t))) return [];
  let pinnedCpu = env.processor.pinnedCpu;
  if (perCall.length) {
    const cpus = perCall.map((p) => p.sampling.pinnedCpu);
    if (cpus.includes(null)) pinnedCpu = null;
    else if (!trials.length) pinnedCpu = cpus[0] as number;
  }
  return environmentWarnings({ ...env, processor: { ...env.processor, pinnedCpu } });
}

/** The warnings as one paragraph. */
export function warningsText(warnings: ReadonlyArray<string>): string | null {
  return warnings.length ? `Warnings from the environment record: ${warnings.join(" ")}` : null;
}

/** The published figure of a record for a summary (the system index): the central figure, `mean` when it is. */
export function headlineFigure(pc: PerCall): string {
  const value = formatTime(pc.central.valueNs);
  return pc.central.statistic === "mean" ? `mean ${value}` : value;
}
