// The seed-page parser and the golden cells it produced (fixtures/seed-cells/expected-cells.json).
// Nothing here reads outside the repository: the parser is exercised on inline snippets copied from the seeds
// and on pages rendered back from the committed golden file.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ExpectedCells, ExpectedPage } from "./extract-cells.ts";
import { REPO_ROOT, toExpectedPage } from "./extract-cells.ts";
import {
  BASIC_KEYS,
  detectRendering,
  normaliseCell,
  parseBasicLines,
  parseSeedPage,
  SeedParseError,
  tableOf,
} from "./parse-seeds.ts";
import { renderScrapedMarkdown, renderTab } from "./render-seed-text.ts";

const expectedPath = join(REPO_ROOT, "fixtures/seed-cells/expected-cells.json");
const golden = JSON.parse(readFileSync(expectedPath, "utf8")) as ExpectedCells;

function page(id: string): ExpectedPage {
  const p = golden.pages[id];
  if (!p) throw new Error(`no page ${id} in expected-cells.json`);
  return p;
}

function table(id: string, heading: string): { headers: string[]; rows: string[][] } {
  const s = page(id).sections.find((x) => x.heading === heading);
  const t = s?.tables[0];
  if (!t) throw new Error(`no table in ${id} / ${heading}`);
  return t;
}

// A one-instance page in the tab rendering; every line is copied from seed 001's tab twin or from 000/002/003/004.
const TAB_PAGE = [
  "Performance measurements › arm_1 › kem-21 · system: x86_1 · arm_1",
  "",
  "kem-21 MAMBA-Viper — performance on AArch64 (system arm_1)",
  "",
  "Independent measurement following the structure of the NICCS ARM self-assessment guide, §3.5 (1)–(7). Not a submitter self-assessment.",
  "",
  "1. Basic information",
  "",
  "Category: public-key algorithm; function: key encapsulation",
  "Algorithm: MAMBA-Viper",
  "Implementation versions measured: reference",
  "Parameter sets: MAMBA-Viper-128",
  "Security evaluation: kem-21 report",
  "Measurement method: arm_1 method",
  "Submission: NICCS page",
  "",
  "2. Assessment environment",
  "",
  "item\tvalue",
  "processor\tQualcomm Oryon (CPU 2, one core)",
  "machine\tASUS Vivobook S 15",
  "clock\tfixed 2.71 GHz (governor performance, minimum = maximum), boost off, SMT none",
  "memory\t30562 MiB",
  "OS / kernel\tUbuntu 26.04.1 LTS / 7.0.0-34-generic",
  "compiler / build tool\tgcc (Ubuntu 15.2.0-16ubuntu1) 15.2.0 / cmake version 4.2.3",
  "campaign start / end (UTC)\t2026-09-28T15:05:46 / 2026-09-29T08:43:52",
  "",
  "3. Functional testing (KAT)",
  "",
  "Each library was checked against the submitted KAT vectors (SHA-256 manifest kem-21/kat.sha256 in the harness) before timing.",
  "",
  "instance\tbuild flags\tKAT",
  "`MAMBA-Viper-128`\tguide\tPASS",
  "",
  "4. Performance",
  "",
  "instance\toperation\tmean cycles\tmean time\tops/s\tmedian trial\tn (trials × iters)",
  "`MAMBA-Viper-128`\tkeygen\t174.9 k\t64.9 µs\t1.54e+04\t64.9 µs\t41380 (5 × 8276)",
  "`MAMBA-Viper-128`\tenc\t271.4 k\t101 µs\t9.93e+03\t101 µs\t30890 (5 × 6178)",
  "`MAMBA-Viper-128`\tdec\t319.1 k\t118 µs\t8.45e+03\t118 µs\t24595 (5 × 4919)",
  "",
  "5. Resource consumption",
  "",
  "Static memory is approximated by the library's loadable ELF segments; peak memory is the process high-water mark (VmHWM) including the benchmark driver and libc, so both are upper-bound proxies rather than isolated algorithm memory.",
  "",
  "instance\toperation\tstatic: ELF image (bytes)\tbaseline RSS\tpeak RSS",
  "`MAMBA-Viper-128`\tkeygen\t36344\t1428 KiB\t1504 KiB",
  "`MAMBA-Viper-128`\tenc\t36344\t1440 KiB\t1504 KiB",
  "`MAMBA-Viper-128`\tdec\t36344\t1444 KiB\t1508 KiB",
  "",
  "6. Transmission and storage overhead",
  "",
  "External public-key, ciphertext and signature sizes follow the curated performance/external_sizes.csv catalog; secret-key and shared-secret lengths remain API figures. See the size audit for disagreements.",
  "",
  "instance\tpublic key\tsecret key\tciphertext\tshared secret",
  "`MAMBA-Viper-128`\t608\t1424\t736\t16",
  "",
  "Symmetric primitives",
  "",
  "Survey verdict: ICCS-only — shake* names are shims over pseudoXOF",
  "",
  "Share of each operation spent in the ICCS placeholder hash functions and in the ICCS DRNG (reference build, measured in the same run with link-time wrappers):",
  "",
  "instance\toperation\tpseudohash/XOF/sm3\tDRNG\tcalls per operation",
  "`MAMBA-Viper-128`\tkeygen\t55%\t7.3%\tdrng 3, pseudoXOF 8",
  "`MAMBA-Viper-128`\tenc\t59%\t1.6%\tdrng 1, pseudoXOF 14",
  "`MAMBA-Viper-128`\tdec\t57%\t0.0%\tpseudoXOF 12",
  "",
  "7. Raw evidence index",
  "",
  "Paths are relative to performance/data/arm_1/ in the harness; each JSON file records its commands, environment and trials.",
  "",
  "instance\titem\tfile",
  "`MAMBA-Viper-128`\tKAT log (sha256 `3d04b7000fb8fbd8…`)\t`kat/kem-21/MAMBA-Viper-128.log`",
  "`MAMBA-Viper-128`\ttiming dec\t`records/kem-21/MAMBA-Viper-128__dec.json`",
  "`MAMBA-Viper-128`\ttiming enc\t`records/kem-21/MAMBA-Viper-128__enc.json`",
  "`MAMBA-Viper-128`\ttiming keygen\t`records/kem-21/MAMBA-Viper-128__keygen.json`",
  "`MAMBA-Viper-128`\thash profile dec\t`profile/kem-21/MAMBA-Viper-128__dec.json`",
  "`MAMBA-Viper-128`\thash profile enc\t`profile/kem-21/MAMBA-Viper-128__enc.json`",
  "`MAMBA-Viper-128`\thash profile keygen\t`profile/kem-21/MAMBA-Viper-128__keygen.json`",
  "",
  "Scripts: performance/campaign.py, performance/ngcc_perf.c, performance/hashprof/ in the harness.",
].join("\n");

