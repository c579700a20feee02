// @ngcc-perf/stats: the statistics of ngcc-perf, each in one place — pure functions over numbers, no I/O.
export {
  type BetweenRunComponent,
  betweenRunComponent,
  ratioWithBetweenRun,
  type SessionFigure,
  withBetweenRun,
} from "./between-run.ts";
export { ratioInterval, type Side, sideOf, sideStatistic } from "./bootstrap.ts";
export {
  chooseStatistic,
  distributionOf,
  type Interval,
  lowerSpreadShare,
  type PerCallDistribution,
  type Shape,
  type Statistic,
  shapeOf,
  WIDE_SHARE,
  workerSpread,
} from "./distribution.ts";
export {
  halfWidthOf,
  type IntervalRule,
  meanInterval,
  predictionHalfWidth,
  workersHalfWidth,
} from "./interval.ts";
export {
  CROPS,
  cropThresholds,
  ENOUGH_MEASUREMENTS,
  LEAK_T,
  LeakageTest,
  type LeakResult,
  type LeakTestName,
  type LeakVerdict,
  LIKELY_T,
  leakEstablished,
  leakVerdict,
  MIN_PER_CLASS,
  Welch,
} from "./leakage.ts";
export { EXACT_BINOMIAL_MAX_N, medianRanks } from "./median-interval.ts";
export { checkBatch, perCallCounter, perCallNs } from "./per-call.ts";
export { mean, median, quantile, quantileOfCounts, sd, sortedCopy } from "./quantile.ts";
export { hash32, rng } from "./rng.ts";
export { tQuantile975, Z975 } from "./student-t.ts";
