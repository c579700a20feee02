// Records of the per-call method (`method: "per-call"`: samples of single calls in fresh worker processes, a
// published central figure with its 95 % interval) as the pages show them: the cells of the performance table, the
// notes under it (the mean published for input-dependent operations, a missed precision target, the method as
// measured) and the warnings above it. Every sentence is built from the records it speaks of. Records of the trials
// method (the seeds') have none of this: their pages are the seeds'.
import { type EnvironmentRecord, environmentWarnings, type TimingRecord } from "@ngcc-perf/schema";
import { formatCallsN, formatHalfWidth, formatPercent, formatShare, formatTime, formatTimeRange } from "./format.ts";
import { isSynthesized, listText } from "./parts.ts";

export type Sampling = NonNullable<TimingRecord["sampling"]>;
export type Distribution = NonNullable<TimingRecord["distribution"]>;
export type Central = NonNullable<TimingRecord["central"]>;

/** The blocks of a per-call record. */
export interface PerCall {
  sampling: Sampling;
  distribution: Distribution;
  central: Central;
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
  return sampling && distribution && central ? { sampling, distribution, central } : null;
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
 * (`sampling.target.figure` cycles), else the time. Its interval is what the ± column shows.
 */
export function targeted(pc: PerCall): { figure: "cycles" | "time"; relativeHalfWidth: number; metTarget: boolean } {
  const c = pc.central.cycles;
  if (pc.sampling.target.figure === "cycles" && c)
    return { figure: "cycles", relativeHalfWidth: c.relativeHalfWidth, metTarget: c.metTarget };
  return { figure: "time", relativeHalfWidth: pc.central.relativeHalfWidth, metTarget: pc.central.metTarget };
}

/** The ± column's cell: the targeted figure's relative half-width, marked when the target was missed. */
export function halfWidthCell(pc: PerCall): string {
  const t = targeted(pc);
  return `${formatHalfWidth(t.relativeHalfWidth)}${t.metTarget ? "" : ` ${MISSED_MARK}`}`;
}

/** The n column's cell: calls (workers × calls per worker, or × samples × batch). */
export function callsCell(pc: PerCall, withBatch: boolean): string {
  return formatCallsN(pc.distribution.calls, pc.sampling.samplesPerWorker, pc.sampling.batch, withBatch);
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

/** The note under the table on operations whose mean is published (‡), with their spread (p5–p95). */
export function meanNote(items: ReadonlyArray<Named>): string | null {
  const means = items.filter((i) => i.pc.central.statistic === "mean");
  if (!means.length) return null;
  const parts = means.map(({ name, pc }) => {
    const d = pc.distribution;
    return `${name}: single calls p5–p95 ${formatTimeRange(d.p5Ns, d.p95Ns)}, median ${formatTime(d.medianNs)} (${pc.central.reason})`;
  });
  return `${MEAN_MARK} The mean per call over the varied inputs is published, not the median, with its 95% interval in the ± column. ${parts.join("; ")}.`;
}

/** Why sampling stopped without the target, in words, for the records of one target and budget. */
function missedWhy(s: Sampling): string {
  const target = `the ±${formatPercent(s.target.relativeHalfWidth)} target`;
  switch (s.stoppedBy) {
    case "budget":
      return `${target} was not reached within the ${formatTime(s.target.budgetMs * 1e6)} sampling budget of an operation (sampling stopped by the budget)`;
    case "quick":
      return `a --quick smoke run: sampling stopped after ${s.workers === 1 ? "one worker" : `${s.workers} workers`} with no precision target, so ${target} was not reached`;
    default:
      return `the interval is wider than ${target}`;
  }
}

/** The notes under the table on operations whose interval missed its target (†), one per cause. */
export function missedNotes(items: ReadonlyArray<Named>): string[] {
  const missed = items.filter((i) => !targeted(i.pc).metTarget);
  return groupBy(missed, (i) => missedWhy(i.pc.sampling)).map(
    ([why, list]) =>
      `${MISSED_MARK} ${why[0]?.toUpperCase()}${why.slice(1)}: ${listText(list.map((i) => `${i.name} (${formatHalfWidth(targeted(i.pc).relativeHalfWidth)})`))}.`,
  );
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
      ? " The ± column and the target are on the estimated core cycles: the time per call moves with the core clock, which more samples cannot average away."
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
