// Reading a record store: every system folder under <store>/data/, each record validated against the schema of
// the kind its path says it holds (the layout is @ngcc-perf/schema's: parseRecordPath). A store may lack whole
// kinds (a step not run) or hold failure records; the model shows that. A record that does not validate, or whose
// fields name another key than its path, is bad input: the error names the file, line and pointer. So is a store
// whose files do not match its index.json (a record changed, deleted or added since the index was written, no index)
// or a timing record whose figures contradict each other (checkSystemIntegrity of @ngcc-perf/schema): the report
// publishes only what the run that wrote the index vouched for.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import {
  type AlgorithmKey,
  type CodeSizeRecord,
  type ConstantTimeRecord,
  checkSystemIntegrity,
  type EnvironmentRecord,
  formatFindings,
  type HashProfileRecord,
  InputError,
  type InstructionsRecord,
  type KatRecord,
  keyMismatches,
  keyMismatchMessage,
  type MemoryRecord,
  parseRecordPath,
  type RecordKind,
  readTextFile,
  type SizeAuditRecord,
  type StoreEntry,
  type StoreIndexRecord,
  type SurveyRecord,
  shortText,
  type TimingRecord,
  validate,
  validateText,
} from "@ngcc-perf/schema";

/** A record keyed by (algorithm, build profile): its key comes from its place in the store. */
export interface AlgorithmRecord<R> {
  key: AlgorithmKey;
  record: R;
}

export interface SystemStore {
  system: string;
  /** Absolute path of data/<system>/. */
  dir: string;
  environment: EnvironmentRecord | null;
  index: StoreIndexRecord | null;
  timings: TimingRecord[];
  /** Hash-profile records (the profile step). */
  hashProfiles: HashProfileRecord[];
  kats: KatRecord[];
  /** Size audits, one per (algorithm, build profile). */
  audits: Array<AlgorithmRecord<SizeAuditRecord>>;
  /** Symmetric-primitive surveys, one per (algorithm, build profile). */
  surveys: Array<AlgorithmRecord<SurveyRecord>>;
  /** Instruction counts (the instructions step); absent in stores built by hand before it. */
  instructions?: InstructionsRecord[];
  /** Stack and heap high-water (the memory step); absent in stores built by hand before it. */
  memory?: MemoryRecord[];
  /** Constant-time smoke tests (the constant-time step); absent in stores built by hand before it. */
  constantTime?: ConstantTimeRecord[];
  /** Code and data size by section (the code-size step); absent in stores built by hand before it. */
  codeSize?: CodeSizeRecord[];
  /** Every file of the folder the site may link to (records and KAT logs), relative to dir with / separators. */
  files: Set<string>;
  /** Where each loaded record lives, relative to dir. */
  pathOf: Map<object, string>;
}

export interface LoadedStore {
  /** Absolute path of the store root (the folder holding data/). */
  root: string;
  systems: SystemStore[];
}

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith(".") || e.name.endsWith(".tmp")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
}

const MAX_SHOWN_ERRORS = 10;

/** Parses and validates one record; throws InputError naming file:line:col, the JSON pointer and the problem. */
function readRecord(file: string, kind: RecordKind): unknown {
  // Read as validate reads it (binary data and invalid UTF-8 refused alike).
  const read = readTextFile(file);
  if (read.error !== undefined)
    throw new InputError(`not a valid ${kind} record:\n${file}:1:1: (document) ${read.error}`);
  const text = read.text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  // The fast path: parse and validate; only a bad record pays for locating its errors in the text.
  if (value !== undefined && validate(kind, value).valid) {
    const declared = (value as { kind?: unknown }).kind;
    if (declared === kind) return value;
  }
  const located = validateText(text, file, kind);
  const errors = located.errors.length
    ? located.errors
    : [{ pointer: "/kind", message: `expected "${kind}" for a file at this place in the store`, line: 1, column: 1 }];
  const declared = (located.value as { kind?: unknown } | undefined)?.kind;
  if (located.valid && declared !== kind) {
    throw new InputError(
      `${file}: holds a ${shortText(String(JSON.stringify(declared)))} record, but its place in the store holds ${kind} records`,
    );
  }
  const lines = errors
    .slice(0, MAX_SHOWN_ERRORS)
    .map((e) => `${file}:${e.line ?? 1}:${e.column ?? 1}: ${e.pointer || "(document)"} ${e.message}`);
  if (errors.length > MAX_SHOWN_ERRORS) lines.push(`… and ${errors.length - MAX_SHOWN_ERRORS} more`);
  throw new InputError(`not a valid ${kind} record:\n${lines.join("\n")}`);
}

