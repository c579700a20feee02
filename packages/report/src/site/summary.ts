// The summary of a system: one table of every algorithm × instance × build profile × operation with its published
// time, the ratio to a baseline instance (when one is chosen), the transmitted sizes and the hash and DRNG shares,
// one chart; and the same figures exported for spreadsheets and scripts (site/<system>/summary.csv and .json, beside
// the page), each with the paths of the records it comes from, relative to the export itself.

import { type HashProfileRecord, SCHEMA_VERSION, type SizeAuditRecord, type TimingRecord } from "@ngcc-perf/schema";
import { fitTimeAxis } from "../charts.ts";
import { formatBytes, formatCounter, formatHalfWidth, formatRatio, formatShare, formatTime } from "../format.ts";
import type { Cell, Chart, ChartDatum, Inline, Page } from "../model.ts";
import { cell, code, text } from "../model.ts";
import { DASH, footer, header, NOT_MEASURED, pagePaths, section } from "../parts.ts";
import {
  CONTENDED_MARK,
  contentionOf,
  decisionOf,
  inputDependent,
  MEAN_MARK,
  type PerCall,
  perCallOf,
  tailOf,
  targeted,
} from "../per-call.ts";
import { implausibleChecks, NOT_PLAUSIBLE } from "../plausible.ts";
import type { AlgorithmView, SiteContext, SystemView } from "../view.ts";

/** The instance the ratios are relative to: `<algorithm-id>/<instance>`, optionally `@<build profile>`. */
export interface Baseline {
  algorithmId: string;
  instance: string;
  buildProfile?: string;
}

/** Parses `kem-90/Puffin-128` or `kem-90/Puffin-128@guide`; null for text of another shape. */
export function parseBaseline(text: string): Baseline | null {
  const m = /^([^/@\s]+)\/([^/@\s]+)(?:@([^/@\s]+))?$/.exec(text.trim());
  if (!m) return null;
  return { algorithmId: m[1] as string, instance: m[2] as string, ...(m[3] ? { buildProfile: m[3] } : {}) };
}

export const baselineText = (b: Baseline) =>
  `${b.algorithmId}/${b.instance}${b.buildProfile ? `@${b.buildProfile}` : ""}`;

/** One exported figure set: an operation of an instance under a build profile. */
export interface SummaryRow {
  system: string;
  algorithmId: string;
  algorithmName: string | null;
  category: string;
  instance: string;
  buildProfile: string | null;
  operation: string;
  status: "ok" | "failed" | "not measured";
  /** Present (true) when the figure failed a cross-check (plausible.ts): shown marked, not as the code's time. */
  notPlausible?: true;
  /** median or mean per call (method per-call), or the mean over all iterations (method trials). */
  statistic: "median" | "mean" | null;
  method: "per-call" | "trials" | null;
  timeNs: number | null;
  ci95LowNs: number | null;
  ci95HighNs: number | null;
  /** The time's 95 % interval's half-width as a fraction of timeNs (the record's central.relativeHalfWidth). */
  timeRelativeHalfWidth: number | null;
  /** The published statistic in estimated core cycles per call, with its own 95 % interval (central.cycles). */
  cycles: number | null;
  cyclesCi95Low: number | null;
  cyclesCi95High: number | null;
  cyclesRelativeHalfWidth: number | null;
  /** The figure the precision target applied to (sampling stopped on its interval): time or cycles. */
  targetFigure: "time" | "cycles" | null;
  /** Whether the operation's work depends on its input (the instructions decision, else the mean published). */
  inputDependent: boolean | null;
  /** How the statistic was chosen: instructions counted per call, or the distribution rule (older records: null). */
  decidedBy: "instructions" | "distribution" | null;
  /** The instructions decision's evidence: fewest and most instructions per call over the inputs counted. */
  instructionsPerCallMin: number | null;
  instructionsPerCallMax: number | null;
  /** The tail per call: 99th, 99.9th percentile (null when the record lacks it), largest, over `calls` calls. */
  p99Ns: number | null;
  p999Ns: number | null;
  maxNs: number | null;
  calls: number | null;
  /** The contention state of the workers the figure was published from (null: no contention probe). */
  contentionState: "uncontended" | "contended" | "mixed" | null;
  publishedFrom: "uncontended" | "all" | null;
  /** timeNs ÷ the baseline's timeNs for the same operation (null: no baseline, or it lacks the operation). */
  ratioToBaseline: number | null;
  publicKeyBytes: number | null;
  ciphertextBytes: number | null;
  signatureBytes: number | null;
  /** Fractions of the operation's time in the hash groups and in the DRNG (the hash/DRNG profile). */
  hashShare: number | null;
  drngShare: number | null;
  failure: string | null;
  /** Paths of the records, relative to the summary page and its exports (site/<system>/). */
  records: { timing: string | null; profile: string | null; sizes: string | null };
}

