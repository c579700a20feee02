import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "@ngcc-perf/runner";
import { describe, expect, it } from "vitest";
import { formatCatalog, parseCatalog, readCatalog } from "./catalog.ts";
import { pqcleanCatalogRows } from "./pqclean.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtureCatalog = join(root, "fixtures/catalog/external_sizes.csv");
const HEADER = "algorithm_id,instance,category,public_key,ciphertext,signature,public_key_a,kex_messages,source,note";

/** The InputError message parseCatalog throws for `text`. */
function errorOf(text: string): string {
  try {
    parseCatalog(text, "cat.csv");
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error("expected the catalog to be rejected");
}

describe("parseCatalog", () => {
  it("reads the fixture catalog: every instance once, with sizes, messages and the notes' line numbers", () => {
    const rows = readCatalog(fixtureCatalog);
    expect(rows.map((r) => r.instance)).toEqual([
      "Puffin-128",
      "Puffin-192",
      "Puffin-256",
      "Puffin-K-128",
      "Puffin-K-192",
      "Puffin-K-256",
      "Quill-128",
      "Quill-V-192",
      "Heron-128",
      "Heron-256",
      "Heron-2P-128",
      "Heron-2P-256",
      "Wren-128",
      "Shrike-128",
    ]);
    const by = (name: string) => rows.find((r) => r.instance === name);
    expect(by("Puffin-256")).toMatchObject({ category: "kem", publicKeyBytes: 1568, ciphertextBytes: 1664, line: 4 });
    expect(by("Puffin-256")?.note).toMatch(/^Deliberate disagreement/);
    expect(by("Quill-V-192")).toMatchObject({ category: "sign", signatureBytes: 2128, ciphertextBytes: null, line: 9 });
    expect(by("Heron-2P-128")).toMatchObject({ publicKeyBytes: 800, publicKeyABytes: 0, kexMessageBytes: [832, 832] });
    expect(by("Heron-2P-256")?.kexMessageBytes).toEqual([3104, 1536]);
  });

  it("accepts the required columns alone, in any order, with # comment lines and CRLF line ends", () => {
    const rows = parseCatalog(
      [
        "# a comment",
        "instance,algorithm_id,public_key,ciphertext,signature,source,note",
        "A-1,alg-1,10,20,,doc,",
        "",
        "# another",
        "A-2,alg-1,11,21,,doc,",
      ].join("\r\n"),
      "cat.csv",
    );
    expect(rows.map((r) => [r.algorithmId, r.instance, r.publicKeyBytes, r.ciphertextBytes, r.line])).toEqual([
      ["alg-1", "A-1", 10, 20, 3],
      ["alg-1", "A-2", 11, 21, 6],
    ]);
    expect(rows[0]?.category).toBeNull();
  });

  it("gives a row spanning lines its first line", () => {
    const rows = parseCatalog(`${HEADER}\nk,A,kem,1,2,,,,doc,"two\nlines"\nk,B,kem,1,2,,,,doc,\n`, "cat.csv");
    expect(rows.map((r) => r.line)).toEqual([2, 4]);
    expect(rows[0]?.note).toBe("two\nlines");
  });

  it("names file:line and what was expected for a wrong column count", () => {
    expect(errorOf(`${HEADER}\nk,A,kem,1,2,,,,doc,\nk,B,kem,1,2,,,doc,\n`)).toContain(
      "cat.csv:3: expected 10 columns as in the header (line 1), found 9",
    );
  });

  it("names file:line, column and value for a size that is not a whole number", () => {
    const msg = errorOf(`${HEADER}\nk,A,kem,1,2,,,,doc,\nk,B,kem,8OO,2,,,,doc,\nk,C,kem,1,2.5,,,,doc,\n`);
    expect(msg).toContain(
      'cat.csv:3: column public_key: expected a size in bytes (a whole number) or an empty cell, found "8OO"',
    );
    expect(msg).toContain(
      'cat.csv:4: column ciphertext: expected a size in bytes (a whole number) or an empty cell, found "2.5"',
    );
  });

  it("names both lines of a duplicate row", () => {
    expect(errorOf(`${HEADER}\nk,A,kem,1,2,,,,doc,\nk,B,kem,1,2,,,,doc,\nk,A,kem,1,3,,,,doc,\n`)).toContain(
      "cat.csv:4: duplicate row for k/A: expected one row per instance (first at line 2)",
    );
  });

  it("rejects an unknown or missing header column, a bad category, bad messages and cells a category has not", () => {
    expect(errorOf("algorithm_id,instance,public_key,ciphertext,signature,source,notes\n")).toMatch(
      /cat\.csv:1: unknown column "notes".*\n.*cat\.csv:1: the header lacks the column\(s\) note/,
    );
    expect(errorOf(`${HEADER}\nk,A,kme,1,2,,,,doc,\n`)).toContain(
      'cat.csv:2: column category: expected kem, sign or kex, found "kme"',
    );
    expect(errorOf(`${HEADER}\nx,A,kex,1,,,0,12+,doc,\n`)).toContain(
      'cat.csv:2: column kex_messages: expected message sizes in bytes (each at most 67108864) joined by + (e.g. 1632+832), found "12+"',
    );
    expect(errorOf(`${HEADER}\nk,A,kem,1,2,3,,,doc,\n`)).toContain(
      "cat.csv:2: column signature: expected an empty cell in a kem row (it fills public_key, ciphertext)",
    );
    expect(errorOf(`${HEADER}\nk,A B,kem,1,2,,,,doc,\n`)).toContain(
      "cat.csv:2: column instance: expected an instance name",
    );
  });

  it("reports CSV syntax errors with their line", () => {
    expect(errorOf(`${HEADER}\nk,A,kem,1,2,,,,doc,\nk,B,kem,1,2,,,,doc,"unclosed\n`)).toMatch(
      /^invalid size catalog:\ncat\.csv:3: not valid CSV/,
    );
  });

  it("rejects an empty file", () => {
    expect(errorOf("# only a comment\n")).toContain("cat.csv:1: expected a header line");
  });

  it("writes what it reads: formatCatalog round-trips, quoting notes with commas, quotes and #", () => {
    const rows = readCatalog(fixtureCatalog).map((r) =>
      r.instance === "Puffin-128" ? { ...r, note: '# a "quoted", note' } : r,
    );
    const text = formatCatalog(rows, ["made by a test"]);
    expect(text.startsWith("# made by a test\n")).toBe(true);
    const again = parseCatalog(text, "again.csv");
    expect(again.map(({ line: _l, ...r }) => r)).toEqual(rows.map(({ line: _l, ...r }) => r));
  });
});

describe("pqcleanCatalogRows", () => {
  it("makes one row per scheme from the META lengths, kem rows with ciphertexts and sign rows with signatures", () => {
    const meta = JSON.parse(readFileSync(join(root, "fixtures/reference/pqclean-meta-lengths.json"), "utf8"));
    const rows = pqcleanCatalogRows(meta);
    expect(rows).toHaveLength(35);
    expect(rows.find((r) => r.instance === "ml-kem-512")).toMatchObject({
      algorithmId: "ml-kem-512",
      category: "kem",
      publicKeyBytes: 800,
      ciphertextBytes: 768,
      signatureBytes: null,
    });
    expect(rows.find((r) => r.instance === "falcon-512")).toMatchObject({
      category: "sign",
      publicKeyBytes: 897,
      signatureBytes: 752,
    });
    expect(() => pqcleanCatalogRows({ "crypto_kem/x": { "length-public-key": 1 } }, "m.json")).toThrow(
      "m.json: /crypto_kem/x/length-ciphertext: expected a length in bytes",
    );
  });
});
