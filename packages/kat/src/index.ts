// @ngcc-perf/kat: the KAT generator (NIST DRBG and HQC's RNG, in native/katgen), manifest checks, comparison
// and mismatch diagnosis, KAT logs, and the pipeline's KAT step.
export { type Compared, compare } from "./compare.ts";
export { type Expectation, type KatPlan, NIST_ENTRIES, planExpectations } from "./expect.ts";
export {
  type BuiltKatgen,
  buildKatgen,
  crossCheck,
  KAT_RECIPE,
  type KatBuildPlan,
  type KatgenInfo,
  type KatgenRun,
  type KatRng,
  katgenDir,
  katgenSources,
  lengthsOfRsp,
  MAX_GENERATED_BYTES,
  parseInfo,
  planKatBuild,
  RANDOMNESS_SOURCES,
  runKatgen,
} from "./generator.ts";
export { formatLog, type LogInput, showArgv } from "./log.ts";
export {
  checkManifestFor,
  type ManifestCheck,
  type ManifestLine,
  type ParsedManifest,
  parseManifest,
  unusedFiles,
} from "./manifest.ts";
export { PQCLEAN_NISTKAT_SHA256, PQCLEAN_SOURCE, pqcleanKatRng } from "./pqclean.ts";
export { katRecord, type RecordInput } from "./record.ts";
export {
  abbreviate,
  compareRsp,
  type Diagnosis,
  deriveForm,
  diagnose,
  differenceText,
  type Form,
  hasCrlf,
  type OutsideDifference,
  parseRsp,
  type Rsp,
  type RspComparison,
  type RspEntry,
  type RspField,
  toLf,
} from "./rsp.ts";
export { checkShippedRsp, type KatProblem, MAX_PROBLEMS, problemText } from "./rsp-check.ts";
export { MAX_SHIPPED_BYTES, readShipped, type Shipped } from "./shipped.ts";
export {
  defineKat,
  type KatOptions,
  katCampaign,
  katInputsHash,
  katStep,
  katUnits,
} from "./step.ts";
export {
  corruptMessage,
  KATGEN_EXIT_CANARY,
  type KatError,
  type KatOutcome,
  type KatVerdict,
  type KatWork,
  runFailure,
  unverified,
  type Verification,
  type VerifyPlace,
  verify,
} from "./verify.ts";
