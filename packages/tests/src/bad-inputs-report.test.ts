// The bad-input corpus of sizes and report (issue 14, part C): api.h sizes out of plausibility, bad size catalogs and
// bad report inputs, each run through the built CLI in a folder of its own (bad-input-tools.ts) with its expected
// exit code and message. An implausible api.h is the submission's fault, so `sizes` records it as the instance's
// failure in the size audit and exits 1, the header, the macro and the limit on stderr (docs/sizes.md); a bad
// catalog or report input is the user's, exit 2 with the file and the place, nothing written.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SizeAuditRecord } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { type BadInputCase, corpusRoot, isDir, runBadInput } from "./bad-input-tools.ts";
import { catalogFile, copySubmission, iccsDir, submissionsDir } from "./fixture-tools.ts";

const root = corpusRoot("report");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const LIMIT = 64 * 1024 * 1024;

/** A campaign in dir measuring one instance of a fixture submission copied into dir (or given), with a catalog. */
function campaign(dir: string, o: { alg: string; instance: string; source?: string; catalog?: string | null }): string {
  const source = o.source ?? copySubmission(o.alg, dir).dir;
  const catalog = o.catalog === undefined ? catalogFile : o.catalog;
  const file = join(dir, "campaign.yaml");
  writeFileSync(
    file,
    [
      "name: bad-report",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      ...(catalog ? [`sizes: { catalog: ${JSON.stringify(catalog)} }`] : []),
      "algorithms:",
      `  - { id: ${o.alg}, instances: [${o.instance}], source: { submission: ${JSON.stringify(source)} } }`,
      "",
    ].join("\n"),
  );
  return file;
}

/** Replaces the value of one #define in an instance's api.h of the submission copied into dir. */
function editApi(dir: string, alg: string, instance: string, macro: string, value: string): void {
  const api = join(dir, alg, "Reference_Implementation", instance, "api.h");
  const text = readFileSync(api, "utf8");
  const edited = text.replace(new RegExp(`#define ${macro} .*`), `#define ${macro} ${value}`);
  if (edited === text) throw new Error(`no #define ${macro} in ${api}`);
  writeFileSync(api, edited);
}

/** A case where an api.h macro gets a value that is not a plausible size: the instance's failure, exit 1. */
function apiCase(
  id: string,
  alg: string,
  instance: string,
  macro: string,
  value: string,
  message: RegExp,
  reason = "error",
): BadInputCase {
  return {
    id,
    setup: (dir) => {
      copySubmission(alg, dir);
      editApi(dir, alg, instance, macro, value);
      campaign(dir, { alg, instance, source: join(dir, alg) });
    },
    argv: (dir) => ["sizes", join(dir, "campaign.yaml"), "--out", join(dir, "out")],
    exit: 1,
    message,
    check: (r, dir) => {
      // The audit is written, the instance holds the failure; the run says it failed.
      expect(r.stderr).toMatch(/sizes: 0 done, 1 failed/);
      const rec = JSON.parse(
        readFileSync(join(dir, "out/data/test_1/sizes", alg, "guide.json"), "utf8"),
      ) as SizeAuditRecord;
      const i = rec.instances.find((x) => x.instance === instance);
      expect(i?.failure?.reason).toBe(reason);
      expect(i?.api).toBeUndefined();
      expect(i?.failure?.message).toMatch(message);
    },
    timeoutMs: 180_000,
  };
}

const over = (macro: string, value: string) =>
  new RegExp(
    `Puffin-128/api\\.h: ${macro} is ${value}, over the plausibility limit; expected a size in bytes from 1 to ${LIMIT} \\(64 MiB`,
  );

