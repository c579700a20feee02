// The one measurement identity and the store layout made from it. Every step, the index, merge, sizes and the
// report build and read store paths here and nowhere else (docs/record-schema.md).
//
//   <out>/data/<system>/environment.json
//   <out>/data/<system>/index.json
//   <out>/data/<system>/records/<algorithm>/<profile>/<instance>__<operation>.json   timing, memory
//   <out>/data/<system>/profile/<algorithm>/<profile>/<instance>__<operation>.json   hash/DRNG profile
//   <out>/data/<system>/instructions/<algorithm>/<profile>/<instance>__<operation>.json instruction counts
//   <out>/data/<system>/memory/<algorithm>/<profile>/<instance>__<operation>.json   stack and heap high-water
//   <out>/data/<system>/constant-time/<algorithm>/<profile>/<instance>__<operation>.json constant-time smoke test
//   <out>/data/<system>/code-size/<algorithm>/<profile>/<instance>.json              code and data size by section
//   <out>/data/<system>/kat/<algorithm>/<profile>/<instance>.json                    KAT record
//   <out>/data/<system>/kat/<algorithm>/<profile>/<instance>.log                     KAT log
//   <out>/data/<system>/sizes/<algorithm>/<profile>.json                             size audit
//   <out>/data/<system>/survey/<algorithm>/<profile>.json                            symmetric-primitive survey
//   <out>/build/<system>/<algorithm>/<profile>/…                                     build folders (not records)
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { InputError } from "./errors.ts";
import { ID_PATTERN } from "./schemas/common.ts";
import { shortText } from "./text.ts";

/** What one measurement is of. Records of a whole instance (KAT) or algorithm (sizes, survey) omit the rest. */
export interface RecordKey {
  system: string;
  algorithmId: string;
  instance: string;
  buildProfile: string;
  operation: string;
}

/** An instance under one build profile: the unit that steps build, verify and shard. */
export type InstanceKey = Omit<RecordKey, "operation">;
/** An algorithm under one build profile: the unit of the size audit and the survey. */
export type AlgorithmKey = Omit<RecordKey, "instance" | "operation">;

export type StoreFileKind =
  | "environment"
  | "store-index"
  | "timing"
  | "hash-profile"
  | "instructions"
  | "memory"
  | "constant-time"
  | "code-size"
  | "kat"
  | "kat-log"
  | "size-audit"
  | "survey";

/** A file of the store: its kind and the part of the key that kind is keyed by. */
export type StoreEntry =
  | { kind: "environment" | "store-index"; key: { system: string } }
  | { kind: "timing" | "hash-profile" | "instructions" | "memory" | "constant-time"; key: RecordKey }
  | { kind: "kat" | "kat-log" | "code-size"; key: InstanceKey }
  | { kind: "size-audit" | "survey"; key: AlgorithmKey };

/**
 * The one pattern for every name that becomes part of a path (system, algorithm id, instance, build profile,
 * operation), the same as the schemas' id pattern: a letter or digit, then letters, digits, `.`, `_`, `+`, `-`;
 * here also at most 128 characters and no `__` (it separates instance and operation in file names).
 */
export const NAME_PATTERN = new RegExp(ID_PATTERN);
const MAX_NAME = 128;
export const NAME_RULE =
  "a letter or digit followed by letters, digits, '.', '_', '+' or '-' (at most 128 characters, no '__')";

export function isValidName(name: string): boolean {
  return NAME_PATTERN.test(name) && name.length <= MAX_NAME && !name.includes("__");
}

/** Throws InputError naming where the name came from unless it matches NAME_PATTERN. */
export function checkName(name: unknown, what: string): string {
  if (typeof name !== "string" || !isValidName(name)) {
    const shown = typeof name === "string" ? `"${shortText(name)}"` : shortText(String(JSON.stringify(name)));
    const length = typeof name === "string" && name.length > MAX_NAME ? ` (${name.length} characters)` : "";
    throw new InputError(`${what}: ${shown}${length} is not a valid name; expected ${NAME_RULE}`);
  }
  return name;
}

