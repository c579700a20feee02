import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";
import { afterAll, describe, expect, it } from "vitest";
import { generateOutputs } from "../scripts/outputs.ts";
import { validateFile } from "./files.ts";
import { schemas } from "./schemas/all.ts";
import { SCHEMA_VERSION } from "./schemas/builders.ts";
import { DRIVER_OUTPUT_KINDS } from "./schemas/driver-output.ts";
import { RECORD_KINDS, validate, validateText } from "./validate.ts";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const example = (name: string) => readFileSync(join(pkg, "examples", name), "utf8");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-schema-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("generated files", () => {
  it("schemas/, types and validators match their sources (run `pnpm --filter @ngcc-perf/schema generate`)", async () => {
    const outputs = await generateOutputs(compile);
    expect(Object.keys(outputs).length).toBe(RECORD_KINDS.length + DRIVER_OUTPUT_KINDS.length + 3);
    for (const [rel, text] of Object.entries(outputs)) {
      expect(readFileSync(join(pkg, rel), "utf8"), rel).toBe(text);
    }
  }, 60_000);
});

describe("schema documents", () => {
  it("every kind has a draft 2020-12 schema with $id and schemaVersion", () => {
    expect(Object.keys(schemas).sort()).toEqual([...RECORD_KINDS, ...DRIVER_OUTPUT_KINDS].sort());
    for (const [kind, s] of Object.entries(schemas)) {
      expect(s.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(s.$id).toBe(`https://ngcc-perf.dev/schemas/v1/${kind}.schema.json`);
      expect(s.$id).toContain(`/v${SCHEMA_VERSION}/`);
      // Records carry their schemaVersion; a catalog row is a CSV row and what the native programs print is theirs
      // (validated by the runner, never stored): both are versioned by their $id only.
      const props = s.properties as Record<string, { const?: unknown }>;
      const byId = kind === "size-catalog-row" || (DRIVER_OUTPUT_KINDS as readonly string[]).includes(kind);
      expect(props.schemaVersion?.const, kind).toBe(byId ? undefined : SCHEMA_VERSION);
    }
  });

  it("every field has a description and every object is closed", () => {
    const problems: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (Array.isArray(node)) {
        node.forEach((n, i) => {
          walk(n, `${path}/${i}`);
        });
        return;
      }
      if (typeof node !== "object" || node === null) return;
      const o = node as Record<string, unknown>;
      if (o.type === "object" && o.properties && o.additionalProperties !== false) problems.push(`${path} open`);
      if (o.properties) {
        for (const [k, v] of Object.entries(o.properties as Record<string, Record<string, unknown>>)) {
          if (typeof v.description !== "string" || v.description.length < 3) problems.push(`${path}/${k} undescribed`);
        }
      }
      for (const [k, v] of Object.entries(o)) if (k !== "if") walk(v, `${path}/${k}`);
    };
    for (const [kind, s] of Object.entries(schemas)) walk(s, kind);
    expect(problems).toEqual([]);
  });

  it("units are named in the descriptions of timing figures", () => {
    const agg = (schemas.timing.properties as Record<string, { properties: Record<string, { description: string }> }>)
      .aggregates;
    expect(agg?.properties.meanNs?.description).toMatch(/ns/);
    const counter = (schemas.timing.$defs as Record<string, { properties: Record<string, { description: string }> }>)
      .counter;
    expect(counter?.properties.unit?.description).toMatch(/tsc-ticks \(never to be called cycles\)/);
  });
});

describe("validate()", () => {
  const good = JSON.parse(example("timing.json")) as Record<string, unknown>;

  it("accepts the timing example and the campaign example", () => {
    expect(validate("timing", good).errors).toEqual([]);
    expect(validateText(example("campaign.yaml"), "campaign.yaml")).toMatchObject({ kind: "campaign", valid: true });
  });

  it("rejects a wrong type with its JSON pointer, line and column", () => {
    const text = example("timing.json").replace('"peakRssKiB": 2040', '"peakRssKiB": "2040"');
    const r = validateText(text, "t.json");
    expect(r.valid).toBe(false);
    const line = text.split("\n").findIndex((l) => l.includes('"peakRssKiB"')) + 1;
    expect(r.errors).toEqual([
      { pointer: "/memory/peakRssKiB", message: "must be integer", line, column: expect.any(Number) },
    ]);
  });

  it("catches typos as unknown fields, pointing at the key", () => {
    const text = example("timing.json").replace('"meanNs"', '"meanNS"');
    const r = validateText(text, "t.json");
    const line = text.split("\n").findIndex((l) => l.includes('"meanNS"')) + 1;
    expect(r.errors).toContainEqual(
      expect.objectContaining({ pointer: "/aggregates/meanNS", message: expect.stringMatching(/unknown field/), line }),
    );
    expect(r.errors).toContainEqual(expect.objectContaining({ pointer: "/aggregates/meanNs" }));
  });

  it("requires a failure when status is failed, and trials when ok", () => {
    expect(validate("timing", { ...good, status: "failed" }).errors).toContainEqual(
      expect.objectContaining({ pointer: "/failure" }),
    );
    const { trials: _t, ...noTrials } = good;
    expect(validate("timing", noTrials).errors).toContainEqual(expect.objectContaining({ pointer: "/trials" }));
  });

  it("reads a record of a newer schemaVersion as one clear error", () => {
    const r = validate("timing", { ...good, schemaVersion: SCHEMA_VERSION + 1, future: true });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.message).toMatch(/upgrade @ngcc-perf\/schema/);
  });

  it("names the record kind that is missing or unknown", () => {
    expect(validateText("[1,2]", "a.json").errors[0]?.message).toMatch(/no record kind/);
    expect(validateText('{"kind":"timming"}', "a.json").errors[0]).toMatchObject({
      pointer: "/kind",
      message: expect.stringMatching(/unknown record kind "timming"/),
    });
  });

  it("reports JSON syntax errors and duplicate keys with a position", () => {
    expect(validateText('{\n  "kind": "timing",\n  "x": }', "a.json").errors[0]).toMatchObject({
      line: 3,
      message: expect.stringMatching(/^not valid JSON/),
    });
    const dup = validateText('{"kind":"survey",\n"kind":"survey"}', "a.json");
    expect(dup.errors[0]).toMatchObject({ pointer: "/kind", line: 2, message: 'duplicate key "kind"' });
  });

  it("survives a YAML bomb", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
    ].join("\n");
    const r = validateText(bomb, "bomb.yaml");
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/YAML rejected|alias/i);
  });

  it("points into YAML campaigns by line", () => {
    const text = example("campaign.yaml").replace("trials: 5", "trials: five");
    const r = validateText(text, "c.yaml");
    const line = text.split("\n").findIndex((l) => l.includes("trials: five")) + 1;
    expect(r.errors).toEqual([{ pointer: "/timing/trials", message: "must be integer", line, column: 11 }]);
  });
});

describe("validateFile()", () => {
  it("refuses huge files without reading them", () => {
    const big = join(tmp, "big.json");
    writeFileSync(big, "");
    truncateSync(big, 100 * 1024 * 1024);
    const r = validateFile(big);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/104857600 bytes; records are at most/);
  });

  it("refuses binary data and names a missing file", () => {
    const bin = join(tmp, "bin.json");
    writeFileSync(bin, Buffer.from([0x7b, 0x00, 0xff, 0x10]));
    expect(validateFile(bin).errors[0]?.message).toMatch(/binary data/);
    expect(validateFile(join(tmp, "nope.json")).errors[0]?.message).toMatch(/cannot read: ENOENT/);
  });
});