// The same page as seed 001 prints it (lines copied from 001; the parameter-set list cut to one instance).
const MARKDOWN_PAGE = [
  "ngcc.dev",
  "Performance measurements › arm_1 › kem-21 · system: x86_1 · arm_1",
  "kem-21 MAMBA-Viper — performance on AArch64 (system arm_1)",
  "Independent measurement following the structure of the NICCS ARM self-assessment guide, §3.5 (1)–(7). Not a submitter self-assessment.",
  "1. Basic information",
  "- Category: public-key algorithm; function: key encapsulation",
  "- Algorithm: MAMBA-Viper",
  "- Implementation versions measured: reference",
  "- Parameter sets:",
  "MAMBA-Viper-128 - Security evaluation: kem-21 report",
  "- Measurement method: arm_1 method",
  "- Submission: NICCS page",
  "2. Assessment environment",
  "| item | value |",
  "|---|---|",
  "| processor | Qualcomm Oryon (CPU 2, one core) |",
  "| machine | ASUS Vivobook S 15 |",
  "| clock | fixed 2.71 GHz (governor performance, minimum = maximum), boost off, SMT none |",
  "| memory | 30562 MiB |",
  "| OS / kernel | Ubuntu 26.04.1 LTS / 7.0.0-34-generic |",
  "| compiler / build tool | gcc (Ubuntu 15.2.0-16ubuntu1) 15.2.0 / cmake version 4.2.3 |",
  "| campaign start / end (UTC) | 2026-09-28T15:05:46 / 2026-09-29T08:43:52 |",
  "3. Functional testing (KAT)",
  "Each library was checked against the submitted KAT vectors (SHA-256 manifest kem-21/kat.sha256 in the harness) before timing.",
  "| instance | build flags | KAT |",
  "|---|---|---|",
  "MAMBA-Viper-128 |",
  "guide | PASS |",
  "4. Performance",
  "| instance | operation | mean cycles | mean time | ops/s | median trial | n (trials × iters) |",
  "|---|---|---|---|---|---|---|",
  "MAMBA-Viper-128 |",
  "keygen | 174.9 k | 64.9 µs | 1.54e+04 | 64.9 µs | 41380 (5 × 8276) |",
  "MAMBA-Viper-128 |",
  "enc | 271.4 k | 101 µs | 9.93e+03 | 101 µs | 30890 (5 × 6178) |",
  "MAMBA-Viper-128 |",
  "dec | 319.1 k | 118 µs | 8.45e+03 | 118 µs | 24595 (5 × 4919) |",
  "5. Resource consumption",
  "Static memory is approximated by the library's loadable ELF segments; peak memory is the process high-water mark (VmHWM) including the benchmark driver and libc, so both are upper-bound proxies rather than isolated algorithm memory.",
  "| instance | operation | static: ELF image (bytes) | baseline RSS | peak RSS |",
  "|---|---|---|---|---|",
  "MAMBA-Viper-128 |",
  "keygen | 36344 | 1428 KiB | 1504 KiB |",
  "MAMBA-Viper-128 |",
  "enc | 36344 | 1440 KiB | 1504 KiB |",
  "MAMBA-Viper-128 |",
  "dec | 36344 | 1444 KiB | 1508 KiB |",
  "6. Transmission and storage overhead",
  "External public-key, ciphertext and signature sizes follow the curated performance/external_sizes.csv catalog; secret-key and shared-secret lengths remain API figures. See the size audit for disagreements.",
  "| instance | public key | secret key | ciphertext | shared secret |",
  "|---|---|---|---|---|",
  "MAMBA-Viper-128 |",
  "608 | 1424 | 736 | 16 |",
  "Symmetric primitives",
  "Survey verdict: ICCS-only — shake* names are shims over pseudoXOF",
  "Share of each operation spent in the ICCS placeholder hash functions and in the ICCS DRNG (reference build, measured in the same run with link-time wrappers):",
  "| instance | operation | pseudohash/XOF/sm3 | DRNG | calls per operation |",
  "|---|---|---|---|---|",
  "MAMBA-Viper-128 |",
  "keygen | 55% | 7.3% | drng 3, pseudoXOF 8 |",
  "MAMBA-Viper-128 |",
  "enc | 59% | 1.6% | drng 1, pseudoXOF 14 |",
  "MAMBA-Viper-128 |",
  "dec | 57% | 0.0% | pseudoXOF 12 |",
  "7. Raw evidence index",
  "Paths are relative to performance/data/arm_1/ in the harness; each JSON file records its commands, environment and trials.",
  "| instance | item | file |",
  "|---|---|---|",
  "MAMBA-Viper-128 |",
  "KAT log (sha256 3d04b7000fb8fbd8…) |",
  "kat/kem-21/MAMBA-Viper-128.log |",
  "MAMBA-Viper-128 |",
  "timing dec | records/kem-21/MAMBA-Viper-128__dec.json |",
  "MAMBA-Viper-128 |",
  "timing enc | records/kem-21/MAMBA-Viper-128__enc.json |",
  "MAMBA-Viper-128 |",
  "timing keygen | records/kem-21/MAMBA-Viper-128__keygen.json |",
  "MAMBA-Viper-128 |",
  "hash profile dec | profile/kem-21/MAMBA-Viper-128__dec.json |",
  "MAMBA-Viper-128 |",
  "hash profile enc | profile/kem-21/MAMBA-Viper-128__enc.json |",
  "MAMBA-Viper-128 |",
  "hash profile keygen | profile/kem-21/MAMBA-Viper-128__keygen.json |",
  "Scripts: performance/campaign.py, performance/ngcc_perf.c, performance/hashprof/ in the harness.",
].join("\n");

