// Validation of seed-store records against the JSON Schemas in packages/schema/schemas/ with ajv (draft 2020-12).
// ajv is a dependency of @ngcc-perf/schema, so it is loaded through that package's resolution.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SCHEMA_DIR = join(REPO_ROOT, "packages/schema/schemas");

export const STORE_RECORD_KINDS = [
  "environment",
  "timing",
  "kat",
  "hash-profile",
  "survey",
  "size-audit",
  "store-index",
] as const;
export type StoreRecordKind = (typeof STORE_RECORD_KINDS)[number];

interface AjvError {
  instancePath: string;
  message?: string;
  params?: unknown;
}
type ValidateFn = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvInstance {
  compile(schema: unknown): ValidateFn;
}
type AjvCtor = new (options: Record<string, unknown>) => AjvInstance;

function loadAjv(): AjvCtor {
  const require = createRequire(join(REPO_ROOT, "packages/schema/package.json"));
  const mod = require("ajv/dist/2020.js") as AjvCtor & { default?: AjvCtor };
  return mod.default ?? mod;
}

export type RecordValidator = (kind: StoreRecordKind, record: unknown) => string[];

/** Compiles the store schemas once; the returned function gives ajv's errors as `pointer: message` lines. */
export function makeValidator(schemaDir = SCHEMA_DIR): RecordValidator {
  const Ajv2020 = loadAjv();
  // The options packages/schema compiles its own validators with (scripts/outputs.ts).
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  const compiled = new Map<StoreRecordKind, ValidateFn>();
  for (const kind of STORE_RECORD_KINDS) {
    const schema = JSON.parse(readFileSync(join(schemaDir, `${kind}.schema.json`), "utf8")) as unknown;
    compiled.set(kind, ajv.compile(schema));
  }
  return (kind, record) => {
    const fn = compiled.get(kind);
    if (!fn) return [`no schema for kind ${kind}`];
    if (fn(record)) return [];
    return (fn.errors ?? []).map(
      (e) => `${e.instancePath || "/"}: ${e.message ?? "invalid"} ${JSON.stringify(e.params)}`,
    );
  };
}

/** The kind a store file must have, from its path relative to data/<system>/. */
export function kindOfStorePath(path: string): StoreRecordKind | null {
  if (path === "environment.json") return "environment";
  if (path === "index.json") return "store-index";
  if (/^records\/[^/]+\/[^/]+__[a-z][a-z0-9_]*\.json$/.test(path)) return "timing";
  if (/^profile\/[^/]+\/[^/]+__[a-z][a-z0-9_]*\.json$/.test(path)) return "hash-profile";
  if (/^kat\/[^/]+\/[^/]+\.json$/.test(path)) return "kat";
  if (/^sizes\/[^/]+\.json$/.test(path)) return "size-audit";
  if (/^survey\/[^/]+\.json$/.test(path)) return "survey";
  return null;
}
