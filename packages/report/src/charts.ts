// Pictures as static SVG, drawn with vega-lite + vega under Node (renderer "none": no canvas, no DOM, no network).
// Each chart kind is compiled and parsed once; a page's chart swaps in its data and renders, which halves the cost
// of a chart (docs/report.md, "Charts"). About 5 ms per chart here: a site of 1,000 instances draws 300 in ~1.5 s.
import * as vega from "vega";
import * as vl from "vega-lite";
import { formatTime } from "./format.ts";
import type { Chart, ChartDatum, ChartKind, TimeAxis } from "./model.ts";
import { visibleModel } from "./render.ts";

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const CONFIG = {
  font: FONT,
  // labelLimit 0: labels and legend entries are never cut short (an instance or group name is drawn whole).
  axis: { labelFontSize: 11, titleFontSize: 11, labelLimit: 0 },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: "top", labelLimit: 0, columns: 4 },
  view: { stroke: "#ddd" },
};

const TIME_UNITS: ReadonlyArray<[string, number]> = [
  ["ns", 1],
  ["µs", 1e3],
  ["ms", 1e6],
  ["s", 1e9],
];

/**
 * A time chart's data in one unit and its axis: times given in nanoseconds (value, low, high) are converted to the
 * unit of the smallest figure on a logarithmic axis (when they span more than a factor 20) or of the largest on a
 * linear axis from 0; the domain is fitted to the data (room for the figures written after the bars), so no
 * decade of the axis stays empty. Each bar gets its figure as a label.
 */
export function fitTimeAxis(nsData: readonly ChartDatum[], what: string): { data: ChartDatum[]; axis: TimeAxis } {
  const all = nsData.flatMap((d) => [d.value, d.low ?? d.value, d.high ?? d.value]).filter((v) => v > 0);
  const min = all.length ? Math.min(...all) : 1;
  const max = all.length ? Math.max(...all) : 1;
  const log = max / min > 20;
  const pick = log ? min : max;
  const [unit, factor] = TIME_UNITS.filter(([, f]) => pick >= f).pop() ?? (TIME_UNITS[0] as [string, number]);
  const data = nsData.map((d) => ({
    ...d,
    value: d.value / factor,
    ...(d.low !== undefined ? { low: d.low / factor } : {}),
    ...(d.high !== undefined ? { high: d.high / factor } : {}),
    label: d.label ?? formatTime(d.value),
  }));
  const domain: [number, number] = log ? [min / factor / 1.5, (max / factor) * 2.5] : [0, (max / factor) * 1.3];
  return { data, axis: { title: `${what} (${unit}${log ? ", logarithmic axis" : ""})`, log, domain } };
}

function timeSpec(kind: "time" | "compare", log: boolean): vl.TopLevelSpec {
  const y = { field: "row", type: "nominal", sort: null, title: null, scale: { paddingInner: 0.25 } } as const;
  const yOffset = { field: "series", sort: null } as const;
  const x = {
    type: "quantitative",
    scale: {
      type: log ? "log" : "linear",
      domainMin: { expr: "dmin" },
      domainMax: { expr: "dmax" },
      nice: false,
      // "zero" only on a linear scale: vega-lite drops it from a log scale with a console warning.
      ...(log ? {} : { zero: true }),
    },
    axis: { grid: true, title: { expr: "xtitle" } },
    title: null,
  } as const;
  return {
    data: { name: "table" },
    width: 560,
    config: CONFIG,
    background: "white",
    height: { step: 11 },
    params: [
      { name: "dmin", value: 1 },
      { name: "dmax", value: 10 },
      { name: "xtitle", value: "time" },
    ],
    encoding: { y, yOffset },
    layer: [
      {
        mark: { type: "bar", tooltip: false, clip: true },
        encoding: {
          x: { ...x, field: "value", stack: null },
          color: {
            field: "series",
            type: "nominal",
            sort: null,
            title: kind === "time" ? "operation" : "system",
            scale: { scheme: "tableau10" },
          },
        },
      },
      {
        // The 95 % interval of the figure, where the record has one.
        transform: [{ filter: "isValid(datum.low) && isValid(datum.high)" }],
        mark: { type: "rule", color: "#333", strokeWidth: 1 },
        encoding: { x: { ...x, field: "low" }, x2: { field: "high" } },
      },
      {
        mark: { type: "text", align: "left", baseline: "middle", dx: 3, fontSize: 9, color: "#333" },
        encoding: { x: { ...x, field: "end" }, text: { field: "label" } },
      },
    ],
  } as unknown as vl.TopLevelSpec;
}

