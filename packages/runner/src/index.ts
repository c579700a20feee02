// @ngcc-perf/runner: builds instances, times every operation, measures memory, captures the environment.
export { BuildError, type BuiltInstance, buildInstance, elfLoadSize, toolchain } from "./build.ts";
export { type BuildProfile, type Campaign, type CounterKind, DEFAULT_PROFILES, loadCampaign } from "./campaign.ts";
export { DriverError, type DriverInfo, driverRun } from "./driver.ts";
export { captureEnvironment, type EnvironmentOptions, processorModel } from "./env.ts";
export { InputError } from "./errors.ts";
export {
  type AlgorithmSpec,
  apiNamespace,
  type Category,
  categoryFromApi,
  type InstanceSpec,
  operationsOf,
  pqcleanRoot,
  resolveAlgorithms,
} from "./instances.ts";
export { nativeDir } from "./native.ts";
export { buildProbe, type ProbeResult, probeCounter } from "./probe.ts";
export { commandOf, type RunOptions, type RunResult, runProcess, tail } from "./proc.ts";
export { type Aggregates, aggregate, median, quantile, type Trial } from "./stats.ts";
export { sha256, sha256File, storePaths, writeFileAtomic, writeJsonAtomic } from "./store.ts";
export {
  chooseCounter,
  type ProgressEvent,
  selected,
  type TimeOptions,
  type TimeSummary,
  timeCampaign,
} from "./time.ts";
export { TOOL } from "./tool.ts";