const API_CASES: BadInputCase[] = [
  apiCase(
    "api-pk-4e12",
    "kem-90",
    "Puffin-128",
    "CRYPTO_PUBLICKEYBYTES",
    "4000000000000ull",
    over("CRYPTO_PUBLICKEYBYTES", "4000000000000"),
  ),
  apiCase(
    "api-ct-limit-plus-one",
    "kem-90",
    "Puffin-128",
    "CRYPTO_CIPHERTEXTBYTES",
    "(64 * 1024 * 1024 + 1)",
    over("CRYPTO_CIPHERTEXTBYTES", String(LIMIT + 1)),
  ),
  apiCase(
    "api-sk-negative",
    "kem-90",
    "Puffin-128",
    "CRYPTO_SECRETKEYBYTES",
    "(-1632)",
    /Puffin-128\/api\.h: CRYPTO_SECRETKEYBYTES is -1632, negative; expected a size in bytes from 1 to 67108864/,
  ),
  apiCase(
    "api-ss-zero",
    "kem-90",
    "Puffin-128",
    "CRYPTO_BYTES",
    "0",
    /Puffin-128\/api\.h: CRYPTO_BYTES is 0; expected a size in bytes from 1 to 67108864/,
  ),
  apiCase(
    "api-pk-fraction",
    "kem-90",
    "Puffin-128",
    "CRYPTO_PUBLICKEYBYTES",
    "800.5",
    /Puffin-128\/api\.h: CRYPTO_PUBLICKEYBYTES is 800\.5, not a whole number; expected a size in bytes/,
  ),
  apiCase(
    "api-pk-wraps",
    "kem-90",
    "Puffin-128",
    "CRYPTO_PUBLICKEYBYTES",
    "((unsigned long long)-1)",
    /Puffin-128\/api\.h: CRYPTO_PUBLICKEYBYTES is 18446744073709552000, over the plausibility limit/,
  ),
  apiCase(
    "api-pk-string",
    "kem-90",
    "Puffin-128",
    "CRYPTO_PUBLICKEYBYTES",
    '"800"',
    /kem-90\/Puffin-128: kem-90\/Reference_Implementation\/Puffin-128\/api\.h: the size macro CRYPTO_PUBLICKEYBYTES does not compile as an integer constant: <ngcc-perf>\/native\/printparams\/ngcc_printparams\.c:\d+:\d+: error: /,
    "compile-error",
  ),
  apiCase(
    "api-sig-huge",
    "sig-91",
    "Quill-128",
    "CRYPTO_BYTES",
    "1000000000",
    /Quill-128\/api\.h: CRYPTO_BYTES is 1000000000, over the plausibility limit; expected a size in bytes from 1 to 67108864/,
  ),
  apiCase(
    "api-kex-state-huge",
    "kex-92",
    "Heron-128",
    "CRYPTO_KEX_STATEBYTES_A",
    "(1ull << 40)",
    /Heron-128\/api\.h: CRYPTO_KEX_STATEBYTES_A is 1099511627776, over the plausibility limit; expected a size in bytes from 0 to 67108864/,
  ),
];

/** A catalog in dir: the fixture catalog's header, then `body` (rows, or anything). */
function catalogCase(
  id: string,
  body: string | Buffer,
  message: RegExp,
  extra: Partial<BadInputCase> = {},
): BadInputCase {
  return {
    id,
    setup: (dir) => {
      const header = readFileSync(catalogFile, "utf8").split("\n")[0];
      const cat = join(dir, "sizes.csv");
      writeFileSync(cat, typeof body === "string" ? `${header}\n${body}\n` : body);
      // The catalog is checked before anything is built: the fixture submission itself is named, never touched.
      campaign(dir, { alg: "kem-90", instance: "Puffin-128", source: join(submissionsDir, "kem-90"), catalog: cat });
    },
    argv: (dir) => ["sizes", join(dir, "campaign.yaml"), "--out", join(dir, "out")],
    message,
    check: (_r, dir) => {
      expect(isDir(join(dir, "out/data/test_1/sizes"))).toBe(false);
    },
    ...extra,
  };
}

const ROW = (pk: string, ct = "832") => `kem-90,Puffin-128,kem,${pk},${ct},,,,Puffin doc,`;