/** A record's path relative to site/<system>/ (where the summary and its exports are), or null. */
function hrefOf(view: SystemView, record: object): string | null {
  const rel = view.pathOf(record);
  return rel === undefined ? null : `${view.dataHref}${rel}`;
}

/** The per-call fields of a row: each figure's own interval, the target's figure, the tail, the decision, the
 * contention state; all null for a trials record or a failure. */
function perCallFields(t: TimingRecord | undefined) {
  const pc: PerCall | null = perCallOf(t);
  const c = pc?.central.cycles;
  const d = pc ? decisionOf(pc) : null;
  const tail = pc ? tailOf(pc) : null;
  const k = contentionOf(t);
  return {
    timeRelativeHalfWidth: pc ? pc.central.relativeHalfWidth : null,
    cycles: c ? c.value : null,
    cyclesCi95Low: c ? c.ci95.low : null,
    cyclesCi95High: c ? c.ci95.high : null,
    cyclesRelativeHalfWidth: c ? c.relativeHalfWidth : null,
    targetFigure: pc ? targeted(pc).figure : null,
    inputDependent: pc ? inputDependent(pc) : null,
    decidedBy: d?.by ?? null,
    instructionsPerCallMin: d?.by === "instructions" ? d.minInstructions : null,
    instructionsPerCallMax: d?.by === "instructions" ? d.maxInstructions : null,
    p99Ns: tail ? tail.p99Ns : null,
    p999Ns: tail ? tail.p999Ns : null,
    maxNs: tail ? tail.maxNs : null,
    calls: tail ? tail.calls : null,
    contentionState: k ? k.state : null,
    publishedFrom: k ? k.publishedFrom : null,
  };
}

function publishedTime(t: TimingRecord | undefined) {
  if (t?.status !== "ok" || !t.aggregates) return null;
  const pc = perCallOf(t);
  if (pc)
    return {
      method: "per-call" as const,
      statistic: pc.central.statistic,
      timeNs: pc.central.valueNs,
      low: pc.central.ci95Ns.low,
      high: pc.central.ci95Ns.high,
    };
  return { method: "trials" as const, statistic: "mean" as const, timeNs: t.aggregates.meanNs, low: null, high: null };
}

function shares(p: HashProfileRecord | undefined): { hash: number | null; drng: number | null } {
  if (p?.status !== "ok" || !p.groups) return { hash: null, drng: null };
  const kindOf = (g: NonNullable<HashProfileRecord["groups"]>[number]) =>
    g.kind ?? (g.name === "drng" || g.symbols.includes("randombytes") ? "drng" : "hash");
  const sum = (k: string) => p.groups?.filter((g) => kindOf(g) === k).reduce((a, g) => a + g.share, 0) ?? 0;
  const has = (k: string) => p.groups?.some((g) => kindOf(g) === k) ?? false;
  return { hash: has("hash") ? sum("hash") : null, drng: has("drng") ? sum("drng") : null };
}

