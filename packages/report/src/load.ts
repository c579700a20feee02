// Reading a record store: every system folder under <store>/data/, each record validated against the schema of
// the kind its path says it holds. A store may lack whole kinds (a step not run) or hold failure records; the
// model shows that. A record that does not validate is bad input: the error names the file, line and pointer.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import {
  type EnvironmentRecord,
  type HashProfileRecord,
  InputError,
  type KatRecord,
  type RecordKind,
  type SizeAuditRecord,
  type StoreIndexRecord,
  type SurveyRecord,
  type TimingRecord,
  validate,
  validateText,
} from "@ngcc-perf/schema";

export interface SystemStore {
  system: string;
  /** Absolute path of data/<system>/. */
  dir: string;
  environment: EnvironmentRecord | null;
  index: StoreIndexRecord | null;
  timings: TimingRecord[];
  profiles: HashProfileRecord[];
  kats: KatRecord[];
  audits: Map<string, SizeAuditRecord>;
  surveys: Map<string, SurveyRecord>;
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

/** The record kind a file holds, by its place in the store layout (docs/record-schema.md); null for others. */
export function kindOfPath(path: string): RecordKind | "kat-log" | null {
  if (path === "environment.json") return "environment";
  if (path === "index.json") return "store-index";
  if (/^records\/[^/]+\/[^/]+__[^/]+\.json$/.test(path)) return "timing";
  if (/^profile\/[^/]+\/[^/]+__[^/]+\.json$/.test(path)) return "hash-profile";
  if (/^kat\/[^/]+\/[^/]+\.json$/.test(path)) return "kat";
  if (/^kat\/[^/]+\/[^/]+\.log$/.test(path)) return "kat-log";
  if (/^sizes\/[^/]+\.json$/.test(path)) return "size-audit";
  if (/^survey\/[^/]+\.json$/.test(path)) return "survey";
  return null;
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
  const text = readFileSync(file, "utf8");
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
      `${file}: holds a ${JSON.stringify(declared)} record, but its place in the store holds ${kind} records`,
    );
  }
  const lines = errors
    .slice(0, MAX_SHOWN_ERRORS)
    .map((e) => `${file}:${e.line ?? 1}:${e.column ?? 1}: ${e.pointer || "(document)"} ${e.message}`);
  if (errors.length > MAX_SHOWN_ERRORS) lines.push(`… and ${errors.length - MAX_SHOWN_ERRORS} more`);
  throw new InputError(`not a valid ${kind} record:\n${lines.join("\n")}`);
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
    profiles: [],
    kats: [],
    audits: new Map(),
    surveys: new Map(),
    files: new Set(),
    pathOf: new Map(),
  };
  for (const file of paths.sort()) {
    const rel = relative(dir, file).split(sep).join("/");
    const kind = kindOfPath(rel);
    if (kind === null) continue;
    store.files.add(rel);
    if (kind === "kat-log") continue;
    const record = readRecord(file, kind) as { system?: string };
    store.pathOf.set(record, rel);
    if (record.system !== undefined && record.system !== system)
      throw new InputError(
        `${file}: record of system "${record.system}" in the folder of system "${system}" (data/${system}/)`,
      );
    switch (kind) {
      case "environment":
        store.environment = record as EnvironmentRecord;
        break;
      case "store-index":
        store.index = record as StoreIndexRecord;
        break;
      case "timing":
        store.timings.push(record as TimingRecord);
        break;
      case "hash-profile":
        store.profiles.push(record as HashProfileRecord);
        break;
      case "kat":
        store.kats.push(record as KatRecord);
        break;
      case "size-audit": {
        const r = record as SizeAuditRecord;
        store.audits.set(r.algorithmId, r);
        break;
      }
      case "survey": {
        const r = record as SurveyRecord;
        store.surveys.set(r.algorithmId, r);
        break;
      }
      default:
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
    (s) => !s.environment && !s.index && s.timings.length + s.kats.length + s.profiles.length + s.audits.size === 0,
  );
  if (empty.length === loaded.length)
    throw new InputError(
      `${data}: no records in ${systems.map((s) => `data/${s}/`).join(", ")}; expected environment.json, records/, kat/, profile/, sizes/ or survey/`,
    );
  return { root, systems: loaded.filter((s) => !empty.includes(s)) };
}
