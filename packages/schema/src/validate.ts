// Validation of records and campaigns against the ahead-of-time compiled validators.
import { isAbsolute, posix } from "node:path";
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { LineCounter, parseDocument } from "yaml";
import * as compiled from "./generated/validators.js";
import { checkName } from "./layout.ts";
import { jsonLocator, type Locator, offsetToPosition, pointerTokens, toPointer, yamlLocator } from "./locate.ts";
import { schemas } from "./schemas/all.ts";
import { SCHEMA_VERSION } from "./schemas/builders.ts";
import { shortText } from "./text.ts";

export const RECORD_KINDS = [
  "campaign",
  "environment",
  "timing",
  "kat",
  "hash-profile",
  "survey",
  "size-catalog-row",
  "size-audit",
  "store-index",
  "instructions",
  "constant-time",
  "memory",
  "code-size",
  "meta",
  "comparison",
  "summary",
  "between-run",
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Kinds that carry a `kind` field and live in a record store. */
export const STORE_KINDS: ReadonlyArray<RecordKind> = [
  "environment",
  "timing",
  "kat",
  "hash-profile",
  "survey",
  "size-audit",
  "store-index",
  "instructions",
  "constant-time",
  "memory",
  "code-size",
];

export interface ValidationError {
  /** JSON pointer (RFC 6901) of the offending value; "" for the whole document. */
  pointer: string;
  message: string;
  /** 1-based line and column in the file, when validating text. */
  line?: number;
  column?: number;
}

export interface ValidationResult {
  kind: RecordKind | null;
  valid: boolean;
  errors: ValidationError[];
  /** The parsed value (validateText only; absent when the text could not be parsed). */
  value?: unknown;
}

interface AjvError {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
type CompiledValidator = ((value: unknown) => boolean) & { errors?: AjvError[] | null };

const validators: Record<RecordKind, CompiledValidator> = {
  campaign: compiled.campaign as CompiledValidator,
  environment: compiled.environment as CompiledValidator,
  timing: compiled.timing as CompiledValidator,
  kat: compiled.kat as CompiledValidator,
  "hash-profile": compiled.hash_profile as CompiledValidator,
  survey: compiled.survey as CompiledValidator,
  "size-catalog-row": compiled.size_catalog_row as CompiledValidator,
  "size-audit": compiled.size_audit as CompiledValidator,
  "store-index": compiled.store_index as CompiledValidator,
  instructions: compiled.instructions as CompiledValidator,
  "constant-time": compiled.constant_time as CompiledValidator,
  "code-size": compiled.code_size as CompiledValidator,
  memory: compiled.memory as CompiledValidator,
  meta: compiled.meta as CompiledValidator,
  comparison: compiled.comparison as CompiledValidator,
  summary: compiled.summary as CompiledValidator,
  "between-run": compiled.between_run as CompiledValidator,
};

export function isRecordKind(value: unknown): value is RecordKind {
  return typeof value === "string" && (RECORD_KINDS as ReadonlyArray<string>).includes(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? "a string" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The fields an object of the schema may have: the properties of the node an additionalProperties error names. */
function allowedFields(root: unknown, schemaPath: string | undefined): string[] {
  if (!schemaPath?.startsWith("#/")) return [];
  let node: unknown = root;
  for (const token of pointerTokens(schemaPath.slice(1)).slice(0, -1)) {
    if (typeof node !== "object" || node === null) return [];
    node = (node as Record<string, unknown>)[token];
  }
  const props = (node as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

/**
 * Edit distance of two short strings for "did you mean": insertions, deletions, substitutions and swaps of two
 * neighbouring characters count one each (optimal string alignment).
 */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_v, i) =>
    Array.from({ length: b.length + 1 }, (_w, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = v;
    }
  }
  return at(a.length, b.length);
}

/** The message of an unknown field: the nearest allowed name when one is close, then every allowed name. */
function unknownFieldMessage(name: string, allowed: readonly string[]): string {
  const shown = `unknown field "${shortText(name)}"`;
  if (allowed.length === 0) return `${shown} (not in the schema; a typo?)`;
  const near =
    name.length <= 64
      ? allowed
          .map((a) => ({ a, d: a.toLowerCase() === name.toLowerCase() ? 0 : distance(a, name) }))
          .filter((x) => x.d <= Math.max(1, Math.floor(x.a.length / 4)))
          .sort((x, y) => x.d - y.d)[0]?.a
      : undefined;
  return `${shown}${near ? ` (did you mean "${near}"?)` : " (not in the schema; a typo?)"}; expected one of ${allowed.join(", ")}`;
}

/** Turns ajv's errors into short messages keyed by the pointer of the field concerned. */
function convert(errors: ReadonlyArray<AjvError>, root?: unknown): Array<ValidationError & { key: boolean }> {
  const out: Array<ValidationError & { key: boolean }> = [];
  for (const e of errors) {
    const p = e.params;
    switch (e.keyword) {
      case "required":
        out.push({
          pointer: `${e.instancePath}${toPointer([String(p.missingProperty)])}`,
          message: `required field "${String(p.missingProperty)}" is missing`,
          key: false,
        });
        break;
      case "additionalProperties":
        out.push({
          pointer: `${e.instancePath}${toPointer([String(p.additionalProperty)])}`,
          message: unknownFieldMessage(String(p.additionalProperty), allowedFields(root, e.schemaPath)),
          key: true,
        });
        break;
      case "enum":
        out.push({
          pointer: e.instancePath,
          message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
          key: false,
        });
        break;
      case "const":
        out.push({ pointer: e.instancePath, message: `must be ${JSON.stringify(p.allowedValue)}`, key: false });
        break;
      case "type":
        out.push({ pointer: e.instancePath, message: `must be ${String(p.type)}`, key: false });
        break;
      case "if":
      case "anyOf":
      case "oneOf":
      case "allOf":
        out.push({ pointer: e.instancePath, message: e.message ?? e.keyword, key: false });
        break;
      default:
        out.push({ pointer: e.instancePath, message: e.message ?? e.keyword, key: false });
    }
  }
  // Combinators ("must match a schema in anyOf") only add noise when a more specific error exists at or below.
  const specific = out.filter((e) => !/must match/.test(e.message));
  const kept = out.filter(
    (e) => !/must match/.test(e.message) || !specific.some((s) => s.pointer.startsWith(e.pointer)),
  );
  const seen = new Set<string>();
  return kept.filter((e) => {
    const id = `${e.pointer}\u0000${e.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function versionError(value: unknown): ValidationError | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = (value as Record<string, unknown>).schemaVersion;
  if (typeof v === "number" && Number.isInteger(v) && v > SCHEMA_VERSION) {
    return {
      pointer: "/schemaVersion",
      message: `written for schemaVersion ${v}; this @ngcc-perf/schema reads schemaVersion ${SCHEMA_VERSION} — upgrade @ngcc-perf/schema to read it`,
    };
  }
  return null;
}

function run(kind: RecordKind, value: unknown): Array<ValidationError & { key: boolean }> {
  const version = versionError(value);
  if (version) return [{ ...version, key: false }];
  const fn = validators[kind];
  if (fn(value)) return [];
  return convert(fn.errors ?? [], schemas[kind]);
}

/** A value's errors against one compiled validator and the schema it was compiled from (pointers as validate's). */
export function validatorErrors(validator: unknown, schema: unknown, value: unknown): ValidationError[] {
  const fn = validator as CompiledValidator;
  if (fn(value)) return [];
  return convert(fn.errors ?? [], schema).map(({ pointer, message }) => ({ pointer: shownPointer(pointer), message }));
}

/** Validates a parsed value as a record of `kind`. Errors carry JSON pointers. */
export function validate(kind: RecordKind, value: unknown): ValidationResult {
  const errors = run(kind, value).map(({ pointer, message }) => ({ pointer: shownPointer(pointer), message }));
  return { kind, valid: errors.length === 0, errors };
}

/** The record kind a parsed value declares in its `kind` field, or null. */
export function declaredKind(value: unknown): RecordKind | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const k = (value as Record<string, unknown>).kind;
  return isRecordKind(k) ? k : null;
}

export type TextFormat = "json" | "yaml";

/** Format of a file by its name: .yaml/.yml are YAML, everything else JSON. */
export function formatOf(fileName: string): TextFormat {
  return /\.ya?ml$/i.test(fileName) ? "yaml" : "json";
}

function duplicateKeys(node: Node | undefined, path: Array<string | number>, out: ValidationError[], text: string) {
  if (!node) return;
  if (node.type === "object") {
    const seen = new Set<string>();
    for (const prop of node.children ?? []) {
      const keyNode = prop.children?.[0];
      const name = String(keyNode?.value);
      if (seen.has(name) && keyNode) {
        const pos = offsetToPosition(text, keyNode.offset);
        out.push({ pointer: toPointer([...path, name]), message: `duplicate key "${shortText(name)}"`, ...pos });
      }
      seen.add(name);
      duplicateKeys(prop.children?.[1], [...path, name], out, text);
    }
  } else if (node.type === "array") {
    (node.children ?? []).forEach((child, i) => {
      duplicateKeys(child, [...path, i], out, text);
    });
  }
}

/**
 * A pointer as errors carry it: each reference token cut to 80 characters with an ellipsis, so that an unknown
 * 20 MB key is not echoed (a cut pointer is marked by its "…").
 */
function shownPointer(pointer: string): string {
  if (pointer.length <= 80) return pointer;
  return toPointer(pointerTokens(pointer).map((t) => (t.length > 80 ? shortText(t) : t)));
}

/** Records nest 9 levels at most; deeper text is refused before it is parsed (a parser's recursion has limits). */
export const MAX_NESTING = 64;

/** A value quoted in a message: JSON for non-strings, cut to 80 characters with an ellipsis. */
function quoted(v: unknown): string {
  return typeof v === "string" ? `"${shortText(v)}"` : shortText(String(JSON.stringify(v)));
}

/**
 * The offset where the text's flow collections ([ and {, outside strings and YAML comments) first nest deeper
 * than `max`, or -1. A linear scan: nothing is parsed.
 */
export function tooDeepAt(text: string, format: TextFormat, max = MAX_NESTING): number {
  let depth = 0;
  let quote = "";
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== "") {
      if (c === 92 /* \\ */ && quote === '"') i++;
      else if (text[i] === quote) quote = "";
      else if (c === 10 && format === "json") quote = "";
      continue;
    }
    if (c === 34 /* " */ || (c === 39 /* ' */ && format === "yaml")) {
      // A YAML apostrophe inside a plain word (don't) opens nothing.
      if (c === 39 && i > 0 && /[A-Za-z0-9]/.test(text[i - 1] ?? "")) continue;
      quote = text[i] as string;
    } else if (c === 35 /* # */ && format === "yaml" && (lineStart || /\s/.test(text[i - 1] ?? ""))) {
      const nl = text.indexOf("\n", i);
      if (nl < 0) break;
      i = nl - 1;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) {
      depth = Math.max(0, depth - 1);
    }
    lineStart = c === 10;
  }
  return -1;
}

/** The depth of a parsed value, stopping as soon as it is above `max`. */
function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (d + 1 > max) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

function tooDeep(text: string, offset: number, kind: RecordKind | null, format: TextFormat): ValidationResult {
  const pos = offsetToPosition(text, offset);
  const message = `nested more than ${MAX_NESTING} levels deep: not a ${format === "yaml" ? "campaign" : "record"} (records nest 9 levels at most)`;
  return { kind, valid: false, errors: [{ pointer: "", message, ...pos }] };
}

/** A record's key fields name its place in the store: each is checked by the layout's name rule (as the runner's). */
function recordNameErrors(value: unknown): ValidationError[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const r = value as Record<string, unknown>;
  const errors: ValidationError[] = [];
  for (const field of ["system", "algorithmId", "instance", "buildProfile", "operation"]) {
    const v = r[field];
    if (typeof v !== "string") continue;
    try {
      checkName(v, "name");
    } catch (err) {
      errors.push({ pointer: `/${field}`, message: (err as Error).message.replace(/^name: /, "") });
    }
  }
  return errors;
}

/**
 * The names of a campaign that become parts of paths (docs/record-schema.md): system, systems, build profiles,
 * algorithm ids and instance names without wildcards — the checks `loadCampaign` makes, so validate and run agree.
 */
function campaignNameErrors(value: unknown): ValidationError[] {
  const c = value as {
    system?: unknown;
    systems?: unknown[];
    buildProfiles?: Record<string, unknown>;
    defaultProfile?: unknown;
    algorithms?: Array<{ id?: unknown; instances?: unknown[]; buildProfiles?: unknown[] }>;
  };
  const names: Array<[string, unknown]> = [["/system", c.system]];
  for (const [i, s] of (c.systems ?? []).entries()) names.push([`/systems/${i}`, s]);
  for (const p of Object.keys(c.buildProfiles ?? {})) names.push([`/buildProfiles${toPointer([p])}`, p]);
  for (const [i, a] of (c.algorithms ?? []).entries()) {
    names.push([`/algorithms/${i}/id`, a.id]);
    for (const [j, n] of (a.instances ?? []).entries()) {
      if (typeof n === "string" && !/[*?]/.test(n)) names.push([`/algorithms/${i}/instances/${j}`, n]);
    }
  }
  const errors: ValidationError[] = [];
  for (const [pointer, name] of names) {
    try {
      checkName(name, "name");
    } catch (err) {
      errors.push({ pointer, message: (err as Error).message.replace(/^name: /, "") });
    }
  }
  return errors;
}

/**
 * What a meta.json says beyond its schema, checked as the runner's readMeta checks it: instance names by the name
 * rule and unique among the instances (ignoring case), and every path of the submission relative and inside its folder once normalised.
 */
function metaErrors(value: unknown): ValidationError[] {
  const m = value as {
    katManifest?: unknown;
    implementations?: Array<{ folder?: unknown }>;
    ownPrimitives?: Array<{ source?: unknown }>;
    instances?: Array<Record<string, unknown> & { kat?: { file?: unknown } }>;
  };
  const errors: ValidationError[] = [];
  const inside = (pointer: string, p: unknown) => {
    if (typeof p !== "string") return;
    const n = posix.normalize(p.replace(/\\/g, "/"));
    if (isAbsolute(p) || n.startsWith("/") || n === ".." || n.startsWith("../")) {
      errors.push({ pointer, message: `"${shortText(p)}" leaves the submission folder; expected a path inside it` });
    }
  };
  inside("/katManifest", m.katManifest);
  inside("/randombytesSource", (m as { randombytesSource?: unknown }).randombytesSource);
  for (const [i, x] of (m.implementations ?? []).entries()) inside(`/implementations/${i}/folder`, x.folder);
  for (const [i, x] of (m.ownPrimitives ?? []).entries()) inside(`/ownPrimitives/${i}/source`, x.source);
  // An instance's name is a folder of the store and of the site: two instances with one name (or with names that
  // differ only in case, one folder on a case-insensitive file system or web server) would write one path.
  const named = new Map<string, { index: number; name: string }>();
  for (const [i, x] of (m.instances ?? []).entries()) {
    const at = `/instances/${i}`;
    try {
      checkName(x.name, "name");
      const key = (x.name as string).toLowerCase();
      const first = named.get(key);
      if (first === undefined) named.set(key, { index: i, name: x.name as string });
      else {
        const same =
          first.name === x.name
            ? `is the name of /instances/${first.index} too`
            : `differs from /instances/${first.index}'s name "${first.name}" only in case`;
        errors.push({
          pointer: `${at}/name`,
          message: `"${x.name as string}" ${same}; expected a name unique among the instances (ignoring case: it names the instance's folder in the store and on the site)`,
        });
      }
    } catch (err) {
      errors.push({ pointer: `${at}/name`, message: (err as Error).message.replace(/^name: /, "") });
    }
    for (const key of ["sources", "includeDirs"]) {
      for (const [j, p] of ((x[key] as unknown[] | undefined) ?? []).entries()) inside(`${at}/${key}/${j}`, p);
    }
    for (const key of ["folder", "apiHeader", "randombytesSource"]) inside(`${at}/${key}`, x[key]);
    inside(`${at}/kat/file`, x.kat?.file);
  }
  return errors;
}

/** A file named meta.json that declares no record kind is a submission's metadata. */
function isMetaFile(fileName: string, value: unknown): boolean {
  const base = fileName.split(/[\\/]/).pop();
  const declared = typeof value === "object" && value !== null && "kind" in value;
  return base === "meta.json" && !declared;
}

/**
 * Parses and validates the text of a file. The kind comes from `kind` when given, else from the
 * record's `kind` field, else (YAML) campaign. Never throws for bad input: every problem is an error.
 */
export function validateText(text: string, fileName: string, kind?: RecordKind): ValidationResult {
  const format = formatOf(fileName);
  const deep = tooDeepAt(text, format);
  if (deep >= 0) return tooDeep(text, deep, kind ?? (format === "yaml" ? "campaign" : null), format);
  try {
    return parseAndValidate(text, fileName, format, kind);
  } catch (err) {
    // Block nesting a scan of brackets does not see ("- - - - …"): the parser's recursion gives out.
    if (err instanceof RangeError) return tooDeep(text, 0, kind ?? (format === "yaml" ? "campaign" : null), format);
    throw err;
  }
}

/** A file's text parsed, with the locator of its pointers; or the result that says why it does not parse. */
type Parsed = { value: unknown; locator: Locator } | { result: ValidationResult };

function parseAndValidate(text: string, fileName: string, format: TextFormat, kind?: RecordKind): ValidationResult {
  const parsed = format === "json" ? parseJson(text, kind) : parseYaml(text, kind);
  if ("result" in parsed) return parsed.result;
  const { value, locator } = parsed;
  if (deeperThan(value, MAX_NESTING)) return tooDeep(text, 0, kind ?? declaredKind(value), format);
  const resolved =
    kind ??
    (format === "json" && isMetaFile(fileName, value) ? "meta" : null) ??
    declaredKind(value) ??
    (format === "yaml" ? "campaign" : null);
  if (!resolved) return noKind(value, locator);
  const found = run(resolved, value);
  // A campaign the schema accepts still names paths: the names are checked as loadCampaign checks them.
  if (found.length === 0) {
    const names =
      resolved === "campaign"
        ? campaignNameErrors(value)
        : resolved === "meta"
          ? metaErrors(value)
          : recordNameErrors(value);
    for (const e of names) found.push({ ...e, key: false });
  }
  const errors = found.map(({ pointer, message, key }) => ({
    pointer: shownPointer(pointer),
    message,
    ...locator.locate(pointer, key),
  }));
  return { kind: resolved, valid: errors.length === 0, errors, value };
}

/** Parses JSON: not valid JSON (at the first parse error) and duplicate keys are errors. */
function parseJson(text: string, kind?: RecordKind): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const parseErrors: ParseError[] = [];
    parseTree(text, parseErrors, { disallowComments: true, allowTrailingComma: false });
    const first = parseErrors[0];
    const pos = offsetToPosition(text, first ? first.offset : 0);
    const detail = first ? printParseErrorCode(first.error) : (err as Error).message;
    return {
      result: {
        kind: kind ?? null,
        valid: false,
        errors: [{ pointer: "", message: `not valid JSON: ${detail}`, ...pos }],
      },
    };
  }
  const locator = jsonLocator(text);
  const dups: ValidationError[] = [];
  duplicateKeys(parseTree(text), [], dups, text);
  if (dups.length > 0) return { result: { kind: kind ?? declaredKind(value), valid: false, errors: dups, value } };
  return { value, locator };
}

/**
 * Parses YAML (unique keys, at most 100 aliases): its first error is the error. Throws RangeError when the parser's
 * recursion gives out, as JSON.parse would.
 */
function parseYaml(text: string, kind?: RecordKind): Parsed {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    if (/call stack/i.test(first.message)) throw new RangeError(first.message);
    const pos = lineCounter.linePos(first.pos[0]);
    return {
      result: {
        kind: kind ?? "campaign",
        valid: false,
        errors: [
          { pointer: "", message: `not valid YAML: ${first.message.split("\n")[0]}`, line: pos.line, column: pos.col },
        ],
      },
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return {
      result: {
        kind: kind ?? "campaign",
        valid: false,
        errors: [{ pointer: "", message: `YAML rejected: ${(err as Error).message}`, line: 1, column: 1 }],
      },
    };
  }
  return { value, locator: yamlLocator(doc, lineCounter) };
}

/** A value of no kind: none declared ("no record kind") or one that is not a kind of the store. */
function noKind(value: unknown, locator: Locator): ValidationResult {
  const k =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>).kind
      : undefined;
  const message =
    k === undefined
      ? `no record kind: expected an object with a "kind" field (one of ${STORE_KINDS.join(", ")}), found ${describe(value)}`
      : `unknown record kind ${quoted(k)}: expected one of ${STORE_KINDS.join(", ")}`;
  const pointer = k === undefined ? "" : "/kind";
  return { kind: null, valid: false, errors: [{ pointer, message, ...locator.locate(pointer) }], value };
}