function sizesOf(view: SystemView, alg: AlgorithmView, instance: string, profile: string | null) {
  const audits = view.auditsOf(alg.id);
  const audit = (audits.find((a) => a.key.buildProfile === profile) ?? audits[0]) as
    | { record: SizeAuditRecord; key: { buildProfile: string } }
    | undefined;
  const i = audit?.record.instances.find((x) => x.instance === instance);
  const pk = i?.table?.publicKeyBytes ?? i?.kex?.publicKeyBBytes ?? null;
  return {
    path: audit ? hrefOf(view, audit.record) : null,
    publicKeyBytes: pk,
    ciphertextBytes: i?.table?.ciphertextBytes ?? null,
    signatureBytes: i?.table?.signatureBytes ?? null,
  };
}

/** Every row of the system's summary, in page order (algorithms, instances, profiles, operations). */
export function summaryRows(view: SystemView, baseline: Baseline | null): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const alg of view.algorithms)
    for (const row of view.rowsOf(alg))
      for (const op of view.operationsOf(alg, row.instance)) {
        const t = view.timingOf(alg.id, row, op);
        const p = view.hashProfileOf(alg.id, row, op);
        const fig = publishedTime(t);
        const s = shares(p);
        const sz = sizesOf(view, alg, row.instance, row.profile);
        rows.push({
          system: view.system,
          algorithmId: alg.id,
          algorithmName: alg.name,
          category: alg.category,
          instance: row.instance,
          buildProfile: row.profile,
          operation: op,
          status: !t ? "not measured" : t.status === "ok" && t.aggregates ? "ok" : "failed",
          ...(implausibleChecks(t, view.store.instructions).length ? { notPlausible: true as const } : {}),
          statistic: fig?.statistic ?? null,
          method: fig?.method ?? null,
          timeNs: fig?.timeNs ?? null,
          ci95LowNs: fig?.low ?? null,
          ci95HighNs: fig?.high ?? null,
          ...perCallFields(t?.status === "ok" ? t : undefined),
          ratioToBaseline: null,
          publicKeyBytes: sz.publicKeyBytes,
          ciphertextBytes: sz.ciphertextBytes,
          signatureBytes: sz.signatureBytes,
          hashShare: s.hash,
          drngShare: s.drng,
          failure:
            t && t.status !== "ok"
              ? t.failure
                ? (pagePaths(t.failure.message, t).split("\n")[0] ?? "failed")
                : "failed"
              : null,
          records: { timing: t ? hrefOf(view, t) : null, profile: p ? hrefOf(view, p) : null, sizes: sz.path },
        });
      }
  if (baseline) {
    const base = rows.filter(
      (r) =>
        r.algorithmId === baseline.algorithmId &&
        r.instance === baseline.instance &&
        (baseline.buildProfile === undefined || r.buildProfile === baseline.buildProfile),
    );
    for (const r of rows) {
      const b = base.find((x) => x.operation === r.operation && x.timeNs !== null && x.timeNs > 0);
      if (b && r.timeNs !== null) r.ratioToBaseline = r.timeNs / (b.timeNs as number);
    }
  }
  return rows;
}

/** Whether the baseline names an instance the system holds (an InputError for the caller when it does not). */
export function baselineFound(view: SystemView, b: Baseline): boolean {
  const alg = view.algorithm(b.algorithmId);
  if (!alg?.instances.includes(b.instance)) return false;
  return b.buildProfile === undefined || alg.profiles.includes(b.buildProfile);
}

const bytes = (v: number | null) => (v === null ? DASH : formatBytes(v));
const share = (v: number | null) => (v === null ? DASH : formatShare(v));

