// @ngcc-perf/hashprof: link-time wrapper profiling of the placeholder hash functions and the DRNG, and the
// symmetric-primitive survey.
export {
  type AnalysedObject,
  buildProfiled,
  PROFILE_LINKAGE,
  PROFILE_RECIPE,
  type ProfileBuild,
  profileInputsHash,
  type Variant,
} from "./build.ts";
export { ProfilingBuildError } from "./errors.ts";
export {
  callsPerOperation,
  checkPerOperation,
  checkProfiledOutput,
  type DriverProfile,
  HISTOGRAM_MAX,
  medianOf,
  type PerOperation,
  ProfileShapeError,
  profileFigures,
} from "./figures.ts";
export { type FingerprintHit, findFingerprints, primitiveFromName } from "./fingerprints.ts";
export {
  checkAlgorithmProfiler,
  commonSymbolPrefix,
  drngGroup,
  groupsFor,
  hashGroups,
  ICCS_FUNCTIONS,
  NGCC_DEFAULT_GROUPS,
  PLAIN_DEFAULT_GROUPS,
  PQCLEAN_DEFAULT_GROUPS,
  PQCLEAN_HASH_SYMBOLS,
  placeholderGroups,
  shortLabels,
} from "./groups.ts";
export { type KatCheck, katCheck } from "./kat-check.ts";
export {
  type BlindReason,
  type BlindSpot,
  type GroupSpec,
  type Interception,
  interception,
  mentionsIdentifier,
  type ObjectFacts,
  parseNm,
  parseObjdumpEdges,
} from "./objects.ts";
export {
  type ProfileOptions,
  type ProfileSummary,
  profileCampaign,
  profileMeasurement,
  profileStep,
} from "./profile.ts";
export {
  curatedNotes,
  findingOf,
  type InstanceFinding,
  type OwnPrimitive,
  type SurveyNote,
  surveyAlgorithm,
  type Verdict,
  verdictOf,
} from "./survey.ts";
export {
  type Prototype,
  parseAuxInfo,
  tableSource,
  unwrappable,
  type WrappedSymbol,
  wrapperSource,
} from "./wrappers.ts";