const FOLDER: Record<Exclude<StoreFileKind, "environment" | "store-index">, string> = {
  timing: "records",
  "hash-profile": "profile",
  instructions: "instructions",
  memory: "memory",
  "constant-time": "constant-time",
  "code-size": "code-size",
  kat: "kat",
  "kat-log": "kat",
  "size-audit": "sizes",
  survey: "survey",
};

function checkKey(key: Partial<RecordKey>, fields: ReadonlyArray<keyof RecordKey>): void {
  for (const f of fields) checkName(key[f], `record key ${f}`);
}

/** The path of a store file relative to its system folder (data/<system>/), with `/` separators. */
export function relativeRecordPath(entry: StoreEntry): string {
  switch (entry.kind) {
    case "environment":
      checkKey(entry.key, ["system"]);
      return "environment.json";
    case "store-index":
      checkKey(entry.key, ["system"]);
      return "index.json";
    case "timing":
    case "hash-profile":
    case "instructions":
    case "memory":
    case "constant-time": {
      const k = entry.key;
      checkKey(k, ["system", "algorithmId", "buildProfile", "instance", "operation"]);
      return `${FOLDER[entry.kind]}/${k.algorithmId}/${k.buildProfile}/${k.instance}__${k.operation}.json`;
    }
    case "kat":
    case "kat-log":
    case "code-size": {
      const k = entry.key;
      checkKey(k, ["system", "algorithmId", "buildProfile", "instance"]);
      return `${FOLDER[entry.kind]}/${k.algorithmId}/${k.buildProfile}/${k.instance}.${entry.kind === "kat-log" ? "log" : "json"}`;
    }
    case "size-audit":
    case "survey": {
      const k = entry.key;
      checkKey(k, ["system", "algorithmId", "buildProfile"]);
      return `${FOLDER[entry.kind]}/${k.algorithmId}/${k.buildProfile}.json`;
    }
  }
}

/** The system folder of a store: <out>/data/<system>. */
export function systemDir(out: string, system: string): string {
  return insideOut(out, join("data", checkName(system, "system")));
}

/** The absolute path of a store file below <out>, checked to stay inside it. */
export function recordPath(out: string, entry: StoreEntry): string {
  return insideOut(out, join("data", entry.key.system, ...relativeRecordPath(entry).split("/")));
}

/** A build folder below <out>/build/<system>/<algorithm>/<profile>/, every part checked. */
export function buildPath(out: string, key: AlgorithmKey, ...parts: string[]): string {
  checkKey(key, ["system", "algorithmId", "buildProfile"]);
  for (const p of parts) checkName(p, "build folder");
  return insideOut(out, join("build", key.system, key.algorithmId, key.buildProfile, ...parts));
}

/** Resolves `rel` below `out`; throws InputError when the result would leave `out`. */
export function insideOut(out: string, rel: string): string {
  const root = resolve(out);
  const path = resolve(root, rel);
  const back = relative(root, path);
  if (back === "" || back.startsWith("..") || isAbsolute(back) || back.split(sep).includes("..")) {
    throw new InputError(`${rel}: would be written outside the store ${root}`);
  }
  return path;
}

const NAME = "([A-Za-z0-9][A-Za-z0-9._+-]*)";
const PATTERNS: Array<[RegExp, (m: string[], system: string) => StoreEntry]> = [
  [/^environment\.json$/, (_m, system) => ({ kind: "environment", key: { system } })],
  [/^index\.json$/, (_m, system) => ({ kind: "store-index", key: { system } })],
  [
    new RegExp(`^(records|profile|instructions|memory|constant-time)/${NAME}/${NAME}/${NAME}__${NAME}\\.json$`),
    (m, system) => ({
      kind: (
        {
          records: "timing",
          profile: "hash-profile",
          instructions: "instructions",
          memory: "memory",
          "constant-time": "constant-time",
        } as const
      )[m[1] as "records" | "profile" | "instructions" | "memory" | "constant-time"],
      key: {
        system,
        algorithmId: m[2] as string,
        buildProfile: m[3] as string,
        instance: m[4] as string,
        operation: m[5] as string,
      },
    }),
  ],
  [
    new RegExp(`^kat/${NAME}/${NAME}/${NAME}\\.(json|log)$`),
    (m, system) => ({
      kind: m[4] === "json" ? "kat" : "kat-log",
      key: { system, algorithmId: m[1] as string, buildProfile: m[2] as string, instance: m[3] as string },
    }),
  ],
  [
    new RegExp(`^code-size/${NAME}/${NAME}/${NAME}\\.json$`),
    (m, system) => ({
      kind: "code-size",
      key: { system, algorithmId: m[1] as string, buildProfile: m[2] as string, instance: m[3] as string },
    }),
  ],
  [
    new RegExp(`^(sizes|survey)/${NAME}/${NAME}\\.json$`),
    (m, system) => ({
      kind: m[1] === "sizes" ? "size-audit" : "survey",
      key: { system, algorithmId: m[2] as string, buildProfile: m[3] as string },
    }),
  ],
];