function specOf(kind: ChartKind, log: boolean): vl.TopLevelSpec {
  const base = { data: { name: "table" }, width: 520, config: CONFIG, background: "white" } as const;
  switch (kind) {
    case "time":
    case "compare":
      return timeSpec(kind, log);
    case "share":
      return {
        ...base,
        height: { step: 14 },
        mark: { type: "bar", tooltip: false },
        encoding: {
          y: { field: "row", type: "nominal", sort: null, title: null },
          x: {
            field: "value",
            type: "quantitative",
            stack: "zero",
            scale: { domain: [0, 100] },
            title: "share of the operation's time (%)",
          },
          color: { field: "series", type: "nominal", sort: null, title: "group", scale: { scheme: "set2" } },
          order: { field: "order", type: "quantitative" },
        },
      } as vl.TopLevelSpec;
    case "spread":
    case "workers":
      return {
        ...base,
        height: { step: 14 },
        params: [{ name: "smax", value: 1 }],
        layer: [
          {
            mark: { type: "rule", color: "#999" },
            encoding: { x: { datum: 0, type: "quantitative" } },
          },
          {
            mark: { type: "point", filled: true, size: 28, opacity: 0.75, tooltip: false },
            encoding: {
              y: { field: "row", type: "nominal", sort: null, title: null },
              x: {
                field: "value",
                type: "quantitative",
                // Symmetric about 0 (the reference: the median or the published figure), so 0 is a tick.
                scale: { domainMin: { expr: "-smax" }, domainMax: { expr: "smax" }, nice: false, zero: true },
                axis: { values: { expr: "[-smax, -smax / 2, 0, smax / 2, smax]" }, grid: true },
                title:
                  kind === "spread"
                    ? "trial mean relative to the median trial (%)"
                    : "worker's figure relative to the published figure (%)",
              },
              color: { value: "#4c78a8" },
            },
          },
        ],
      } as vl.TopLevelSpec;
  }
}

const views = new Map<string, vega.View>();

function viewOf(kind: ChartKind, log: boolean): vega.View {
  const key = `${kind}:${log ? "log" : "linear"}`;
  let view = views.get(key);
  if (!view) {
    const compiled = vl.compile(specOf(kind, log)).spec;
    view = new vega.View(vega.parse(compiled), { renderer: "none" });
    views.set(key, view);
  }
  return view;
}

/** The half-width of a spread chart's axis: the largest deviation, rounded up to 1, 2 or 5 × 10^k (≥ 0.1 %). */
export function symmetricLimit(data: readonly ChartDatum[]): number {
  const m = Math.max(0.1, ...data.map((d) => Math.abs(d.value)));
  const p = 10 ** Math.floor(Math.log10(m));
  return ([1, 2, 5, 10].map((k) => k * p).find((v) => v >= m * 1.05) ?? 10 * p) as number;
}

/** Draws a chart as an SVG document (UTF-8 text). Text in the data is escaped by vega's SVG writer. */
export async function renderChart(shown: Chart): Promise<string> {
  // Labels come from names and records: bidi and control characters are drawn as escapes (visibleModel).
  const chart = visibleModel(shown);
  const view = viewOf(chart.kind, chart.axis?.log ?? false);
  if (chart.axis) {
    view.signal("dmin", chart.axis.domain[0]).signal("dmax", chart.axis.domain[1]).signal("xtitle", chart.axis.title);
  }
  if (chart.kind === "spread" || chart.kind === "workers") view.signal("smax", symmetricLimit(chart.data));
  const order = new Map(chart.series.map((s, i) => [s, i]));
  const rowOrder = new Map(chart.rows.map((r, i) => [r, i]));
  // Rows and series in page order: vega-lite's "sort: null" keeps the order of the data.
  const values = [...chart.data]
    .sort(
      (a, b) =>
        (rowOrder.get(a.row) ?? 0) - (rowOrder.get(b.row) ?? 0) ||
        (order.get(a.series) ?? 0) - (order.get(b.series) ?? 0),
    )
    .map((d) => ({ ...d, order: order.get(d.series) ?? 0, end: d.high ?? d.value }));
  view.data("table", values);
  await view.runAsync();
  return view.toSVG();
}

/** Releases the compiled chart views (tests and long-running callers). */
export function resetCharts(): void {
  for (const v of views.values()) v.finalize();
  views.clear();
}

/** Draws charts one after the other (the compiled views are shared, so never two at once). */
export interface ChartRenderer {
  render(chart: Chart): Promise<string>;
}

export function chartRenderer(): ChartRenderer {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    render(chart) {
      const next = queue.then(() => renderChart(chart));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
