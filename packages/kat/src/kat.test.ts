import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256 } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import { checkManifestFor, parseManifest } from "./manifest.ts";
import { PQCLEAN_NISTKAT_SHA256, pqcleanKatRng } from "./pqclean.ts";
import { abbreviate, deriveForm, diagnose, parseRsp, toLf } from "./rsp.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-kat-unit-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const entry = (i: number, ct: string) => `count = ${i}\nseed = ${"0A".repeat(48)}\npk = 0102\nct = ${ct}\nss = FF\n`;
const rsp = (cts: string[]) => `# Toy\n\n${cts.map((c, i) => `${entry(i, c)}\n`).join("")}`;

describe("rsp forms", () => {
  const text = rsp(["AA", "BB", "CC"]);
  it("derives single and all as PQClean and liboqs hash them", () => {
    expect(deriveForm(text, "single", 1)).toBe(entry(0, "AA"));
    expect(deriveForm(text, "all", 3)).toBe(`${entry(0, "AA")}\n${entry(1, "BB")}\n${entry(2, "CC")}`);
    expect(deriveForm(text, "all", 2)).toBe(`${entry(0, "AA")}\n${entry(1, "BB")}`);
    expect(deriveForm(text, "rsp", 3)).toBe(text);
  });
  it("parses entries with their counts and line numbers, CRLF or LF", () => {
    const r = parseRsp(text.replace(/\n/g, "\r\n"));
    expect(r.header).toEqual(["# Toy"]);
    expect(r.entries.map((e) => e.count)).toEqual([0, 1, 2]);
    expect(r.entries[1]?.fields.find((f) => f.key === "ct")).toEqual({ key: "ct", value: "BB", line: 12 });
    expect(toLf(text.replace(/\n/g, "\r\n"))).toBe(text);
  });
});

describe("diagnose", () => {
  it("names the first differing count and field and counts differing entries", () => {
    const d = diagnose(rsp(["AA", "BB", "CC", "DD"]), rsp(["AA", "B0", "CC", "D0"]));
    expect(d).toMatchObject({ differingEntries: 2, firstCount: 1, field: "ct", expected: "BB", actual: "B0" });
    expect(d.summary).toMatch(/count = 1, field ct .*2 of 4 entries differ/);
  });
  it("abbreviates long values to their first and last bytes", () => {
    const long = "0123456789ABCDEF".repeat(8);
    expect(abbreviate(long)).toBe("01234567…89ABCDEF (64 bytes)");
    const d = diagnose(rsp([long]), rsp([`${long.slice(0, -1)}0`]));
    expect(d.expected).toBe("01234567…89ABCDEF (64 bytes)");
    expect(d.actual).toBe("01234567…89ABCDE0 (64 bytes)");
  });
  it("reports a missing entry and a differing header", () => {
    expect(diagnose(rsp(["AA", "BB"]), rsp(["AA"]))).toMatchObject({ differingEntries: 1, firstCount: 1 });
    expect(diagnose(rsp(["AA"]), rsp(["AA"]).replace("# Toy", "# Other"))).toMatchObject({
      differingEntries: 0,
      field: "header",
    });
  });
});

describe("manifest", () => {
  it("parses sha256sum lines and names malformed ones by line", () => {
    const p = parseManifest(`${"a".repeat(64)}  x/y.rsp\nnot a line\n${"B".repeat(64)} *z.rsp\n`);
    expect(p.lines).toEqual([
      { digest: "a".repeat(64), path: "x/y.rsp", line: 1 },
      { digest: "b".repeat(64), path: "z.rsp", line: 3 },
    ]);
    expect(p.malformed).toEqual([{ line: 2, text: "not a line" }]);
  });
  it("checks one file: ok, altered, unlisted, no manifest", () => {
    const rspFile = join(tmp, "A", "PQCkemKAT_1.rsp");
    const manifest = join(tmp, "kat.sha256");
    mkdirSync(dirname(rspFile), { recursive: true });
    writeFileSync(rspFile, "# A\n\n");
    writeFileSync(manifest, `${sha256("# A\n\n")}  A/PQCkemKAT_1.rsp\n`);
    expect(checkManifestFor(manifest, rspFile, "x/kat.sha256").status).toBe("ok");
    writeFileSync(rspFile, "# B\n\n");
    const altered = checkManifestFor(manifest, rspFile, "x/kat.sha256");
    expect(altered.status).toBe("mismatch");
    expect(altered.problems[0]).toMatch(/kat\.sha256:1: A\/PQCkemKAT_1\.rsp has SHA-256 .*corrupt or altered/);
    writeFileSync(manifest, "");
    expect(checkManifestFor(manifest, rspFile, "x/kat.sha256").problems[0]).toMatch(
      /does not list A\/PQCkemKAT_1\.rsp/,
    );
    expect(checkManifestFor(join(tmp, "none"), rspFile, "x/kat.sha256").status).toBe("missing");
  });
  it("names the .rsp files it lists that no instance uses (as listed), and says so in a warning", () => {
    const a = join(tmp, "U", "A", "PQCkemKAT_1.rsp");
    const b = join(tmp, "U", "B", "PQCkemKAT_2.rsp");
    const manifest = join(tmp, "U", "kat.sha256");
    mkdirSync(dirname(b), { recursive: true });
    mkdirSync(dirname(a), { recursive: true });
    writeFileSync(a, "# A\n\n");
    writeFileSync(b, "# B\n\n");
    writeFileSync(join(tmp, "U", "README"), "x");
    writeFileSync(
      manifest,
      `${sha256("# A\n\n")}  A/PQCkemKAT_1.rsp\n${sha256("# B\n\n")}  ./B/PQCkemKAT_2.rsp\n${sha256("x")}  README\n`,
    );
    const all = checkManifestFor(manifest, a, "x/KAT/kat.sha256", [a, b]);
    expect(all.unused).toEqual([]);
    expect(all.warnings).toEqual([]);
    const one = checkManifestFor(manifest, a, "x/KAT/kat.sha256", [a]);
    expect(one.status).toBe("ok");
    expect(one.unused).toEqual(["B/PQCkemKAT_2.rsp"]);
    expect(one.warnings).toEqual([
      "x/KAT/kat.sha256 lists B/PQCkemKAT_2.rsp, not used by any instance (no instance's kat.file in meta.json names it)",
    ]);
    // Without the instances' files nothing is said.
    expect(checkManifestFor(manifest, a, "x/KAT/kat.sha256").unused).toEqual([]);
  });
});

describe("PQClean figures", () => {
  it("the built-in table equals the reference copy in fixtures/reference", () => {
    const ref = JSON.parse(
      readFileSync(join(repo, "fixtures/reference/pqclean-nistkat-sha256.json"), "utf8"),
    ) as Record<string, string>;
    const table = Object.fromEntries(Object.entries(ref).map(([k, v]) => [k.split("/")[1], v]));
    expect({ ...PQCLEAN_NISTKAT_SHA256 }).toEqual(table);
    expect(pqcleanKatRng("hqc-128")).toBe("hqc");
    expect(pqcleanKatRng("ml-kem-512")).toBe("nist");
  });
});
