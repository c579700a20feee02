// @ngcc-perf/sizes: the size catalog (external_sizes.csv), API and measured sizes, the audit, and
// key-exchange bandwidth — section 6 of every page and the site's size-audit page (docs/sizes.md).

export { type PathRoot, rootsOf, shownPaths } from "@ngcc-perf/runner";
export {
  ApiError,
  type ApiFigures,
  type ApiRead,
  type ApiSizes,
  KEM_FIELDS,
  KEX_FIELDS,
  MAX_API_BYTES,
  PRINTPARAMS_RECIPE,
  parseApiOutput,
  printparamsHash,
  printparamsSource,
  profileDefines,
  readApiFigures,
  SIGN_FIELDS,
} from "./api.ts";
export {
  type AuditInput,
  type AuditInstance,
  type AuditResult,
  auditAlgorithm,
  authenticationNote,
  DISAGREEMENT_KINDS,
  type Finding,
  type InstanceInput,
  kexBandwidth,
  kexRow,
  NOTE_INITIATOR_ONLY,
  NOTE_NO_LONG_TERM_KEY,
  NOTE_RESPONDER_ONLY,
} from "./audit.ts";
export {
  CATALOG_COLUMNS,
  type Catalog,
  type CatalogColumn,
  type CatalogRow,
  type Category,
  formatCatalog,
  parseCatalog,
  REQUIRED_COLUMNS,
  readCatalog,
  toSchemaRow,
} from "./catalog.ts";
export {
  combine,
  type Distribution,
  type LengthStats,
  lengthStats,
  MEASURED_FIELDS,
  type Measured,
  type MeasuredField,
  type MeasuredFile,
  type MeasuredRead,
  type MeasuredSource,
  readMeasured,
} from "./measured.ts";
export { pqcleanCatalogRows } from "./pqclean.ts";
export {
  auditOutcome,
  catalogPath,
  defineSizes,
  type FindingCounts,
  type LoadedCatalog,
  loadCatalog,
  type SizesSummary,
  type SizesWork,
  sizesCampaign,
  sizesStep,
  sizesUnits,
} from "./step.ts";
