// Pictures as static SVG, drawn with vega-lite + vega under Node (renderer "none": no canvas, no DOM, no network).
// Each chart kind is compiled and parsed once; a page's chart swaps in its data and renders, which halves the cost
// of a chart (docs/report.md, "Charts"). About 5 ms per chart here: a site of 1,000 instances draws 300 in ~1.5 s.
import * as vega from "vega";
import * as vl from "vega-lite";
import type { Chart, ChartKind } from "./model.ts";
import { visibleModel } from "./render.ts";

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const CONFIG = {
  font: FONT,
  axis: { labelFontSize: 11, titleFontSize: 11, labelLimit: 260 },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: "top" },
  view: { stroke: "#ddd" },
};

function specOf(kind: ChartKind): vl.TopLevelSpec {
  const base = { data: { name: "table" }, width: 520, config: CONFIG, background: "white" } as const;
  switch (kind) {
    case "time":
    case "compare":
      return {
        ...base,
        height: { step: 8 },
        mark: { type: "bar", tooltip: false },
        encoding: {
          y: { field: "row", type: "nominal", sort: null, title: null, scale: { paddingInner: 0.25 } },
          yOffset: { field: "series", sort: null },
          x: {
            field: "value",
            type: "quantitative",
            scale: { type: "log" },
            stack: null,
            axis: { format: "~s", grid: true },
            title: "mean time per operation (seconds, log scale: 1µ = 1 µs, 1m = 1 ms)",
          },
          color: {
            field: "series",
            type: "nominal",
            sort: null,
            title: kind === "time" ? "operation" : "system",
            scale: { scheme: "tableau10" },
          },
        },
      } as vl.TopLevelSpec;
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
                scale: { zero: false, nice: true },
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

const views = new Map<ChartKind, vega.View>();

function viewOf(kind: ChartKind): vega.View {
  let view = views.get(kind);
  if (!view) {
    const compiled = vl.compile(specOf(kind)).spec;
    view = new vega.View(vega.parse(compiled), { renderer: "none" });
    views.set(kind, view);
  }
  return view;
}

/** Draws a chart as an SVG document (UTF-8 text). Text in the data is escaped by vega's SVG writer. */
export async function renderChart(shown: Chart): Promise<string> {
  // Labels come from names and records: bidi and control characters are drawn as escapes (visibleModel).
  const chart = visibleModel(shown);
  const view = viewOf(chart.kind);
  const order = new Map(chart.series.map((s, i) => [s, i]));
  const rowOrder = new Map(chart.rows.map((r, i) => [r, i]));
  // Rows and series in page order: vega-lite's "sort: null" keeps the order of the data.
  const values = [...chart.data]
    .sort(
      (a, b) =>
        (rowOrder.get(a.row) ?? 0) - (rowOrder.get(b.row) ?? 0) ||
        (order.get(a.series) ?? 0) - (order.get(b.series) ?? 0),
    )
    .map((d) => ({ ...d, order: order.get(d.series) ?? 0 }));
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
