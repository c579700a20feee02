// Small builders that keep the schema sources short and make every field carry a description.
// The JSON files in ../../schemas/ are generated from these sources (scripts/generate.ts); a test
// fails when the committed files drift from them.

export type JsonSchema = { [key: string]: unknown };

export const SCHEMA_VERSION = 1;
export const DRAFT = "https://json-schema.org/draft/2020-12/schema";
export const ID_BASE = `https://ngcc-perf.dev/schemas/v${SCHEMA_VERSION}/`;

export const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({
  type: "string",
  description,
  ...extra,
});
export const int = (description: string, extra: JsonSchema = {}): JsonSchema => ({
  type: "integer",
  description,
  ...extra,
});
export const nat = (description: string, extra: JsonSchema = {}): JsonSchema =>
  int(description, { minimum: 0, ...extra });
export const num = (description: string, extra: JsonSchema = {}): JsonSchema => ({
  type: "number",
  description,
  ...extra,
});
export const nonneg = (description: string, extra: JsonSchema = {}): JsonSchema =>
  num(description, { minimum: 0, ...extra });
export const bool = (description: string): JsonSchema => ({ type: "boolean", description });
export const oneOfEnum = (description: string, values: readonly string[]): JsonSchema => ({
  type: "string",
  enum: [...values],
  description,
});
export const arr = (description: string, items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
  type: "array",
  description,
  items,
  ...extra,
});
export const nullable = (schema: JsonSchema): JsonSchema => {
  const { description, ...rest } = schema;
  return { description, anyOf: [rest, { type: "null" }] };
};
export const ref = (name: string, description: string): JsonSchema => ({ $ref: `#/$defs/${name}`, description });

/** A closed object: unknown fields are rejected so typos are caught. */
export function obj(
  description: string,
  required: Record<string, JsonSchema>,
  optional: Record<string, JsonSchema> = {},
  extra: JsonSchema = {},
): JsonSchema {
  const req = Object.keys(required);
  return {
    type: "object",
    description,
    properties: { ...required, ...optional },
    ...(req.length > 0 ? { required: req } : {}),
    additionalProperties: false,
    ...extra,
  };
}

/** An object whose keys are free (a map), with values of one schema. */
export const map = (description: string, values: JsonSchema, keyPattern?: string): JsonSchema => ({
  type: "object",
  description,
  ...(keyPattern ? { propertyNames: { pattern: keyPattern } } : {}),
  additionalProperties: values,
});

/** The envelope every record schema shares. */
export function recordSchema(
  kind: string,
  title: string,
  description: string,
  required: Record<string, JsonSchema>,
  optional: Record<string, JsonSchema>,
  defs: Record<string, JsonSchema>,
  extra: JsonSchema = {},
): JsonSchema {
  return {
    $schema: DRAFT,
    $id: `${ID_BASE}${kind}.schema.json`,
    title,
    description,
    ...obj(
      description,
      {
        kind: { const: kind, description: `Record kind; always "${kind}" for this schema.` },
        schemaVersion: {
          const: SCHEMA_VERSION,
          description: "Version of this schema the record was written against (see docs/record-schema.md).",
        },
        ...required,
      },
      optional,
      extra,
    ),
    $defs: defs,
  };
}