describe("seed parser on inline snippets", () => {
  it("tells the two renderings apart", () => {
    expect(detectRendering(TAB_PAGE)).toBe("tab");
    expect(detectRendering(MARKDOWN_PAGE)).toBe("markdown");
  });

  it("normalises cells: backticks out, whitespace collapsed, text otherwise as printed", () => {
    expect(normaliseCell("`MAMBA-Frost-128`")).toBe("MAMBA-Frost-128");
    expect(normaliseCell("KAT log (sha256 `a0181e4c74257514…`)")).toBe("KAT log (sha256 a0181e4c74257514…)");
    expect(normaliseCell("  174.9  k ")).toBe("174.9 k");
    expect(normaliseCell("41380 (5 × 8276)")).toBe("41380 (5 × 8276)");
  });

  it("reads header, title and section 1 of both renderings alike", () => {
    const tab = parseSeedPage(TAB_PAGE, "tab");
    const md = parseSeedPage(MARKDOWN_PAGE, "md");
    expect(tab.header).toEqual({
      line: "Performance measurements › arm_1 › kem-21 · system: x86_1 · arm_1",
      system: "arm_1",
      algorithmId: "kem-21",
      systems: ["x86_1", "arm_1"],
    });
    expect(tab.title).toMatchObject({ id: "kem-21", name: "MAMBA-Viper", arch: "AArch64", system: "arm_1" });
    expect(tab.basic).toMatchObject({
      category: "public-key algorithm",
      function: "key encapsulation",
      kind: "kem",
      algorithm: "MAMBA-Viper",
      implementations: ["reference"],
      parameterSets: ["MAMBA-Viper-128"],
      links: { securityEvaluation: "kem-21 report", measurementMethod: "arm_1 method", submission: "NICCS page" },
    });
    expect(md.preamble).toEqual(["ngcc.dev"]);
    expect(tab.preamble).toEqual([]);
    expect(md.header).toEqual(tab.header);
    expect(md.title).toEqual(tab.title);
    expect(md.basic).toEqual(tab.basic);
  });

  it("recovers the same cells and notes from both renderings", () => {
    const tab = parseSeedPage(TAB_PAGE, "tab");
    const md = parseSeedPage(MARKDOWN_PAGE, "md");
    expect(toExpectedPage(md, "x").sections).toEqual(toExpectedPage(tab, "x").sections);
    expect(tableOf(md, "Performance").rows[0]).toEqual([
      "MAMBA-Viper-128",
      "keygen",
      "174.9 k",
      "64.9 µs",
      "1.54e+04",
      "64.9 µs",
      "41380 (5 × 8276)",
    ]);
    expect(tableOf(tab, "Raw evidence index").rows[0]).toEqual([
      "MAMBA-Viper-128",
      "KAT log (sha256 3d04b7000fb8fbd8…)",
      "kat/kem-21/MAMBA-Viper-128.log",
    ]);
    expect(tab.footer).toBe(md.footer);
  });

  it("splits a wrapped parameter-set bullet glued to the next bullet (seed 001)", () => {
    const basic = parseBasicLines(
      [
        "- Category: public-key algorithm; function: key encapsulation",
        "- Algorithm: MAMBA-Viper",
        "- Implementation versions measured: reference",
        "- Parameter sets:",
        "MAMBA-Viper-128,MAMBA-Viper-192,MAMBA-Viper-256,MAMBA-Viper-384,MAMBA-Viper-512 - Security evaluation: kem-21 report",
        "- Measurement method: arm_1 method",
        "- Submission: NICCS page",
      ],
      "markdown",
    );
    expect(basic.parameterSets).toEqual([
      "MAMBA-Viper-128",
      "MAMBA-Viper-192",
      "MAMBA-Viper-256",
      "MAMBA-Viper-384",
      "MAMBA-Viper-512",
    ]);
    expect(basic.items.map((i) => i.key)).toEqual([...BASIC_KEYS]);
    expect(basic.items[3]?.value).toBe(
      "MAMBA-Viper-128, MAMBA-Viper-192, MAMBA-Viper-256, MAMBA-Viper-384, MAMBA-Viper-512",
    );
    expect(basic.links.securityEvaluation).toBe("kem-21 report");
    const tab = parseBasicLines(
      [
        "Category: public-key algorithm; function: key exchange",
        "Algorithm: MAMBA-NIKE",
        "Implementation versions measured: reference",
        "Parameter sets: MAMBA-NIKE-128, MAMBA-NIKE-192, MAMBA-NIKE-256, MAMBA-NIKE-384, MAMBA-NIKE-512",
        "Security evaluation: kex-06 report",
        "Measurement method: arm_1 method",
        "Submission: NICCS page",
      ],
      "tab",
    );
    expect(tab.kind).toBe("kex");
    expect(tab.parameterSets).toHaveLength(5);
    expect(() => parseBasicLines(["Algorithm: X"], "tab")).toThrow(SeedParseError);
  });

  it("joins a cell broken in the middle of its text", () => {
    const broken = MARKDOWN_PAGE.replace(
      "KAT log (sha256 3d04b7000fb8fbd8…) |",
      "KAT log\n(sha256 3d04b7000fb8fbd8…) |",
    );
    expect(tableOf(parseSeedPage(broken, "md"), "Raw evidence index").rows[0]?.[1]).toBe(
      "KAT log (sha256 3d04b7000fb8fbd8…)",
    );
  });

  it("fails loudly on a missing row", () => {
    const short = TAB_PAGE.replace("`MAMBA-Viper-128`\tenc\t271.4 k\t101 µs\t9.93e+03\t101 µs\t30890 (5 × 6178)\n", "");
    expect(() => parseSeedPage(short, "short")).toThrow(SeedParseError);
    expect(() => parseSeedPage(short, "short")).toThrow(/Performance: 2 rows, expected 3/);
  });

  it("fails loudly on a row with a missing cell", () => {
    const bad = MARKDOWN_PAGE.replace("enc | 271.4 k | 101 µs |", "enc | 271.4 k |");
    expect(() => parseSeedPage(bad, "bad")).toThrow(SeedParseError);
  });

  it("fails loudly on a cell of the wrong form", () => {
    const bad = TAB_PAGE.replace("174.9 k\t64.9 µs", "174.9k\t64.9 µs");
    expect(() => parseSeedPage(bad, "bad")).toThrow(/mean cycles.*174\.9k/);
  });

  it("fails loudly on a missing section", () => {
    const bad = TAB_PAGE.replace("5. Resource consumption", "Resource consumption");
    expect(() => parseSeedPage(bad, "bad")).toThrow(SeedParseError);
  });
});

