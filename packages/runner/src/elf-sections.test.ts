// The memory step's section sizes and input distributions: ELF objects compiled here by gcc with known sizes
// (checked against the compiler's own section headers, as binutils' size -A reads them), the archive-style pull
// of support objects, and the distribution of per-input figures.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { instanceSections } from "./code-size.ts";
import { ElfError, elfSectionSizes, elfSymbols, pulledObjects, sectionKind } from "./elf-sections.ts";
import { memoryDistribution } from "./memory.ts";

const work = mkdtempSync(join(tmpdir(), "ngcc-elf-sections-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function compile(name: string, code: string, flags: string[] = []): string {
  const src = join(work, `${name}.c`);
  const obj = join(work, `${name}.o`);
  writeFileSync(src, code);
  const r = spawnSync("gcc", ["-std=c99", "-O2", "-fno-asynchronous-unwind-tables", ...flags, "-c", src, "-o", obj], {
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return obj;
}

/** binutils' size -A: every section with its size (the reference the parser is checked against). */
function sizeA(obj: string): Map<string, number> {
  const r = spawnSync("size", ["-A", obj], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  const m = new Map<string, number>();
  for (const line of r.stdout.split("\n")) {
    const f = /^(\S+)\s+(\d+)\s+\d+$/.exec(line.trim());
    if (f) m.set(f[1] as string, Number(f[2]));
  }
  return m;
}

describe("ELF section sizes", () => {
  const code = [
    "const unsigned char table[1000] = {1, 2, 3};", // .rodata: 1000
    "unsigned char state[4096] = {7};", // .data: 4096
    "unsigned char scratch[3000];", // .bss: 3000 (gcc >= 10 defaults to -fno-common)
    "int f(int x) { return table[x] + state[x] + scratch[x]; }",
  ].join("\n");

  it("sums text, rodata, data and bss as size -A lists them", () => {
    const obj = compile("sizes", code);
    const s = elfSectionSizes(readFileSync(obj));
    const ref = sizeA(obj);
    expect(s.rodataBytes).toBe(1000);
    expect(s.dataBytes).toBe(4096);
    expect(s.bssBytes).toBe(3000);
    expect(s.textBytes).toBe([...ref].filter(([n]) => n.startsWith(".text")).reduce((a, [, v]) => a + v, 0));
    expect(s.textBytes).toBeGreaterThan(0);
    expect(s.unwindBytes).toBe(0);
  });

  it("counts COMMON symbols (-fcommon) as bss and .eh_frame apart", () => {
    const obj = compile("common", code, ["-fcommon", "-fasynchronous-unwind-tables"]);
    const s = elfSectionSizes(readFileSync(obj));
    expect(s.bssBytes).toBe(3000);
    expect(s.unwindBytes).toBe(sizeA(obj).get(".eh_frame"));
    expect(s.unwindBytes).toBeGreaterThan(0);
  });

  it("refuses what is not ELF, or whose headers point outside the file", () => {
    expect(() => elfSectionSizes(Buffer.from("#!/bin/sh\necho not an object\n".repeat(4)))).toThrow(ElfError);
    const obj = readFileSync(compile("cut", code));
    expect(() => elfSectionSizes(obj.subarray(0, 200))).toThrow(ElfError);
  });

  it("classifies by flags", () => {
    expect(sectionKind(".text.hot", 1, 0x6)).toBe("textBytes");
    expect(sectionKind(".tbss", 8, 0x403)).toBe("bssBytes");
    expect(sectionKind(".data.rel.ro", 1, 0x3)).toBe("dataBytes");
    expect(sectionKind(".rodata.cst16", 1, 0x12)).toBe("rodataBytes");
    expect(sectionKind(".comment", 1, 0x30)).toBeNull();
  });

  it("pulls support objects as a static link from an archive does", () => {
    const main = compile("main", "int helper(int); int api(int x) { return helper(x); }");
    const helper = compile("helper", "int deep(int); int helper(int x) { return deep(x) + 1; }");
    const deep = compile("deep", "int deep(int x) { return x * 3; }");
    const unused = compile("unused", "int unused(int x) { return x; } const char big[5000] = {1};");
    const syms = [main, helper, deep, unused].map((o) => elfSymbols(readFileSync(o)));
    expect(syms[0]?.undefined).toContain("helper");
    expect(pulledObjects(syms, [0])).toEqual([0, 1, 2]);
    const spec = { sources: ["main.c"], support: ["helper.c", "deep.c", "unused.c", "randombytes.c"] };
    const rb = compile("randombytes", "int randombytes(unsigned char *x, unsigned long long n) { return x[n]; }");
    const r = instanceSections(spec, [main, helper, deep, unused, rb]);
    if (!("sections" in r)) throw new Error(r.error);
    expect(r.sections.objects).toEqual(["main.o", "helper.o", "deep.o"]);
    expect(r.sections.rodataBytes).toBe(0);
  });
});

describe("per-input distribution", () => {
  it("min, median, max and the first input that gave the max", () => {
    expect(memoryDistribution([5, 9, 7, 9])).toEqual({ min: 5, median: 8, max: 9, maxInput: 1, values: [5, 9, 7, 9] });
    expect(memoryDistribution([3])).toEqual({ min: 3, median: 3, max: 3, maxInput: 0, values: [3] });
  });
});
