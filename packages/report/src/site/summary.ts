// The summary of a system: one table of every algorithm × instance × build profile × operation with its published
// time, the ratio to a baseline instance (when one is chosen), the transmitted sizes and the hash and DRNG shares,
// one chart; and the same figures exported for spreadsheets and scripts (site/<system>/summary.csv and .json, beside
// the page), each with the paths of the records it comes from, relative to the export itself.

import type { HashProfileRecord, SizeAuditRecord, TimingRecord } from "@ngcc-perf/schema";
import { fitTimeAxis } from "../charts.ts";
import { formatBytes, formatRatio, formatShare, formatTime } from "../format.ts";
import type { Cell, Chart, ChartDatum, Page } from "../model.ts";
import { cell, code, text } from "../model.ts";
import { DASH, footer, header, NOT_MEASURED, pagePaths, section } from "../parts.ts";
import { perCallOf } from "../per-call.ts";
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
        const p = view.profileOf(alg.id, row, op);
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
  const trials = r.method === "trials" ? " (trials mean)" : "";
  return `${mean}${formatTime(r.timeNs)}${trials}${r.notPlausible ? ` ${NOT_PLAUSIBLE}` : ""}`;
}

function halfWidthCell(r: SummaryRow): string {
  if (r.timeNs === null || r.ci95LowNs === null || r.ci95HighNs === null || r.timeNs <= 0) return DASH;
  return `±${formatShare((r.ci95HighNs - r.ci95LowNs) / 2 / r.timeNs)}`;
}

export function summaryPage(ctx: SiteContext, view: SystemView, rows: SummaryRow[], baseline: Baseline | null): Page {
  const several = rows.some((r) => r.buildProfile !== null) && view.algorithms.some((a) => a.profiles.length > 1);
  const withRatio = baseline !== null;
  const table: Cell[][] = rows.map((r) => [
    [{ text: r.algorithmId, page: r.algorithmId }],
    [code(r.instance)],
    ...(several ? [cell(r.buildProfile ?? DASH)] : []),
    cell(r.operation),
    cell(timeCell(r)),
    cell(halfWidthCell(r)),
    ...(withRatio ? [cell(r.ratioToBaseline === null ? DASH : formatRatio(r.ratioToBaseline))] : []),
    cell(bytes(r.publicKeyBytes)),
    cell(bytes(r.ciphertextBytes ?? r.signatureBytes)),
    cell(share(r.hashShare)),
    cell(share(r.drngShare)),
  ]);
  const data: ChartDatum[] = rows
    .filter((r) => r.timeNs !== null && r.timeNs > 0)
    .map((r) => ({
      row: `${r.algorithmId} ${r.instance}${several && r.buildProfile ? ` (${r.buildProfile})` : ""}`,
      series: r.operation,
      value: r.timeNs as number,
      ...(r.ci95LowNs !== null && r.ci95HighNs !== null ? { low: r.ci95LowNs, high: r.ci95HighNs } : {}),
    }));
  const charts: Chart[] = [];
  if (data.length) {
    const fitted = fitTimeAxis(data, "time per operation");
    charts.push({
      kind: "time",
      file: "img/summary-time.svg",
      title: `Time per operation of every instance on ${view.system}${fitted.axis.log ? " (logarithmic axis)" : ""}`,
      description: `Horizontal bars: the published time of every operation of every instance on ${view.system} (the median per call, or the mean where the table says mean; the mean over all iterations for records timed in trials), with 95 % intervals where the records have them, on a ${fitted.axis.log ? "logarithmic" : "linear"} axis.`,
      data: fitted.data,
      rows: [...new Set(data.map((d) => d.row))],
      series: [...new Set(data.map((d) => d.series))],
      axis: fitted.axis,
    });
  }
  return {
    kind: "summary",
    path: `${view.system}/summary`,
    header: header(ctx, view, "summary", (other) => `../${other.system}/summary`),
    title: `Summary of system ${view.system}`,
    intro: [
      [
        text(
          `Every operation of every instance measured on ${view.system}: the published time (the median per call, or the mean where written; for records timed in trials the mean over all iterations), its 95 % interval, `,
        ),
        text(
          withRatio
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
      ],
    ],
    sections: [
      section("summary", "Every instance and operation", {
        tables: [
          {
            caption: `Published time, sizes and hash/DRNG shares of every instance and operation on ${view.system}`,
            headers: [
              "algorithm",
              "instance",
              ...(several ? ["build profile"] : []),
              "operation",
              "time",
              "±",
              ...(withRatio && baseline ? [`ratio to ${baselineText(baseline)}`] : []),
              "public key",
              "ciphertext / signature",
              "hash share",
              "DRNG share",
            ],
            rows: table,
            rowHeaders: false,
          },
        ],
        charts,
      }),
    ],
    footer: footer(ctx, view),
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
      system: view.system,
      baseline: baseline ? baselineText(baseline) : null,
      recordPathsRelativeTo: `this file's folder (site/${view.system}/); the records are in ${view.dataHref}`,
      rows,
    },
    null,
    2,
  )}\n`;
}
