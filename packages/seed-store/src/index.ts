// @ngcc-perf/seed-store (private): the seed pages of the earlier harness parsed into golden cells, the synthesized
// seed store made from them (fixtures/seed-store), and the rounding-edge store (fixtures/rounding-store).
export {
  buildExpectedCells,
  CELL_NORMAL_FORM,
  DEFAULT_OUT as DEFAULT_CELLS_FILE,
  DEFAULT_SEED_DIR,
  type ExpectedCells,
  type ExpectedPage,
  type ExpectedSection,
  type ExpectedTable,
  REPO_ROOT,
  readSeedDir,
  toExpectedPage,
} from "./extract-cells.ts";
export { formatJson, writeFileAtomic } from "./json-io.ts";
export {
  buildRoundingStore,
  DEFAULT_ROUNDING_STORE_DIR,
  PROFILES as ROUNDING_PROFILES,
  ROUNDING,
  ROWS as ROUNDING_ROWS,
  type RoundingProfile,
  type RoundingRow,
  trialsOf,
} from "./make-rounding-store.ts";
export { buildSeedStore, DEFAULT_STORE_DIR, type SeedStore, writeSeedStore } from "./make-seed-store.ts";
export {
  type AlgorithmCategory,
  BASIC_KEYS,
  detectRendering,
  normaliseCell,
  parseBasicLines,
  parseSeedPage,
  type SeedPage,
  SeedParseError,
  tableOf,
} from "./parse-seeds.ts";
export { renderScrapedMarkdown, renderTab } from "./render-seed-text.ts";
export {
  type AssembledStore,
  assembleStore,
  type IndexedFile,
  readSystemFolder,
  recordErrors,
  type StoreFile,
  type StoreText,
  sha256,
  storeFile,
  writeStore,
} from "./store-files.ts";
export {
  BUILD_PROFILE,
  harnessEvidenceEntry,
  SEED_TOOL,
  type SeedProblem,
  synthesizePage,
} from "./synthesize.ts";