const CATALOG_CASES: BadInputCase[] = [
  catalogCase(
    "catalog-over-limit",
    ROW("4000000000000"),
    /sizes\.csv:2: column public_key: 4000000000000 bytes is over the plausibility limit of 67108864 \(64 MiB\)/,
  ),
  catalogCase(
    "catalog-negative",
    ROW("-800"),
    /sizes\.csv:2: column public_key: expected a size in bytes \(a whole number\) or an empty cell, found "-800"/,
  ),
  catalogCase(
    "catalog-20mb-cell",
    ROW("800", "9".repeat(10) + "x".repeat(20 * 1024 * 1024)),
    /sizes\.csv:2: column ciphertext: expected a size in bytes \(a whole number\) or an empty cell, found "9{10}x+…"/,
  ),
  catalogCase(
    "catalog-unclosed-quote",
    `${ROW("800")}\nkem-90,Puffin-192,kem,"1184,1088,,,,Puffin doc,`,
    /sizes\.csv:3: not valid CSV \(RFC 4180\)/,
  ),
  catalogCase(
    "catalog-bad-category",
    "kem-90,Puffin-128,kex,800,832,,,,Puffin doc,",
    /sizes\.csv:2: column category: expected an empty cell in a kex row|sizes\.csv:2: column ciphertext: expected an empty cell in a kex row/,
  ),
  catalogCase(
    "catalog-binary",
    Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a, 0x0a, 0x00, 0x01, 0x02, 0x22, 0x0a]),
    /sizes\.csv:2: not valid CSV \(RFC 4180\): .*value is "\\u0000\\u0001\\u0002"/,
    {
      check: (r) => {
        // The bytes are named as escapes, never written to the terminal as they are.
        expect(r.stderr).not.toContain("\u001b");
        expect(r.stderr).not.toContain("\u0000");
      },
    },
  ),
  catalogCase("catalog-bidi-column", "", /sizes\.csv:1: unknown column "note\\u202Eeton" in the header/, {
    setup: (dir) => {
      const header = readFileSync(catalogFile, "utf8").split("\n")[0] as string;
      const cat = join(dir, "sizes.csv");
      writeFileSync(cat, `${header.replace(/,note$/, ",note\u202Eeton")}\n`);
      campaign(dir, { alg: "kem-90", instance: "Puffin-128", source: join(submissionsDir, "kem-90"), catalog: cat });
    },
    check: (r) => expect(r.stderr).not.toContain("\u202E"),
  }),
  catalogCase(
    "catalog-too-many-errors",
    Array.from({ length: 200 }, (_, i) => `kem-90,Puffin-${i},kem,${"z".repeat(500)},832,,,,doc,`).join("\n"),
    /sizes\.csv:2: column public_key: expected a size in bytes[\s\S]*\(stopped after 20 errors\)/,
  ),
];

const REPORT_CASES: BadInputCase[] = [
  {
    id: "report-no-store",
    argv: (dir) => ["report", join(dir, "nowhere")],
    message: /nowhere/,
  },
  {
    id: "report-not-a-store",
    setup: (dir) => writeFileSync(join(dir, "notes.txt"), "not a store\n"),
    argv: (dir) => ["report", dir, "--out", join(dir, "out")],
    message: /store|data/,
    check: (_r, dir) => expect(isDir(join(dir, "out/site"))).toBe(false),
  },
  {
    id: "report-bad-format",
    argv: (dir) => ["report", dir, "--format", "pdf"],
    message: /--format takes a comma-separated list of md, html, not "pdf"/,
  },
  {
    id: "report-bidi-format",
    argv: (dir) => ["report", dir, "--format", "md\u202E,lmth"],
    message: /--format takes a comma-separated list of md, html, not "md\\u202E,lmth"/,
    check: (r) => expect(r.stderr).not.toContain("\u202E"),
  },
];

describe("bad inputs: api.h sizes out of plausibility (sizes records the instance's failure, exit 1)", () => {
  it.concurrent.each(API_CASES.map((c) => [c.id, c] as const))("%s", async (_id, c) => runBadInput(root, c), 200_000);
});

describe("bad inputs: size catalogs (exit 2, the file, the line and the column)", () => {
  it.concurrent.each(CATALOG_CASES.map((c) => [c.id, c] as const))(
    "%s",
    async (_id, c) => runBadInput(root, c),
    120_000,
  );
});

describe("bad inputs: report (exit 2)", () => {
  it.concurrent.each(REPORT_CASES.map((c) => [c.id, c] as const))(
    "%s",
    async (_id, c) => runBadInput(root, c),
    120_000,
  );
});
