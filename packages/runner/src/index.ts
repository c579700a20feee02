// @ngcc-perf/runner: builds instances, times every operation, measures memory, captures the environment.

export { type BetweenRunGiven, hostOf, readBetweenRun, withBetweenRunComponent } from "./between-run.ts";
export {
  apiHeaderPath,
  BUILD_RECIPE,
  BuildError,
  type BuildRun,
  type BuiltInstance,
  buildFailureMessage,
  buildInputsHash,
  buildInstance,
  buildRunner,
  type CachedBuild,
  type Command,
  cachedBuild,
  compileSources,
  defineFlags,
  driverSources,
  elfLoadSize,
  firstCompilerError,
  harnessCompileFlags,
  harnessFlags,
  headersIn,
  inputsHashOf,
  instanceFlags,
  kexPasses,
  linkLibraries,
  type Toolchain,
  toolchain,
} from "./build.ts";
export { buildCampaign, buildMeasurement } from "./build-step.ts";
export { type CalibrateOptions, calibrateBetweenRun, writeBetweenRun } from "./calibrate.ts";
export {
  type BuildProfile,
  type Campaign,
  type CounterKind,
  DEFAULT_PROFILES,
  loadCampaign,
  pqcleanRoot,
  shippedKatPaths,
} from "./campaign.ts";
export { codeSizeCampaign, codeSizeMeasurement, instanceSections, SECTIONS_METHOD } from "./code-size.ts";
export {
  type ConstantTimeSettings,
  CT_RANDOMNESS,
  constantTimeCampaign,
  constantTimeMeasurement,
  constantTimeSettings,
  declassifiedSites,
  levelFlags,
  MEMCHECK_OPTIONS,
  type MemcheckFinding,
  type MemcheckFrame,
  memcheckXmlComplete,
  parseMemcheckXml,
  sourceFunction,
  type TriageEntry,
  triageOf,
} from "./constant-time.ts";
export { DriverError, type DriverInfo, driverRun, infoAndCheck } from "./driver.ts";
export {
  addSectionSizes,
  ElfError,
  elfSectionSizes,
  elfSymbols,
  pulledObjects,
  type SectionSizes,
  sectionKind,
} from "./elf-sections.ts";
export { captureEnvironment, type EnvironmentOptions, processorModel } from "./env.ts";
export {
  type BusyProcess,
  busyProcesses,
  type CheckOptions,
  type CheckStatus,
  checkEnvironment,
  checkMachine,
  countStatuses,
  type EnvCheck,
  formatCpuList,
  listPids,
  type ProcessSample,
  type ProcessSnapshot,
  parseCpuList,
  parseProcStat,
  type ReadText,
  readSystemFile,
  sampleProcesses,
  snapshotProcesses,
} from "./env-check/index.ts";
export { InputError } from "./errors.ts";
export { draftMeta, type InitGroup, type InitOptions, type InitResult, initSubmission } from "./init/index.ts";
export {
  type AlgorithmSpec,
  apiNamespace,
  type Category,
  categoryFromApi,
  checkOnly,
  type InstanceSpec,
  operationsOf,
  resolveAlgorithms,
} from "./instances.ts";
export {
  CALLGRIND_OPTIONS,
  type CountedCalls,
  countedCalls,
  defineInstructions,
  ICOUNT_RANDOMNESS,
  type InstructionsSettings,
  instructionsCampaign,
  instructionsMeasurement,
  instructionsSettings,
  readCallgrindDumps,
} from "./instructions.ts";
export { katGate, katVerdict } from "./kat-gate.ts";
export {
  HEAP_TECHNIQUE,
  inputsDescription,
  MEMORY_INPUTS,
  type MemorySettings,
  memoryArgs,
  memoryCampaign,
  memoryDistribution,
  memoryLimits,
  memoryMeasurement,
  memorySettings,
  memoryTimeLimitNs,
  STACK_ENTRY,
} from "./memory.ts";
export { type MergeResult, mergeStores } from "./merge.ts";
export { nativeDir } from "./native.ts";
export {
  buildStep,
  codeSizeStep,
  constantTimeStep,
  instructionsStep,
  memoryStep,
  type PipelineOptions,
  type PipelineResult,
  runPipeline,
  timeStep,
} from "./pipeline.ts";
export { buildProbe, type ProbeResult, probeCounter } from "./probe.ts";
export { commandOf, type RunOptions, type RunResult, runProcess, tail } from "./proc.ts";
export {
  checkForReindex,
  indexDiffers,
  type ReindexCheck,
  reindexSystem,
  reindexTargets,
  type SystemChange,
} from "./reindex.ts";
export { type ResolvedCampaign, resolveCampaign } from "./resolved.ts";
export { HOST_CONTEXT, type RunContext, runContextOf } from "./run-context.ts";
export {
  addsPerCycle,
  type CentralDecision,
  type CentralFigure,
  type CentralRule,
  CONTENDED_SHARE,
  type Contention,
  centralOf,
  contentionOf,
  coreClockHz,
  cyclesFigures,
  publishedWorkers,
  type SampleDistribution,
  type StopDecision,
  stopDecision,
  summarizeSamples,
  type ThroughputProbes,
  X86_64_ALONE_ADDS_PER_CYCLE,
} from "./samples.ts";
export { type PathRoot, rootsOf, shownPaths } from "./shown-paths.ts";
export * from "./signapi.ts";
export { type Aggregates, aggregate, type Trial } from "./stats.ts";
export {
  type AlgorithmWork,
  type BuiltWithFacts,
  buildFacts,
  buildOrDriverFailure,
  buildUnit,
  buildWithFacts,
  defineMeasurement,
  type InstanceWork,
  instanceStep,
  instanceUnits,
  type MeasureEnv,
  MeasureError,
  type Measurement,
  type MeasurementOptions,
  type MeasureOutput,
  type PerAlgorithm,
  plannedOperations,
  recordHeader,
  runMeasurement,
} from "./step/measurement.ts";
export type {
  PipelineStep,
  PipelineStepOptions,
  PipelineStepResult,
} from "./step/pipeline-step.ts";
export {
  type Failure,
  instanceNames,
  type Job,
  runStep,
  type StepDefinition,
  selectUnits,
  type Unit,
  type UnitContext,
} from "./step/run.ts";
export {
  emptySummary,
  inShard,
  MAX_SHARDS,
  type ProgressEvent,
  parseShard,
  type Shard,
  type StepFailure,
  type StepName,
  type StepOptions,
  type StepSummary,
} from "./step/types.ts";
export {
  closeWriteJournal,
  openWriteJournal,
  removeStaleTemps,
  sha256,
  sha256File,
  writeFileAtomic,
  writeJsonAtomic,
} from "./store.ts";
export { indexAlgorithm, listStoreFiles, verifyStore, writeStoreIndex } from "./store-index.ts";
export { isOwnRandombytes, isPlainRandombytes, leftOutNote, plainRandombytesSources } from "./submission-inputs.ts";
export {
  binutilsPrefixOf,
  emulated,
  HOST_TOOLCHAIN,
  type TargetToolchain,
  targetArgv,
  targetTool,
  withToolchainFlags,
} from "./target.ts";
export {
  chooseCounter,
  driverTimeArgs,
  EMULATED_NOT_TIMED,
  type TimeOptions,
  timeCampaign,
  timeMeasurement,
} from "./time.ts";
export {
  type DecideCentral,
  decideCentral,
  decisionFromStore,
  referenceProfile,
} from "./time-campaign.ts";
export { TOOL } from "./tool.ts";
export { cpuHasAvx512, valgrindRefusal, valgrindVersion } from "./valgrind.ts";
