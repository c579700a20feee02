// The comparison of a shipped .rsp with the generated one, on recorded texts: every entry line byte for byte;
// a difference only in comment lines (the header `# <name>` first of all), empty lines or the final newline is a
// match with a warning naming the line, expected and generated; any difference in an entry is a mismatch naming
// the entry and the field (docs/kat.md, "Compare").
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compare } from "./compare.ts";
import type { KatPlan } from "./expect.ts";
import type { KatgenRun } from "./generator.ts";
import { compareRsp, diagnose, differenceText } from "./rsp.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-kat-compare-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const entry = (i: number, ct: string) =>
  `count = ${i}\nseed = ${"0A".repeat(48)}\npk = 0102\nsk = 0304\nct = ${ct}\nss = FF\n`;
/** A .rsp as katgen writes it: `# <name>`, an empty line, entries each followed by an empty line. */
const rsp = (name: string, cts: string[]) => `# ${name}\n\n${cts.map((c, i) => `${entry(i, c)}\n`).join("")}`;
const generated = rsp("Kyber768", ["AA", "BB", "CC"]);

/** compare() of a shipped text against the generated one, as the KAT step runs it. */
function compared(shipped: string) {
  const path = join(tmp, `${Math.random().toString(36).slice(2)}.rsp`);
  writeFileSync(path, shipped);
  const plan: KatPlan = {
    expectations: [{ form: "rsp", entries: 3, path, source: "KAT/ML-KEM-768/PQCkemKAT_2400.rsp" }],
    entries: 3,
    rng: "nist",
  };
  const run = { info: { entries: 3 }, outputs: { rsp: Buffer.from(generated) } } as unknown as KatgenRun;
  return compare(plan, run);
}

describe("a shipped .rsp whose only difference is outside its entries", () => {
  it("the header line: a match, with a warning naming line 1, expected and generated", () => {
    const shipped = rsp("ML-KEM-768", ["AA", "BB", "CC"]);
    const c = compareRsp(shipped, generated);
    expect(c).toEqual({
      equal: false,
      entriesAgree: true,
      differences: [{ kind: "comment", line: 1, expected: '"# ML-KEM-768"', generated: '"# Kyber768"' }],
    });
    const r = compared(shipped);
    expect(r.checks).toHaveLength(1);
    expect(r.checks[0]?.match).toBe(true);
    // The bytes differ, and the record's hashes say so.
    expect(r.checks[0]?.expectedSha256).not.toBe(r.checks[0]?.generatedSha256);
    expect(r.diagnosis).toBeUndefined();
    expect(r.warnings).toEqual([
      'KAT/ML-KEM-768/PQCkemKAT_2400.rsp differs from the generated file only outside its entries (every entry agrees byte for byte): line 1: "# ML-KEM-768", generated "# Kyber768"',
    ]);
  });

  it("no final newline, or an extra comment line in the header: a match with the difference named", () => {
    const r = compared(rsp("Kyber768", ["AA", "BB", "CC"]).replace(/\n+$/, ""));
    expect(r.checks[0]?.match).toBe(true);
    expect(r.warnings.join(" ")).toMatch(
      /the shipped file ends with no final newline, the generated one with a final newline/,
    );
    const extra = compared(
      rsp("Kyber768", ["AA", "BB", "CC"]).replace("# Kyber768\n", "# Kyber768\n# made by PQCgenKAT_kem\n"),
    );
    expect(extra.checks[0]?.match).toBe(true);
    expect(extra.warnings.join(" ")).toMatch(/line 2: "# made by PQCgenKAT_kem", not in the generated file/);
  });

  it("a comment line among the entries (even between an entry's fields) is no entry data: a match, its line named", () => {
    // Decided (docs/kat.md): a `#` line holds no field wherever it is; the fields around it still agree byte for byte.
    const shipped = generated.replace("count = 1\n", "count = 1\n# second entry\n");
    const r = compared(shipped);
    expect(r.checks[0]?.match).toBe(true);
    expect(r.warnings.join(" ")).toMatch(/line 11: "# second entry", not in the generated file/);
    const between = compared(generated.replace("count = 2\n", "# last one\ncount = 2\n"));
    expect(between.checks[0]?.match).toBe(true);
  });

  it("names every kind of difference in words", () => {
    expect(differenceText({ kind: "comment", expected: "no comment line", generated: '"# Kyber768"' })).toBe(
      'no comment line where the generated file has "# Kyber768"',
    );
    expect(differenceText({ kind: "empty-lines", line: 9, expected: "an empty line", generated: '"count = 1"' })).toBe(
      'empty lines differ from line 9: an empty line, generated "count = 1"',
    );
  });
});

describe("a shipped .rsp whose entries differ", () => {
  it("a value of one entry: a mismatch naming the entry and the field, header difference or not", () => {
    const shipped = rsp("ML-KEM-768", ["AA", "B0", "CC"]);
    expect(compareRsp(shipped, generated)).toEqual({ equal: false, entriesAgree: false });
    const r = compared(shipped);
    expect(r.checks[0]?.match).toBe(false);
    expect(r.diagnosis).toMatchObject({
      firstCount: 1,
      field: "ct",
      expected: "B0",
      actual: "BB",
      differingEntries: 1,
    });
    expect(r.text).toMatch(/first difference at count = 1, field ct/);
  });

  it("spacing inside an entry line (which parsing forgives) is a mismatch too, naming the entry and the field", () => {
    const shipped = generated
      .replace("count = 2\nseed", "count = 2\nseed ")
      .replace(/\nsk = 0304\nct = CC/, "\nsk = 0304 \nct = CC");
    const r = compared(shipped);
    expect(r.checks[0]?.match).toBe(false);
    expect(r.diagnosis).toMatchObject({ firstCount: 2, field: "seed" });
    expect(r.text).toMatch(/count = 2, field seed \(line 18 of the expected file\): expected "seed {2}= 0A0A/);
    expect(diagnose(shipped, generated).differingEntries).toBe(1);
  });

  it("a missing entry is a mismatch at its count", () => {
    const r = compared(rsp("Kyber768", ["AA", "BB"]));
    expect(r.checks[0]?.match).toBe(false);
    expect(r.diagnosis).toMatchObject({ firstCount: 2, field: "count" });
  });
});
