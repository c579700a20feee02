// @ngcc-perf/schema: JSON Schemas, types and ahead-of-time compiled validators for ngcc-perf records.

export { environmentWarnings } from "./environment-warnings.ts";
export { formatFileProblem, formatProblem, InputError, type LocatedProblem } from "./errors.ts";
export {
  collectRecordFiles,
  type FileResult,
  MAX_CAMPAIGN_BYTES,
  MAX_RECORD_BYTES,
  readTextFile,
  type TextRead,
  validateFile,
} from "./files.ts";
export * from "./generated/types.ts";
export { INPUT_DEPENDENCE_THRESHOLD, type InputDependence, inputDependence } from "./input-dependence.ts";
export {
  checkStoreIntegrity,
  checkSystemIntegrity,
  formatFindings,
  hashFile,
  IDENTITY_TOLERANCE,
  type IndexedFile,
  type IntegrityFinding,
  type IntegrityOptions,
  type IntegrityProblem,
  isSystemDir,
  readStoreIndex,
  recordConsistency,
  type SystemIntegrity,
  type SystemRef,
  storeFiles,
  systemDirsOf,
  timingIdentities,
} from "./integrity.ts";
export {
  ABSENT,
  JOURNAL_FILE,
  JOURNAL_FORMAT,
  type JournalHeader,
  type JournalWrite,
  type ParsedJournal,
  parseJournal,
  possibleStates,
  stateOf,
} from "./journal.ts";
export {
  type AlgorithmKey,
  buildPath,
  checkName,
  harnessRecordPath,
  type InstanceKey,
  insideOut,
  isValidName,
  type KeyMismatch,
  keyMismatches,
  keyMismatchMessage,
  kindOfPath,
  NAME_PATTERN,
  NAME_RULE,
  parseHarnessRecordPath,
  parseRecordPath,
  type RecordKey,
  recordPath,
  relativeRecordPath,
  type StoreEntry,
  type StoreFileKind,
  systemDir,
  unitName,
} from "./layout.ts";
export { offsetToPosition, type Position, pointerTokens, toPointer } from "./locate.ts";
export { checkNamedSystems, shownDir } from "./named-systems.ts";
export {
  CPI_BAND,
  cyclesPerCallOf,
  cyclesPerInstructionCheck,
  type PlausibilityCheck,
  plausibilityOf,
} from "./plausibility.ts";
export { processAlive } from "./process.ts";
export { schemas } from "./schemas/all.ts";
export { ID_BASE, SCHEMA_VERSION } from "./schemas/builders.ts";
export { type BytesRead, isInside, readSubmissionBytes, readSubmissionText } from "./submission-file.ts";
export { type KeptSamples, keptSamples, SWITCHED_OUT_CAP } from "./switched-out.ts";
export { shortText, visibleLines, visibleText } from "./text.ts";
export { TOOL } from "./tool.ts";
export {
  declaredKind,
  formatOf,
  isRecordKind,
  MAX_NESTING,
  RECORD_KINDS,
  type RecordKind,
  STORE_KINDS,
  tooDeepAt,
  type ValidationError,
  type ValidationResult,
  validate,
  validateText,
} from "./validate.ts";