function timeCell(r: SummaryRow): string {
  if (r.status === "not measured") return NOT_MEASURED;
  if (r.status === "failed" || r.timeNs === null) return `FAILED${r.failure ? `: ${r.failure}` : ""}`;
  const mean = r.method === "per-call" && r.statistic === "mean" ? "mean " : "";
  const meanMark = mean ? ` ${MEAN_MARK}` : "";
  const trials = r.method === "trials" ? " (trials mean)" : "";
  const contended =
    r.publishedFrom === "all" && r.contentionState !== "uncontended" && r.contentionState ? ` ${CONTENDED_MARK}` : "";
  return `${mean}${formatTime(r.timeNs)}${meanMark}${trials}${r.notPlausible ? ` ${NOT_PLAUSIBLE}` : ""}${contended}`;
}

/** The time's ± cell: the record's own interval of the time (never the cycles'). */
function halfWidthCell(r: SummaryRow): string {
  if (r.timeRelativeHalfWidth !== null) return formatHalfWidth(r.timeRelativeHalfWidth);
  return DASH;
}

const cyclesCell = (r: SummaryRow) => (r.cycles === null ? DASH : formatCounter(r.cycles));
const cyclesHalfWidthCell = (r: SummaryRow) =>
  r.cyclesRelativeHalfWidth === null ? DASH : formatHalfWidth(r.cyclesRelativeHalfWidth);

/** The tail cell of an input-dependent operation's row. */
function tailText(r: SummaryRow): string {
  if (!r.inputDependent || r.p99Ns === null || r.maxNs === null) return DASH;
  const parts = [`p99 ${formatTime(r.p99Ns)}`];
  if (r.p999Ns !== null) parts.push(`p99.9 ${formatTime(r.p999Ns)}`);
  parts.push(`max ${formatTime(r.maxNs)}`);
  return `${parts.join(" · ")} / ${r.calls} calls`;
}

/** The lines under the table: what each ± is, which figure the target applied to, and the marks used. */
function legend(rows: readonly SummaryRow[]): string[] {
  const lines: string[] = [];
  const perCall = rows.filter((r) => r.targetFigure !== null);
  if (rows.some((r) => r.cycles !== null)) {
    const onCycles = perCall.filter((r) => r.targetFigure === "cycles").length;
    lines.push(
      `Each ± is the 95% interval of the figure before it: the time's under ±, the estimated core cycles' under ± cycles.${onCycles ? ` Sampling stopped on the estimated core cycles' interval (the precision target applied to them) for ${onCycles === perCall.length ? "every row measured per call" : `${onCycles} of ${perCall.length} rows measured per call`}.` : ""}`,
    );
  } else if (perCall.length) lines.push("The ± is the 95% interval of the time before it.");
  if (rows.some((r) => r.method === "per-call" && r.statistic === "mean"))
    lines.push(
      `${MEAN_MARK} The mean per call is published, not the median: the operation's work depends on its input (its tail in the tail column; the evidence on the algorithm's page).`,
    );
  if (rows.some((r) => r.publishedFrom === "all" && r.contentionState && r.contentionState !== "uncontended"))
    lines.push(
      `${CONTENDED_MARK} Published from every worker, contended ones included: too few workers ran on an uncontended core (the algorithm's page says which).`,
    );
  return lines;
}

/** The summary table's optional columns: build profile, estimated cycles, tail, ratio to the baseline. */
interface SummaryColumns {
  several: boolean;
  cycles: boolean;
  tail: boolean;
  baseline: Baseline | null;
}

export function summaryPage(ctx: SiteContext, view: SystemView, rows: SummaryRow[], baseline: Baseline | null): Page {
  const columns: SummaryColumns = {
    several: rows.some((r) => r.buildProfile !== null) && view.algorithms.some((a) => a.profiles.length > 1),
    cycles: rows.some((r) => r.cycles !== null),
    tail: rows.some((r) => r.inputDependent && r.p99Ns !== null),
    baseline,
  };
  const chart = summaryChart(view, rows, columns.several);
  return {
    kind: "summary",
    path: `${view.system}/summary`,
    header: header(ctx, view, "summary", (other) => `../${other.system}/summary`),
    title: `Summary of system ${view.system}`,
    intro: [summaryIntro(view, baseline)],
    sections: [
      section("summary", "Every instance and operation", {
        tables: [
          {
            caption: `Published time, sizes and hash/DRNG shares of every instance and operation on ${view.system}`,
            headers: summaryHeaders(columns),
            rows: rows.map((r) => summaryCells(r, columns)),
            rowHeaders: false,
          },
        ],
        after: legend(rows).map((line) => [text(line)]),
        charts: chart ? [chart] : [],
      }),
    ],
    footer: footer(ctx, view),
  };
}

