// @ngcc-perf/report: Markdown and HTML pages and the browsable site built from an ngcc-perf record store.
export { type ChartRenderer, chartRenderer, renderChart, resetCharts } from "./charts.ts";
export {
  formatBytes,
  formatCalls,
  formatCount,
  formatCounter,
  formatDeviation,
  formatG,
  formatGHz,
  formatKiB,
  formatN,
  formatOpsPerSecond,
  formatRatio,
  formatShare,
  formatTime,
  formatUtc,
} from "./format.ts";
export { kindOfPath, type LoadedStore, loadStore, type SystemStore } from "./load.ts";
export { type Cell, type Chart, type Inline, type Page, plain, type Section, type Table } from "./model.ts";
export {
  type AlgorithmView,
  algorithmPage,
  counterColumn,
  environmentRows,
  OPERATION_ORDER,
  type SiteContext,
  SystemView,
  siteContext,
  sitePages,
} from "./pages.ts";
export { escapeHtml, escapeMarkdown, FORMATS, type Format, renderPage, safeHref } from "./render.ts";
export { parseFormats, type RenderOptions, type RenderSummary, renderLoadedSite, renderSite } from "./site.ts";