/** A record's own key fields must be the key its path gives (a record moved by hand to another folder is not). */
function checkKey(file: string, entry: StoreEntry, record: Record<string, unknown>): void {
  const [first] = keyMismatches(entry, record);
  if (first)
    throw new InputError(`${file}: ${keyMismatchMessage(first, (got) => shortText(String(JSON.stringify(got))))}`);
}

function loadSystem(dir: string, system: string): SystemStore {
  const paths: string[] = [];
  walk(dir, paths);
  const store: SystemStore = {
    system,
    dir,
    environment: null,
    index: null,
    timings: [],
    hashProfiles: [],
    kats: [],
    audits: [],
    surveys: [],
    instructions: [],
    memory: [],
    constantTime: [],
    codeSize: [],
    files: new Set(),
    pathOf: new Map(),
  };
  for (const file of paths.sort()) {
    const rel = relative(dir, file).split(sep).join("/");
    const entry = parseRecordPath(system, rel);
    if (entry === null) continue;
    store.files.add(rel);
    if (entry.kind === "kat-log") continue;
    const record = readRecord(file, entry.kind) as Record<string, unknown>;
    checkKey(file, entry, record);
    store.pathOf.set(record, rel);
    switch (entry.kind) {
      case "environment":
        store.environment = record as unknown as EnvironmentRecord;
        break;
      case "store-index":
        store.index = record as unknown as StoreIndexRecord;
        break;
      case "timing":
        store.timings.push(record as unknown as TimingRecord);
        break;
      case "hash-profile":
        store.hashProfiles.push(record as unknown as HashProfileRecord);
        break;
      case "kat":
        store.kats.push(record as unknown as KatRecord);
        break;
      case "size-audit":
        store.audits.push({ key: entry.key, record: record as unknown as SizeAuditRecord });
        break;
      case "instructions":
        store.instructions?.push(record as unknown as InstructionsRecord);
        break;
      case "memory":
        store.memory?.push(record as unknown as MemoryRecord);
        break;
      case "constant-time":
        store.constantTime?.push(record as unknown as ConstantTimeRecord);
        break;
      case "code-size":
        store.codeSize?.push(record as unknown as CodeSizeRecord);
        break;
      case "survey":
        store.surveys.push({ key: entry.key, record: record as unknown as SurveyRecord });
        break;
    }
  }
  return store;
}

/** Reads every system of a record store (the folder holding data/<system>/). */
export function loadStore(root: string): LoadedStore {
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new InputError(`${root}: no such folder; expected a record store (a folder holding data/<system>/)`);
  const data = join(root, "data");
  if (!existsSync(data) || !statSync(data).isDirectory())
    throw new InputError(
      `${root}: no data/ folder; expected a record store holding data/<system>/ (see docs/record-schema.md)`,
    );
  const systems = readdirSync(data, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
  if (systems.length === 0) throw new InputError(`${data}: no system folder; expected data/<system>/`);
  const loaded = systems.map((s) => loadSystem(join(data, s), s));
  const empty = loaded.filter(
    (s) =>
      !s.environment &&
      !s.index &&
      s.timings.length + s.kats.length + s.hashProfiles.length + s.audits.length + s.surveys.length === 0,
  );
  if (empty.length === loaded.length)
    throw new InputError(
      `${data}: no records in ${systems.map((s) => `data/${s}/`).join(", ")}; expected environment.json, records/, kat/, profile/, sizes/ or survey/`,
    );
  const kept = loaded.filter((s) => !empty.includes(s));
  checkIntegrity(root, kept);
  return { root, systems: kept };
}

const MAX_SHOWN_FINDINGS = 20;

/** Refuses a store whose files differ from its index (or that has none), naming every file concerned. */
function checkIntegrity(root: string, systems: SystemStore[]): void {
  const lines = systems.flatMap((s) => formatFindings(checkSystemIntegrity(s.dir)));
  if (lines.length === 0) return;
  const shown = lines.slice(0, MAX_SHOWN_FINDINGS);
  if (lines.length > MAX_SHOWN_FINDINGS) shown.push(`… and ${lines.length - MAX_SHOWN_FINDINGS} more`);
  throw new InputError(
    `${root}: the store does not match its index, so it is not reported:\n${shown.join("\n")}\n` +
      `If the records are as they should be (edited on purpose), rebuild the index with "ngcc-perf index ${root}" ` +
      "(docs/record-schema.md, Integrity); otherwise restore them from the run that wrote them.",
  );
}