/** What the table holds (the ratio column, or how to get one), with the links to the exports. */
function summaryIntro(view: SystemView, baseline: Baseline | null): Inline[] {
  return [
    text(
      `Every operation of every instance measured on ${view.system}: the published time (the median per call, or the mean where written; for records timed in trials the mean over all iterations), its 95 % interval, `,
    ),
    text(
      baseline !== null
        ? `the ratio to ${baselineText(baseline)} for the same operation, `
        : "no ratio column (no baseline chosen: ngcc-perf report --baseline <algorithm-id>/<instance>), ",
    ),
    text(
      "the transmitted sizes of the size audit (public key; ciphertext or signature) and the shares of the time in the hash functions and in the DRNG from the hash/DRNG profile. The same figures, each with its record paths: ",
    ),
    { text: "summary.csv", href: "summary.csv" },
    text(" · "),
    { text: "summary.json", href: "summary.json" },
    text("."),
  ];
}

/** The summary table's header row. */
function summaryHeaders({ several, cycles, tail, baseline }: SummaryColumns): string[] {
  return [
    "algorithm",
    "instance",
    ...(several ? ["build profile"] : []),
    "operation",
    "time",
    "±",
    ...(cycles ? ["cycles per call (est.)", "± cycles"] : []),
    ...(tail ? ["tail per call (p99 · p99.9 · max / calls)"] : []),
    ...(baseline ? [`ratio to ${baselineText(baseline)}`] : []),
    "public key",
    "ciphertext / signature",
    "hash share",
    "DRNG share",
  ];
}

/** One row of the summary table. */
function summaryCells(r: SummaryRow, { several, cycles, tail, baseline }: SummaryColumns): Cell[] {
  return [
    [{ text: r.algorithmId, page: r.algorithmId }],
    [code(r.instance)],
    ...(several ? [cell(r.buildProfile ?? DASH)] : []),
    cell(r.operation),
    cell(timeCell(r)),
    cell(halfWidthCell(r)),
    ...(cycles ? [cell(cyclesCell(r)), cell(cyclesHalfWidthCell(r))] : []),
    ...(tail ? [cell(tailText(r))] : []),
    ...(baseline !== null ? [cell(r.ratioToBaseline === null ? DASH : formatRatio(r.ratioToBaseline))] : []),
    cell(bytes(r.publicKeyBytes)),
    cell(bytes(r.ciphertextBytes ?? r.signatureBytes)),
    cell(share(r.hashShare)),
    cell(share(r.drngShare)),
  ];
}

/** The time of every operation measured on the system, with its 95 % interval where the record has one. */
function summaryChart(view: SystemView, rows: readonly SummaryRow[], several: boolean): Chart | null {
  const data: ChartDatum[] = rows
    .filter((r) => r.timeNs !== null && r.timeNs > 0)
    .map((r) => ({
      row: `${r.algorithmId} ${r.instance}${several && r.buildProfile ? ` (${r.buildProfile})` : ""}`,
      series: r.operation,
      value: r.timeNs as number,
      ...(r.ci95LowNs !== null && r.ci95HighNs !== null ? { low: r.ci95LowNs, high: r.ci95HighNs } : {}),
    }));
  if (!data.length) return null;
  const fitted = fitTimeAxis(data, "time per operation");
  return {
    kind: "time",
    file: "img/summary-time.svg",
    title: `Time per operation of every instance on ${view.system}${fitted.axis.log ? " (logarithmic axis)" : ""}`,
    description: `Horizontal bars: the published time of every operation of every instance on ${view.system} (the median per call, or the mean where the table says mean; the mean over all iterations for records timed in trials), with 95 % intervals where the records have them, on a ${fitted.axis.log ? "logarithmic" : "linear"} axis.`,
    data: fitted.data,
    rows: [...new Set(data.map((d) => d.row))],
    series: [...new Set(data.map((d) => d.series))],
    axis: fitted.axis,
  };
}

