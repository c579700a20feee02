// Validation of records and campaigns against the ahead-of-time compiled validators.
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { LineCounter, parseDocument } from "yaml";
import * as compiled from "./generated/validators.js";
import { jsonLocator, type Locator, offsetToPosition, toPointer, yamlLocator } from "./locate.ts";
import { SCHEMA_VERSION } from "./schemas/builders.ts";

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
};

export function isRecordKind(value: unknown): value is RecordKind {
  return typeof value === "string" && (RECORD_KINDS as ReadonlyArray<string>).includes(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? "a string" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Turns ajv's errors into short messages keyed by the pointer of the field concerned. */
function convert(errors: ReadonlyArray<AjvError>): Array<ValidationError & { key: boolean }> {
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
          message: `unknown field "${String(p.additionalProperty)}" (not in the schema; a typo?)`,
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
  return convert(fn.errors ?? []);
}

/** Validates a parsed value as a record of `kind`. Errors carry JSON pointers. */
export function validate(kind: RecordKind, value: unknown): ValidationResult {
  const errors = run(kind, value).map(({ pointer, message }) => ({ pointer, message }));
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
        out.push({ pointer: toPointer([...path, name]), message: `duplicate key "${name}"`, ...pos });
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
 * Parses and validates the text of a file. The kind comes from `kind` when given, else from the
 * record's `kind` field, else (YAML) campaign. Never throws for bad input: every problem is an error.
 */
export function validateText(text: string, fileName: string, kind?: RecordKind): ValidationResult {
  const format = formatOf(fileName);
  let value: unknown;
  let locator: Locator;
  if (format === "json") {
    try {
      value = JSON.parse(text);
    } catch (err) {
      const parseErrors: ParseError[] = [];
      parseTree(text, parseErrors, { disallowComments: true, allowTrailingComma: false });
      const first = parseErrors[0];
      const pos = offsetToPosition(text, first ? first.offset : 0);
      const detail = first ? printParseErrorCode(first.error) : (err as Error).message;
      return {
        kind: kind ?? null,
        valid: false,
        errors: [{ pointer: "", message: `not valid JSON: ${detail}`, ...pos }],
      };
    }
    locator = jsonLocator(text);
    const dups: ValidationError[] = [];
    duplicateKeys(parseTree(text), [], dups, text);
    if (dups.length > 0) return { kind: kind ?? declaredKind(value), valid: false, errors: dups, value };
  } else {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
    const first = doc.errors[0];
    if (first) {
      const pos = lineCounter.linePos(first.pos[0]);
      return {
        kind: kind ?? "campaign",
        valid: false,
        errors: [
          { pointer: "", message: `not valid YAML: ${first.message.split("\n")[0]}`, line: pos.line, column: pos.col },
        ],
      };
    }
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      return {
        kind: kind ?? "campaign",
        valid: false,
        errors: [{ pointer: "", message: `YAML rejected: ${(err as Error).message}`, line: 1, column: 1 }],
      };
    }
    locator = yamlLocator(doc, lineCounter);
  }
  const resolved = kind ?? declaredKind(value) ?? (format === "yaml" ? "campaign" : null);
  if (!resolved) {
    const k =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>).kind
        : undefined;
    const message =
      k === undefined
        ? `no record kind: expected an object with a "kind" field (one of ${STORE_KINDS.join(", ")}), found ${describe(value)}`
        : `unknown record kind ${JSON.stringify(k)}: expected one of ${STORE_KINDS.join(", ")}`;
    const pointer = k === undefined ? "" : "/kind";
    return { kind: null, valid: false, errors: [{ pointer, message, ...locator.locate(pointer) }], value };
  }
  const errors = run(resolved, value).map(({ pointer, message, key }) => ({
    pointer,
    message,
    ...locator.locate(pointer, key),
  }));
  return { kind: resolved, valid: errors.length === 0, errors, value };
}
