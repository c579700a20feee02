// `ngcc-perf compare` (docs/report.md "Comparing stores"): two record stores, or two build profiles of one,
// measurement by measurement — the ratio B/A of the figure the pages publish with a 95 % interval from a two-stage
// bootstrap of the raw samples (@ngcc-perf/stats; fixed seed, so the same stores always give the same interval) and
// a verdict against a noise band; instruction counts compared exactly. types.ts the result, figures.ts what a
// record gives, pair.ts the pairing and comparing, text.ts the words and tables, page.ts the page. This file is
// what the package exports of them.

export { comparisonPage } from "./page.ts";
export { compareStores } from "./pair.ts";
export {
  alignedTable,
  COUNT_HEADERS,
  countRows,
  methodText,
  rowNotes,
  summaryText,
  TIMING_HEADERS,
  timingRows,
  unmatchedRows,
} from "./text.ts";
export type { CompareOptions, Comparison } from "./types.ts";