const CSV_COLUMNS: ReadonlyArray<[string, (r: SummaryRow) => string | number | null]> = [
  ["system", (r) => r.system],
  ["algorithm", (r) => r.algorithmId],
  ["name", (r) => r.algorithmName],
  ["category", (r) => r.category],
  ["instance", (r) => r.instance],
  ["build_profile", (r) => r.buildProfile],
  ["operation", (r) => r.operation],
  ["status", (r) => r.status],
  ["method", (r) => r.method],
  ["statistic", (r) => r.statistic],
  ["time_ns", (r) => r.timeNs],
  ["ci95_low_ns", (r) => r.ci95LowNs],
  ["ci95_high_ns", (r) => r.ci95HighNs],
  ["time_relative_half_width", (r) => r.timeRelativeHalfWidth],
  ["cycles", (r) => r.cycles],
  ["cycles_ci95_low", (r) => r.cyclesCi95Low],
  ["cycles_ci95_high", (r) => r.cyclesCi95High],
  ["cycles_relative_half_width", (r) => r.cyclesRelativeHalfWidth],
  ["target_figure", (r) => r.targetFigure],
  ["input_dependent", (r) => (r.inputDependent === null ? null : String(r.inputDependent))],
  ["decided_by", (r) => r.decidedBy],
  ["instructions_per_call_min", (r) => r.instructionsPerCallMin],
  ["instructions_per_call_max", (r) => r.instructionsPerCallMax],
  ["p99_ns", (r) => r.p99Ns],
  ["p999_ns", (r) => r.p999Ns],
  ["max_ns", (r) => r.maxNs],
  ["calls", (r) => r.calls],
  ["contention_state", (r) => r.contentionState],
  ["published_from", (r) => r.publishedFrom],
  ["ratio_to_baseline", (r) => r.ratioToBaseline],
  ["public_key_bytes", (r) => r.publicKeyBytes],
  ["ciphertext_bytes", (r) => r.ciphertextBytes],
  ["signature_bytes", (r) => r.signatureBytes],
  ["hash_share", (r) => r.hashShare],
  ["drng_share", (r) => r.drngShare],
  ["failure", (r) => r.failure],
  ["timing_record", (r) => r.records.timing],
  ["profile_record", (r) => r.records.profile],
  ["sizes_record", (r) => r.records.sizes],
];

/** A CSV field: quoted when it holds a comma, quote or line break; a leading = + - @ made inert for spreadsheets. */
function csvField(v: string | number | null): string {
  if (v === null) return "";
  if (typeof v === "number") return String(v);
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The summary as CSV (RFC 4180, a header line, figures in full precision, empty for none). */
export function summaryCsv(rows: readonly SummaryRow[]): string {
  const lines = [CSV_COLUMNS.map(([h]) => h).join(",")];
  for (const r of rows) lines.push(CSV_COLUMNS.map(([, f]) => csvField(f(r))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** The summary as JSON: the rows, the baseline, and where the record paths are relative to. */
export function summaryJson(view: SystemView, rows: readonly SummaryRow[], baseline: Baseline | null): string {
  return `${JSON.stringify(
    {
      kind: "summary",
      schemaVersion: SCHEMA_VERSION,
      system: view.system,
      baseline: baseline ? baselineText(baseline) : null,
      recordPathsRelativeTo: `this file's folder (site/${view.system}/); the records are in ${view.dataHref}`,
      rows,
    },
    null,
    2,
  )}\n`;
}
