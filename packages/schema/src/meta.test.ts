// The meta.json schema: every fixture's meta.json validates by its file name; typos, wrong types, an unknown API
// style and paths that leave the submission are errors with their JSON pointer and line.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { validateFile } from "./files.ts";
import { validate, validateText } from "./validate.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const submissions = join(repo, "fixtures", "submissions");
const fixtures = readdirSync(submissions)
  .filter((d) => {
    try {
      readFileSync(join(submissions, d, "meta.json"));
      return true;
    } catch {
      return false;
    }
  })
  .sort();
const tmp = mkdtempSync(join(tmpdir(), "ngcc-meta-schema-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sig93 = readFileSync(join(submissions, "sig-93", "meta.json"), "utf8");
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
/** The line of the second line holding `needle`. */
const secondLineOf = (text: string, needle: string) =>
  text
    .split("\n")
    .map((l, i) => (l.includes(needle) ? i + 1 : 0))
    .filter((n) => n > 0)[1];

describe("meta.json schema", () => {
  it("finds the four fixtures at least", () => {
    expect(fixtures).toEqual(expect.arrayContaining(["kem-90", "kex-92", "sig-91", "sig-93"]));
  });

  it.each(fixtures)("fixtures/submissions/%s/meta.json validates, recognised by its file name", (id) => {
    const r = validateFile(join(submissions, id, "meta.json"));
    expect(r.errors).toEqual([]);
    expect(r).toMatchObject({ kind: "meta", valid: true });
  });

  it("reports a misspelled key with its pointer, the nearest name and the expected ones", () => {
    const text = sig93.replace('"sources"', '"sourcse"');
    const r = validateText(text, "sub/meta.json");
    expect(r.kind).toBe("meta");
    expect(r.errors).toContainEqual({
      pointer: "/instances/0/sourcse",
      message: expect.stringMatching(
        /^unknown field "sourcse" \(did you mean "sources"\?\); expected one of name, sources, implementation, .*apiHeader, api, .*randombytesSource, kat, notes$/,
      ),
      line: lineOf(text, '"sourcse"'),
      column: 7,
    });
  });

  it("reports an unknown top-level key", () => {
    const r = validateText(sig93.replace('"summary"', '"sumary"'), "meta.json");
    expect(r.errors).toContainEqual(
      expect.objectContaining({ pointer: "/sumary", message: expect.stringMatching(/did you mean "summary"/) }),
    );
  });

  it("rejects a wrong type with its pointer and line", () => {
    const text = sig93.replace('"defines": [],', '"defines": "WREN",');
    const r = validateText(text, "meta.json");
    expect(r.errors).toEqual([
      { pointer: "/instances/0/defines", message: "must be array", line: lineOf(text, '"WREN"'), column: 18 },
    ]);
    expect(validateText(sig93.replace('"Wren",', "42,"), "meta.json").errors).toEqual([
      expect.objectContaining({ pointer: "/name", message: "must be string" }),
    ]);
  });

  it("refuses two instances with one name, naming the second's pointer and line (issue 25: one store path)", () => {
    const m = JSON.parse(sig93) as Record<string, unknown> & { instances: Array<Record<string, unknown>> };
    const first = m.instances[0] as Record<string, unknown>;
    const text = JSON.stringify({ ...m, instances: [first, { ...first }] }, null, 2);
    const r = validateText(text, "sub/meta.json");
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual([
      {
        pointer: "/instances/1/name",
        message: `"${first.name as string}" is the name of /instances/0 too; expected a name unique among the instances (ignoring case: it names the instance's folder in the store and on the site)`,
        line: secondLineOf(text, `"name": "${first.name as string}"`),
        column: expect.any(Number),
      },
    ]);
  });

  it("refuses instance names that differ only in case (one folder on a case-insensitive file system)", () => {
    const m = JSON.parse(sig93) as Record<string, unknown> & { instances: Array<Record<string, unknown>> };
    const first = m.instances[0] as Record<string, unknown>;
    const name = first.name as string;
    const of = (instances: unknown[]) => validateText(JSON.stringify({ ...m, instances }), "meta.json").errors;
    expect(of([first, { ...first, name: `${name}-b` }, { ...first, name: name.toUpperCase() }])).toEqual([
      expect.objectContaining({
        pointer: "/instances/2/name",
        message: expect.stringContaining(
          `"${name.toUpperCase()}" differs from /instances/0's name "${name}" only in case`,
        ),
      }),
    ]);
    expect(of([first, { ...first, name: `${name}-b` }])).toEqual([]);
  });

  it("rejects an unknown api style with its pointer", () => {
    const text = sig93.replace(
      '"randomness": "randombytes",\n      "kat"',
      '"api": { "style": "fips205" },\n      "kat"',
    );
    const r = validateText(text, "meta.json");
    expect(r.errors).toEqual([
      {
        pointer: "/instances/0/api/style",
        message: 'must be one of "nist", "fips204"',
        line: lineOf(text, "fips205"),
        column: expect.any(Number),
      },
    ]);
  });

  it("accepts the new fields: iccs null, profiler groups, apiHeader of any name, api, randombytesSource", () => {
    const m = JSON.parse(sig93) as Record<string, unknown> & { instances: Array<Record<string, unknown>> };
    const value = {
      ...m,
      iccs: null,
      profiler: {
        groups: {
          sha3: { symbols: ["shake256", "KeccakF1600_StatePermute"], label: "SHA-3/SHAKE", kind: "hash" },
          rng: { symbols: ["randombytes"], symbolLabels: { randombytes: "drng" }, kind: "drng" },
        },
        replaceCampaignGroups: true,
      },
      instances: [
        {
          ...m.instances[0],
          apiHeader: "Reference_Implementation/Wren-128/sign.h",
          api: { style: "fips204", prefix: "PQCLEAN_MLDSA44_CLEAN_", context: "0a0B" },
          randombytesSource: "Reference_Implementation/common/randombytes.c",
        },
      ],
    };
    expect(validate("meta", value).errors).toEqual([]);
    const { iccs: _iccs, ...noIccs } = value;
    expect(validate("meta", noIccs).errors).toEqual([]);
  });

  it("checks the new fields' values", () => {
    const m = JSON.parse(sig93) as Record<string, unknown> & { instances: Array<Record<string, unknown>> };
    const at = (extra: Record<string, unknown>, top: Record<string, unknown> = {}) =>
      validate("meta", { ...m, ...top, instances: [{ ...m.instances[0], ...extra }] }).errors;
    expect(at({ api: { context: "abc" } })).toEqual([
      expect.objectContaining({ pointer: "/instances/0/api/context", message: expect.stringMatching(/pattern/) }),
    ]);
    expect(at({ api: { styel: "nist" } })).toEqual([
      expect.objectContaining({
        pointer: "/instances/0/api/styel",
        message: expect.stringMatching(/did you mean "style"/),
      }),
    ]);
    expect(at({}, { profiler: { groups: { sha3: { symbols: [] } } } })).toEqual([
      expect.objectContaining({ pointer: "/profiler/groups/sha3/symbols" }),
    ]);
    expect(at({}, { profiler: { groups: { sha3: { symbols: ["x"], kind: "xof" } } } })).toEqual([
      expect.objectContaining({
        pointer: "/profiler/groups/sha3/kind",
        message: 'must be one of "hash", "drng", "other"',
      }),
    ]);
    expect(at({ defines: ["-O0"] })).toEqual([
      expect.objectContaining({ pointer: "/instances/0/defines/0", message: expect.stringMatching(/pattern/) }),
    ]);
  });

  it("refuses paths that leave the submission and instance names that break the name rule", () => {
    const text = sig93.replace('"sources": [', '"sources": ["../../etc/passwd", ');
    expect(validateText(text, "meta.json").errors).toEqual([
      expect.objectContaining({
        pointer: "/instances/0/sources/0",
        message: '"../../etc/passwd" leaves the submission folder; expected a path inside it',
        line: lineOf(text, "passwd"),
      }),
    ]);
    const abs = validateText(sig93.replace('"KAT/kat.sha256"', '"/etc/kat.sha256"'), "meta.json");
    expect(abs.errors).toEqual([expect.objectContaining({ pointer: "/katManifest" })]);
    const name = validateText(sig93.replace('"name": "Wren-128"', '"name": "Wren__128"'), "meta.json");
    expect(name.errors).toEqual([expect.objectContaining({ pointer: "/instances/0/name" })]);
  });

  it("a meta.json file that declares a record kind is read as that record (a KAT record of an instance named meta)", () => {
    const file = join(tmp, "meta.json");
    writeFileSync(file, '{ "kind": "kat" }\n');
    expect(validateFile(file).kind).toBe("kat");
    writeFileSync(file, sig93);
    expect(validateFile(file)).toMatchObject({ kind: "meta", valid: true });
    writeFileSync(join(tmp, "other.json"), sig93);
    expect(validateFile(join(tmp, "other.json")).errors[0]?.message).toMatch(/no record kind/);
  });
});