describe("expected-cells.json", () => {
  it("holds the five seed pages", () => {
    expect(Object.keys(golden.pages).sort()).toEqual(["kem-02", "kem-20", "kem-21", "kem-22", "kex-06"]);
    expect(page("kem-21").source.rendering).toBe("markdown");
    for (const id of ["kem-20", "kex-06", "kem-02", "kem-22"]) expect(page(id).source.rendering).toBe("tab");
  });

  it("has the sections of every page in the seeds' order, one table each", () => {
    for (const p of Object.values(golden.pages)) {
      expect(p.sections.map((s) => s.heading)).toEqual([
        "2. Assessment environment",
        "3. Functional testing (KAT)",
        "4. Performance",
        "5. Resource consumption",
        "6. Transmission and storage overhead",
        "Symmetric primitives",
        "7. Raw evidence index",
      ]);
      for (const s of p.sections) {
        expect(s.tables).toHaveLength(1);
        for (const t of s.tables) for (const r of t.rows) expect(r).toHaveLength(t.headers.length);
      }
    }
  });

  it("holds cells in the normal form (no backticks, single spaces, trimmed)", () => {
    for (const p of Object.values(golden.pages))
      for (const s of p.sections)
        for (const t of s.tables)
          for (const c of [...t.headers, ...t.rows.flat()]) {
            expect(c).toBe(normaliseCell(c));
            expect(c).not.toContain("`");
          }
  });

  it("has rows for every instance × operation", () => {
    expect(table("kem-20", "4. Performance").rows).toHaveLength(30);
    expect(table("kem-20", "5. Resource consumption").rows).toHaveLength(30);
    expect(table("kem-20", "Symmetric primitives").rows).toHaveLength(30);
    expect(table("kem-20", "7. Raw evidence index").rows).toHaveLength(70);
    expect(table("kem-21", "4. Performance").rows).toHaveLength(15);
    expect(table("kem-02", "4. Performance").rows).toHaveLength(15);
    expect(table("kem-22", "4. Performance").rows).toHaveLength(9);
    const kex = table("kex-06", "4. Performance");
    expect(kex.rows).toHaveLength(30);
    const ops = ["exchange", "init_a", "init_b", "pass1", "derive_a", "derive_b"];
    expect(kex.rows.map((r) => r[1])).toEqual(Array.from({ length: 5 }, () => ops).flat());
    expect(table("kex-06", "Symmetric primitives").rows.map((r) => r[1])).toEqual(Array(5).fill("exchange"));
    expect(table("kex-06", "7. Raw evidence index").rows).toHaveLength(40);
  });

  it("keeps the KEX bandwidth table with its 8 columns and notes", () => {
    const bw = table("kex-06", "6. Transmission and storage overhead");
    expect(bw.headers).toHaveLength(8);
    expect(bw.headers[5]).toBe("bandwidth (bytes)");
    expect(bw.rows[0]).toEqual(["MAMBA-NIKE-128", "1", "1568", "1568", "0 / 1184", "2752", "3232", "32"]);
    const notes = page("kex-06").sections.find((s) => s.number === 6)?.notes ?? [];
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^Bandwidth counts all specified protocol messages/);
  });

  it("keeps the notes verbatim", () => {
    const sym = (id: string): string[] =>
      page(id).sections.find((s) => s.heading === "Symmetric primitives")?.notes ?? [];
    expect(sym("kem-20")[0]).toBe(
      "Survey verdict: mixed — all SHAKE calls are pseudoXOF shims; matrix A via own AES-128 with -D_AES128_FOR_A_",
    );
    expect(sym("kem-02")[0]).toBe("Survey verdict: ICCS-only");
    expect(page("kem-20").sections[1]?.notes).toEqual([
      "Each library was checked against the submitted KAT vectors (SHA-256 manifest kem-20/kat.sha256 in the harness) before timing.",
    ]);
    for (const p of Object.values(golden.pages))
      expect(p.sections[6]?.notes[0]).toBe(
        "Paths are relative to performance/data/arm_1/ in the harness; each JSON file records its commands, environment and trials.",
      );
  });

  it("reads the KAT-log cell alike from the markdown page (kem-21) and the tab pages", () => {
    const katCells = (id: string): string[] =>
      table(id, "7. Raw evidence index")
        .rows.map((r) => r[1] ?? "")
        .filter((c) => c.startsWith("KAT log"));
    expect(katCells("kem-21")[0]).toBe("KAT log (sha256 3d04b7000fb8fbd8…)");
    expect(katCells("kem-20")[0]).toBe("KAT log (sha256 a0181e4c74257514…)");
    for (const id of Object.keys(golden.pages))
      for (const c of katCells(id)) expect(c).toMatch(/^KAT log \(sha256 [0-9a-f]{16}…\)$/);
  });

  it("round-trips: every page rendered back in either rendering parses to the same cells", () => {
    for (const [id, p] of Object.entries(golden.pages)) {
      for (const [rendering, text] of [
        ["tab", renderTab(p)],
        ["markdown", renderScrapedMarkdown(p)],
      ] as const) {
        const again = toExpectedPage(parseSeedPage(text, `${id}.${rendering}`), p.source.file);
        expect(again.sections, `${id} via ${rendering}`).toEqual(p.sections);
        expect(again.basicInformation, `${id} via ${rendering}`).toEqual(p.basicInformation);
        expect(again.header).toEqual(p.header);
        expect(again.title).toEqual(p.title);
        expect(again.intro).toBe(p.intro);
        expect(again.footer).toBe(p.footer);
      }
    }
  });
});