/**
 * The kind and key of a file by its place in a system folder (`rel` relative to data/<system>/, `/`
 * separators); null for a file that is not part of the layout. The inverse of relativeRecordPath.
 */
export function parseRecordPath(system: string, rel: string): StoreEntry | null {
  for (const [re, make] of PATTERNS) {
    const m = re.exec(rel);
    if (!m) continue;
    const entry = make(m, system);
    const names = Object.values(entry.key) as string[];
    return names.every(isValidName) ? entry : null;
  }
  return null;
}

/** A key field of a record that names another key than the record's place in the store gives. */
export interface KeyMismatch {
  field: string;
  got: unknown;
  want: string;
}

/**
 * The key fields a valid record names other than those its place in the store gives (a record moved by hand to
 * another folder). A field the record leaves out is not compared: the schemas let only a survey's system and build
 * profile and a size audit's build profile be left out.
 */
export function keyMismatches(entry: StoreEntry, record: Record<string, unknown>): KeyMismatch[] {
  const out: KeyMismatch[] = [];
  for (const [field, want] of Object.entries(entry.key)) {
    const got = record[field];
    if (got !== undefined && got !== want) out.push({ field, got, want });
  }
  return out;
}

/** "<field> <got> in the record, but its place in the store says <want>", the record's value as `shown` shows it. */
export function keyMismatchMessage(
  m: KeyMismatch,
  shown: (got: unknown) => string = (got) => JSON.stringify(got),
): string {
  return `${m.field} ${shown(m.got)} in the record, but its place in the store says ${JSON.stringify(m.want)}`;
}

/** The kind of record a file holds by its place in a system folder; null for files outside the layout. */
export function kindOfPath(rel: string): StoreFileKind | null {
  return parseRecordPath("x", rel)?.kind ?? null;
}

/** The shard key of an instance under a profile ("<algorithm>/<instance>/<profile>"), the same on every host. */
export function unitName(key: InstanceKey | AlgorithmKey): string {
  return "instance" in key
    ? `${key.algorithmId}/${key.instance}/${key.buildProfile}`
    : `${key.algorithmId}/${key.buildProfile}`;
}

/**
 * The earlier harness's name for a file (its layout knew one build profile and put none in paths):
 * records/<alg>/<instance>__<op>.json, profile/…, kat/<alg>/<instance>.log|.json, sizes/<alg>.json,
 * survey/<alg>.json. For pages transcribed from that harness only: no file of a store has this name.
 */
export function harnessRecordPath(entry: StoreEntry): string {
  const rel = relativeRecordPath(entry);
  if (entry.kind === "environment" || entry.kind === "store-index") return rel;
  const parts = rel.split("/");
  if (entry.kind === "size-audit" || entry.kind === "survey") return `${parts[0]}/${parts[1]}.json`;
  return [parts[0], parts[1], ...parts.slice(3)].join("/");
}

/** The inverse of harnessRecordPath: the entry an earlier harness's name stands for under `buildProfile`. */
export function parseHarnessRecordPath(system: string, rel: string, buildProfile: string): StoreEntry | null {
  const parts = rel.split("/");
  const withProfile =
    parts.length === 2 && (parts[0] === "sizes" || parts[0] === "survey")
      ? [parts[0], (parts[1] ?? "").replace(/\.json$/, ""), `${buildProfile}.json`]
      : parts.length === 3
        ? [parts[0], parts[1], buildProfile, parts[2]]
        : null;
  if (!withProfile) return null;
  const entry = parseRecordPath(system, withProfile.join("/"));
  return entry && harnessRecordPath(entry) === rel ? entry : null;
}
