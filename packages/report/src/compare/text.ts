// A comparison in words: the table the command prints (aligned text columns), the row notes, the summary line and
// what the verdicts mean.
import { formatCounter, formatHalfWidth, formatPercent, formatTime } from "../format.ts";
import type { Comparison, Figure, MeasurementKey, OneSided, Verdict } from "./types.ts";

export function measurementName(k: MeasurementKey, withSystem: boolean, withProfile = true): string {
  return `${withSystem ? `${k.system}: ` : ""}${k.algorithmId}/${k.instance} ${k.operation}${withProfile ? ` [${k.buildProfile}]` : ""}`;
}

function figureValueText(v: number, f: Figure, halfWidth?: number): string {
  const value = f.unit === "ns" ? formatTime(v) : `${formatCounter(v)} cycles`;
  return halfWidth === undefined ? value : `${value} ${formatHalfWidth(halfWidth)}`;
}

const VERDICT_TEXT: Record<Verdict, string> = {
  faster: "faster",
  slower: "slower",
  same: "same",
  "not-comparable": "not comparable",
};

export function figureText(f: Figure): string {
  return `${f.statistic} ${f.unit === "ns" ? "time" : "est. cycles"}`;
}

/** Instructions per call: an integer when whole, else two decimals. */
function formatCount(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

function ratioText(r: number): string {
  return Number.isFinite(r) ? r.toFixed(3) : String(r);
}

const WHERE_TEXT: Record<OneSided["where"], string> = {
  "only-a": "only in A",
  "only-b": "only in B",
  "failed-a": "failed in A",
  "failed-b": "failed in B",
  "failed-both": "failed in both",
};

function layout(c: Comparison) {
  const systems = new Set([...c.timings, ...c.instructions, ...c.unmatched].map((x) => x.key.system));
  return { withSystem: systems.size > 1, withProfile: !c.a.profile };
}

/** The rows of the verdict table, as text cells. */
export function timingRows(c: Comparison): string[][] {
  const { withSystem, withProfile } = layout(c);
  return c.timings.map((t) => [
    measurementName(t.key, withSystem, withProfile),
    figureText(t.figure),
    figureValueText(t.a, t.figure, t.aRelativeHalfWidth),
    figureValueText(t.b, t.figure, t.bRelativeHalfWidth),
    ratioText(t.ratio),
    `${ratioText(t.ci95.low)}–${ratioText(t.ci95.high)}`,
    VERDICT_TEXT[t.verdict],
  ]);
}

/** The notes of the rows that have one (`kem-90/P-1 enc [guide]: …`). */
export function rowNotes(c: Comparison): string[] {
  const { withSystem, withProfile } = layout(c);
  return c.timings.filter((t) => t.note).map((t) => `${measurementName(t.key, withSystem, withProfile)}: ${t.note}.`);
}

export const TIMING_HEADERS = ["measurement", "figure", "A", "B", "B/A", "95% interval", "verdict"];
export const COUNT_HEADERS = ["measurement", "A instructions", "B instructions", "B/A", "verdict"];

export function countRows(c: Comparison): string[][] {
  const { withSystem, withProfile } = layout(c);
  return c.instructions.map((x) => [
    measurementName(x.key, withSystem, withProfile),
    formatCount(x.a),
    formatCount(x.b),
    x.ratio === null ? "—" : ratioText(x.ratio),
    x.verdict,
  ]);
}

export function unmatchedRows(c: Comparison): string[][] {
  const { withSystem, withProfile } = layout(c);
  return c.unmatched.map((u) => [measurementName(u.key, withSystem, withProfile), u.kind, WHERE_TEXT[u.where]]);
}

/** Columns padded to their widest cell; numbers (and ratios) right-aligned. */
export function alignedTable(headers: string[], rows: string[][], right: ReadonlyArray<number>): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((s, i) => (right.includes(i) ? s.padStart(widths[i] as number) : s.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

export function sideName(s: { store: string; profile?: string }): string {
  return s.profile ? `${s.store} (build profile ${s.profile})` : s.store;
}

/** What the verdicts mean and how the interval was computed, in words (page and console). */
export function methodText(c: Comparison): string {
  const t = formatPercent(c.threshold);
  return (
    `B/A is the ratio of the figure each page publishes: the median per call (the mean where a record publishes the mean), ` +
    "of the estimated core cycles when both records' precision target was on them (the time per call moves with the core clock), else of the time. " +
    `Its 95% interval is a ${c.method.interval}, ${c.method.resamples} resamples, seed ${c.method.seed}. ` +
    `Verdict: slower when the whole interval lies above 1 + ${t}, faster when it lies below 1/(1 + ${t}) (the same band seen from the other side: swapping A and B swaps the verdicts), else same (the interval reaches into the noise band, or contains 1). ` +
    "A and B carry each record's own 95% interval of its figure (±), where the figure is the one it publishes. " +
    "Two figures published in different contention states (one from uncontended workers, the other from all, some or all of them contended) are compared over each side's uncontended workers only (their pooled calls, bootstrapped alike), when each side has at least two; otherwise they get no verdict: not comparable. " +
    "Instruction counts are exact: same only when equal." +
    (c.counts.oneWorker
      ? ` In ${c.counts.oneWorker} of the ${c.timings.length} timings a side was sampled by one worker only: their intervals hold no process-to-process noise (a larger timing budget gives more workers).`
      : "")
  );
}

export function summaryText(c: Comparison): string {
  const k = c.counts;
  const parts = [
    `${c.timings.length} timing(s) compared: ${k.same} same, ${k.faster} faster, ${k.slower} slower${k.notComparable ? `, ${k.notComparable} not comparable (different contention states, too few uncontended workers)` : ""}`,
    `${c.instructions.length} instruction count(s): ${k.instructionsSame} same, ${k.instructionsDiffer} different`,
    `${c.unmatched.length} not compared (one side only or failed)`,
  ];
  return `${parts.join("; ")}.`;
}
