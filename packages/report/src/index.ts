// @ngcc-perf/report: Markdown and HTML pages and the browsable site built from an ngcc-perf record store.
export { type ChartRenderer, chartRenderer, renderChart, resetCharts } from "./charts.ts";
export * from "./compare/index.ts";
export {
  formatBytes,
  formatCalls,
  formatCallsN,
  formatCount,
  formatCounter,
  formatDeviation,
  formatFixed,
  formatG,
  formatGHz,
  formatHalfWidth,
  formatKiB,
  formatN,
  formatOpsPerSecond,
  formatPercent,
  formatRatio,
  formatShare,
  formatTime,
  formatTimeRange,
  formatUtc,
} from "./format.ts";
export { type AlgorithmRecord, type LoadedStore, loadStore, type SystemStore } from "./load.ts";
export { type Cell, type Chart, type Inline, type Page, plain, type Section, type Table } from "./model.ts";
export { algorithmPage, sitePages } from "./pages.ts";
export { type PerCall, perCallOf } from "./per-call.ts";
export { escapeHtml, escapeMarkdown, FORMATS, type Format, renderPage, safeHref, visibleModel } from "./render.ts";
export { environmentRows } from "./sections/environment.ts";
export { counterColumn } from "./sections/performance.ts";
export {
  parseFormats,
  type RenderOptions,
  type RenderSummary,
  removeStaleSites,
  renderLoadedSite,
  renderSite,
} from "./site.ts";
export {
  type AlgorithmView,
  type InstanceRow,
  OPERATION_ORDER,
  type SiteContext,
  SystemView,
  siteContext,
} from "./view.ts";
