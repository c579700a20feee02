// End to end: `ngcc-perf sizes` over the fixture submissions and the fixture catalog — API figures from
// printparams compiled against each real api.h, the audit, the key-exchange table — plus bad catalogs,
// an api.h that does not compile, --resume, two build profiles, and the C hygiene of native/printparams.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SizeAuditRecord } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import {
  catalogFile,
  copySubmission,
  iccsDir,
  makeTempDir,
  nativeIncludeDir,
  pqcleanDir,
  repoRoot,
  runCli,
  SANITIZE_CFLAGS,
  STRICT_CFLAGS,
  submissionsDir,
} from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-sizes-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args);

const ALGORITHMS = [
  `  - { id: kem-90, source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} } }`,
  `  - { id: sig-91, source: { submission: ${JSON.stringify(join(submissionsDir, "sig-91"))} } }`,
  `  - { id: kex-92, source: { submission: ${JSON.stringify(join(submissionsDir, "kex-92"))} } }`,
].join("\n");

function campaign(name: string, catalog: string | null, algorithms = ALGORITHMS, extra = ""): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      ...(catalog ? [`sizes: { catalog: ${JSON.stringify(catalog)} }`] : []),
      extra,
      "algorithms:",
      algorithms,
    ].join("\n"),
  );
  return file;
}

/** The size audit of an algorithm under a build profile (the campaigns here use the default profile, guide). */
function audit(out: string, alg: string, profile = "guide"): SizeAuditRecord {
  return JSON.parse(readFileSync(join(out, "data/test_1/sizes", alg, `${profile}.json`), "utf8")) as SizeAuditRecord;
}

/** The sizes step's summary in the --json output of a campaign command. */
function sizesSummary(stdout: string) {
  return (JSON.parse(stdout) as { steps: { sizes: Record<string, unknown> } }).steps.sizes;
}

function instance(rec: SizeAuditRecord, name: string) {
  const i = rec.instances.find((x) => x.instance === name);
  if (!i) throw new Error(`no instance ${name} in ${rec.algorithmId}`);
  return i;
}

describe("ngcc-perf sizes over the fixture submissions", { timeout: 180_000 }, () => {
  const out = join(tmp, "fixtures-out");
  let first: ReturnType<typeof cli>;

  it("finds exactly the fixture catalog's three deliberate disagreements and nothing else", () => {
    first = cli("sizes", campaign("fixtures", catalogFile), "--out", out, "--json");
    expect(first.stderr).not.toMatch(/internal error/);
    expect(first.code).toBe(0);
    const findings = ["kem-90", "sig-91", "kex-92"].flatMap((a) =>
      audit(out, a).findings.map((f) => [a, f.instance, f.kind, f.field, f.catalog, f.api]),
    );
    expect(findings).toEqual([
      ["kem-90", "Puffin-256", "catalog-differs-from-api", "ciphertextBytes", 1664, 1536],
      ["sig-91", "Quill-V-192", "catalog-differs-from-api", "signatureBytes", 2128, 3074],
      ["kex-92", "Heron-2P-128", "catalog-differs-from-api", "message1Bytes", 832, 1632],
    ]);
    // Each finding carries the catalog's note that explains it.
    for (const a of ["kem-90", "sig-91", "kex-92"]) {
      expect(audit(out, a).findings[0]?.note).toMatch(/^Deliberate disagreement/);
    }
    expect(sizesSummary(first.stdout)).toMatchObject({
      planned: 3,
      records: 3,
      failed: 0,
      findings: { "catalog-differs-from-api": 3, "measured-exceeds-api": 0 },
      notes: ["findings: 3 catalog-differs-from-api"],
    });
    // One job per algorithm × build profile, and the progress total says so from the start.
    expect(first.stderr).toMatch(/^sizes: 3 job\(s\) in 3 unit\(s\)$/m);
    expect(first.stderr).toMatch(/^sizes: 3 done, 0 failed, 0 skipped \(of 3\)/m);
    const v = cli("validate", join(out, "data"));
    expect(v.code).toBe(0);
  });

  it("holds the section-6 tables: pk/ct/sig from the catalog, sk/ss and the API caps from api.h", () => {
    const kem = audit(out, "kem-90");
    expect(kem.catalog?.path).toMatch(/external_sizes\.csv$/);
    expect(kem.catalog?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Puffin-K-128 is the Puffin-128 folder compiled with -DPUFFIN_OWN_KECCAK: its api.h names it so.
    expect(instance(kem, "Puffin-K-128").algname).toBe("Puffin-K-128");
    const p256 = instance(kem, "Puffin-256");
    expect(p256.api).toEqual({
      publicKeyBytes: 1568,
      secretKeyBytes: 3168,
      ciphertextBytes: 1536,
      sharedSecretBytes: 32,
    });
    expect(p256.table).toEqual({
      publicKeyBytes: 1568,
      secretKeyBytes: 3168,
      ciphertextBytes: 1664,
      sharedSecretBytes: 32,
    });
    const sig = instance(audit(out, "sig-91"), "Quill-V-192");
    expect(sig.api).toEqual({ publicKeyBytes: 48, secretKeyBytes: 96, signatureBytes: 3074 });
    expect(sig.table).toEqual({ publicKeyBytes: 48, secretKeyBytes: 96, signatureBytes: 2128 });
  });

  it("computes the key exchange's bandwidth by the rule: every message plus each required public key once", () => {
    const rec = audit(out, "kex-92");
    // By hand from the four api.h files (CRYPTO_KEX_MSG1BYTES + MSG2BYTES + PUBLICKEYBYTES_A + PUBLICKEYBYTES_B).
    const expected = {
      "Heron-128": { passes: 1, messageBytes: [832], pk: [0, 800], bandwidth: 832 + 0 + 800, sk: 1600, ss: 32 },
      "Heron-256": { passes: 1, messageBytes: [1536], pk: [0, 1568], bandwidth: 1536 + 0 + 1568, sk: 3136, ss: 64 },
      "Heron-2P-128": {
        passes: 2,
        messageBytes: [1632, 832],
        pk: [0, 800],
        bandwidth: 1632 + 832 + 0 + 800,
        sk: 1600,
        ss: 32,
      },
      "Heron-2P-256": {
        passes: 2,
        messageBytes: [3104, 1536],
        pk: [0, 1568],
        bandwidth: 3104 + 1536 + 0 + 1568,
        sk: 3136,
        ss: 64,
      },
    };
    expect(rec.instances.map((i) => i.instance)).toEqual(Object.keys(expected));
    for (const [name, e] of Object.entries(expected)) {
      expect(instance(rec, name).kex, name).toEqual({
        passes: e.passes,
        messageBytes: e.messageBytes,
        protocolMessageBytes: e.messageBytes.reduce((a, b) => a + b, 0),
        publicKeyABytes: e.pk[0],
        publicKeyBBytes: e.pk[1],
        bandwidthBytes: e.bandwidth,
        longTermSecretKeyBytes: e.sk,
        sharedSecretBytes: e.ss,
      });
      // The C macro NGCC_KEX_BANDWIDTH_BYTES, compiled against the same api.h, agrees.
      expect(instance(rec, name).api?.bandwidthBytes).toBe(e.bandwidth);
    }
    expect(instance(rec, "Heron-2P-128").kex?.bandwidthBytes).toBe(3264);
    // Only B holds a long-term key in every Heron instance: the seeds' note on authentication.
    expect(rec.notes).toEqual([
      "Only the responder's long-term public key is required; this exchange does not authenticate the initiator as a mutually authenticated protocol would.",
    ]);
  });

  it("skips unchanged algorithms on --resume and redoes them when the catalog changes", () => {
    const again = cli("sizes", campaign("fixtures", catalogFile), "--out", out, "--resume", "--json");
    expect(again.code).toBe(0);
    expect(sizesSummary(again.stdout)).toMatchObject({ planned: 3, records: 0, skipped: 3 });
    const changed = join(tmp, "commented.csv");
    writeFileSync(changed, `# the same rows under a comment\n${readFileSync(catalogFile, "utf8")}`);
    const redo = cli("sizes", campaign("fixtures", changed), "--out", out, "--resume", "--json");
    expect(sizesSummary(redo.stdout)).toMatchObject({ records: 3, skipped: 0 });
    // The rows moved down one line; the findings say so.
    expect(audit(out, "kem-90").findings[0]?.line).toBe(5);
  });
});

describe("ngcc-perf sizes after kat and time: measured lengths", { timeout: 300_000 }, () => {
  it("combines the KAT's and the timing run's signature lengths of Quill-V-192, naming each source", () => {
    const out = join(tmp, "measured-out");
    const file = campaign(
      "measured",
      catalogFile,
      `  - { id: sig-91, instances: [Quill-V-192], source: { submission: ${JSON.stringify(join(submissionsDir, "sig-91"))} } }`,
      "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
    );
    for (const step of ["kat", "time", "sizes"]) {
      const r = cli(step, file, "--out", out);
      expect(r.code, `${step}: ${r.stderr}`).toBe(0);
    }
    const rec = audit(out, "sig-91");
    const d = instance(rec, "Quill-V-192").measured?.signatureBytes;
    if (!d) throw new Error("no measured signature lengths");
    const [kat, timing] = d.sources ?? [];
    // The 100 KAT signatures span exactly the range and mean the catalog's note quotes from the document.
    expect(kat).toMatchObject({
      source: "kat",
      path: "kat/sig-91/guide/Quill-V-192.json",
      min: 1898,
      max: 2354,
      samples: 100,
    });
    expect(Math.round(kat?.mean ?? 0)).toBe(2128);
    expect(timing).toMatchObject({ source: "timing", path: "records/sig-91/guide/Quill-V-192__sign.json" });
    expect(d.samples).toBe((kat?.samples ?? 0) + (timing?.samples ?? 0));
    expect(d.min).toBe(Math.min(kat?.min ?? 0, timing?.min ?? 0));
    expect(d.max).toBeLessThanOrEqual(3074);
    // The fixed-length public key is measured by the KAT alone.
    expect(instance(rec, "Quill-V-192").measured?.publicKeyBytes).toMatchObject({ min: 48, max: 48, samples: 100 });
    // Below the cap: the only finding is the catalog's deliberate one.
    expect(rec.findings.map((f) => f.kind)).toEqual(["catalog-differs-from-api"]);
  });
});

describe("ngcc-perf sizes: catalog rows missing or unknown, bad catalogs, a broken api.h", { timeout: 180_000 }, () => {
  it("reports a missing row and a row for an instance the algorithm does not have", () => {
    const lines = readFileSync(catalogFile, "utf8").split("\n");
    const edited = [
      ...lines.filter((l) => !l.startsWith("kem-90,Puffin-192,")),
      "kem-90,Puffin-512,kem,2048,2048,,,,invented row,",
      "",
    ]
      .join("\n")
      .replace(/\n\n+$/, "\n");
    const cat = join(tmp, "edited.csv");
    writeFileSync(cat, edited);
    const out = join(tmp, "edited-out");
    const r = cli("sizes", campaign("edited", cat), "--out", out, "--only", "kem-90/Puffin-1*", "--json");
    expect(r.code).toBe(0);
    // A missing row is no disagreement: counted and worded apart, as is a row naming no instance.
    expect(sizesSummary(r.stdout)).toMatchObject({
      notes: [
        "findings: 1 catalog-differs-from-api; not in the catalog: 1 instance; catalog rows naming no instance: 1",
      ],
    });
    expect(existsSync(join(out, "data/test_1/sizes/sig-91"))).toBe(false);
    const rec = audit(out, "kem-90");
    // --only picks the algorithm; a size audit always covers all of its instances.
    expect(rec.instances).toHaveLength(6);
    expect(rec.findings.map((f) => [f.instance, f.kind])).toEqual([
      ["Puffin-192", "catalog-row-missing"],
      ["Puffin-256", "catalog-differs-from-api"],
      ["Puffin-512", "catalog-row-unknown-instance"],
    ]);
    expect(instance(rec, "Puffin-192").catalog).toBeNull();
    expect(instance(rec, "Puffin-192").tableFrom).toEqual({ publicKeyBytes: "api", ciphertextBytes: "api" });
    expect(rec.findings.find((f) => f.kind === "catalog-row-missing")?.note).toBe(
      "kem-90/Puffin-192 is not in the catalog (no row names it)",
    );
    // The audit page and section 6 count one disagreement, and say apart what the catalog lacks or has in excess.
    const site = join(tmp, "edited-site");
    expect(cli("report", out, "--out", site).code).toBe(0);
    const page = readFileSync(join(site, "site/test_1/sizes.md"), "utf8");
    expect(page).toContain(
      "1 disagreement(s). Not in the catalog: Puffin-192 (the API's figures are shown). Catalog rows naming no instance: Puffin-512.",
    );
    expect(page).toMatch(/\| `Puffin-192` \| not in the catalog \| kem-90\/Puffin-192 is not in the catalog/);
    expect(page).not.toMatch(/Disagreements found for kem-90[^\n]*\n(?:[^\n]*\n)*?[^\n]*catalog-row-missing/);
    const kem = readFileSync(join(site, "site/test_1/kem-90.md"), "utf8");
    expect(kem).toMatch(/1 disagreement\(s\) between catalog, API and measurement/);
  });

  it("rejects a bad catalog with file:line and what was expected, exit 2, and writes no audit", () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        "columns",
        "kem-90,Puffin-128,kem,800,832,,,Puffin doc,",
        /columns\.csv:2: expected 10 columns as in the header \(line 1\), found 9/,
      ],
      [
        "number",
        "kem-90,Puffin-128,kem,800,83two,,,,Puffin doc,",
        /number\.csv:2: column ciphertext: expected a size in bytes/,
      ],
      [
        "duplicate",
        "kem-90,Puffin-128,kem,800,832,,,,Puffin doc,\nkem-90,Puffin-128,kem,800,832,,,,again,",
        /duplicate\.csv:3: duplicate row for kem-90\/Puffin-128: expected one row per instance \(first at line 2\)/,
      ],
    ];
    const header = readFileSync(catalogFile, "utf8").split("\n")[0];
    for (const [name, body, message] of cases) {
      const cat = join(tmp, `${name}.csv`);
      writeFileSync(cat, `${header}\n${body}\n`);
      const out = join(tmp, `bad-${name}-out`);
      const r = cli("sizes", campaign(`bad-${name}`, cat), "--out", out);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr, name).not.toMatch(/\n\s+at /); // no stack trace
      // No audit is written (the pipeline has written the environment record before the step starts).
      expect(existsSync(join(out, "data/test_1/sizes")), name).toBe(false);
    }
    const missing = cli("sizes", campaign("no-file", join(tmp, "nope.csv")), "--out", join(tmp, "nope-out"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.csv: cannot read the size catalog \(ENOENT\)/);
  });

  it("records an api.h that does not compile as the instance's failure, audits the rest, exits 1", () => {
    const root = join(tmp, "broken");
    const sub = copySubmission("kem-90", root);
    const api = join(sub.dir, "Reference_Implementation/Puffin-192/api.h");
    writeFileSync(api, readFileSync(api, "utf8").replace(/#define CRYPTO_CIPHERTEXTBYTES .*\n/, ""));
    const out = join(tmp, "broken-out");
    const r = cli(
      "sizes",
      campaign("broken", catalogFile, `  - { id: kem-90, source: { submission: ${JSON.stringify(sub.dir)} } }`),
      "--out",
      out,
      "--json",
    );
    expect(r.code).toBe(1);
    // The audit of kem-90 is the one job; it failed, naming each instance whose api.h could not be read.
    expect(r.stderr).toMatch(/failed\s+kem-90 sizes \[guide\].*\n\s+kem-90\/Puffin-192: /);
    expect(r.stderr).toMatch(/^\s+kem-90\/Puffin-K-192: /m);
    const rec = audit(out, "kem-90");
    const broken = instance(rec, "Puffin-192");
    expect(broken.failure?.reason).toBe("compile-error");
    expect(broken.failure?.message).toMatch(/CRYPTO_CIPHERTEXTBYTES/);
    expect(broken.api).toBeUndefined();
    expect(broken.commands?.[0]?.exitCode).not.toBe(0);
    expect(instance(rec, "Puffin-128").table?.ciphertextBytes).toBe(832);
    // Puffin-K-192 is the same folder compiled with another define: it fails too.
    expect(instance(rec, "Puffin-K-192").failure?.reason).toBe("compile-error");
    expect(sizesSummary(r.stdout)).toMatchObject({ records: 0, failed: 1 });
    expect(sizesSummary(r.stdout).failures).toMatchObject([
      { algorithmId: "kem-90", buildProfile: "guide", reason: "compile-error" },
    ]);
    // A failed audit is redone on --resume (as every step's failed records are).
    const again = cli(
      "sizes",
      campaign("broken", catalogFile, `  - { id: kem-90, source: { submission: ${JSON.stringify(sub.dir)} } }`),
      "--out",
      out,
      "--resume",
      "--json",
    );
    expect(sizesSummary(again.stdout)).toMatchObject({ skipped: 0, failed: 1 });
    expect(cli("validate", join(out, "data")).code).toBe(0);
  });

  it("without a catalog, shows the API's figures and says so", () => {
    const out = join(tmp, "no-catalog-out");
    const r = cli("sizes", campaign("no-catalog", null), "--out", out, "--only", "sig-91");
    expect(r.code, r.stderr).toBe(0);
    const rec = audit(out, "sig-91");
    expect(rec.findings).toEqual([]);
    expect(rec.catalog).toBeUndefined();
    expect(instance(rec, "Quill-V-192").table?.signatureBytes).toBe(3074);
    expect(rec.notes?.[0]).toMatch(/^No size catalog is configured/);
  });
});

describe("ngcc-perf sizes with two build profiles", { timeout: 300_000 }, () => {
  it("writes one audit per profile, each from the timing records of its own profile", () => {
    const out = join(tmp, "two-profiles-out");
    const file = campaign(
      "two-profiles",
      catalogFile,
      `  - { id: sig-91, instances: [Quill-V-192], buildProfiles: [guide, o0], source: { submission: ${JSON.stringify(join(submissionsDir, "sig-91"))} } }`,
      [
        "buildProfiles:",
        '  guide: { cflags: ["-O3", "-fomit-frame-pointer"] }',
        '  o0: { cflags: ["-O0"] }',
        "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
      ].join("\n"),
    );
    const t = cli("time", file, "--out", out);
    expect(t.code, t.stderr).toBe(0);
    const r = cli("sizes", file, "--out", out, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^sizes: 2 job\(s\) in 2 unit\(s\)$/m);
    expect(r.stderr).toMatch(/^sizes: 2 done, 0 failed, 0 skipped \(of 2\)/m);
    expect(sizesSummary(r.stdout)).toMatchObject({ planned: 2, records: 2, failed: 0 });
    expect(readdirSync(join(out, "data/test_1/sizes/sig-91")).sort()).toEqual(["guide.json", "o0.json"]);
    for (const profile of ["guide", "o0"]) {
      const rec = audit(out, "sig-91", profile);
      expect(
        rec.findings.map((f) => f.kind),
        profile,
      ).toEqual(["catalog-differs-from-api"]);
      const d = instance(rec, "Quill-V-192").measured?.signatureBytes;
      expect(d?.sources, profile).toEqual([
        expect.objectContaining({ source: "timing", path: `records/sig-91/${profile}/Quill-V-192__sign.json` }),
      ]);
      // printparams was compiled in the profile's own build folder.
      expect(instance(rec, "Quill-V-192").commands?.[0]?.cwd ?? "", profile).toContain(
        join("build/test_1/sig-91", profile),
      );
    }
    // On --resume both are current; a new timing record of one profile redoes that profile's audit only.
    const again = cli("sizes", file, "--out", out, "--resume", "--json");
    expect(sizesSummary(again.stdout)).toMatchObject({ planned: 2, records: 0, skipped: 2 });
    const o0 = join(out, "data/test_1/records/sig-91/o0/Quill-V-192__sign.json");
    writeFileSync(o0, JSON.stringify(JSON.parse(readFileSync(o0, "utf8")))); // the same record, other bytes
    // A run refuses a record changed behind the index; `ngcc-perf index` is the deliberate way to accept it.
    const refused = cli("sizes", file, "--out", out, "--resume", "--json");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/records\/sig-91\/o0\/Quill-V-192__sign\.json/);
    const reindexed = cli("index", out);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    const redo = cli("sizes", file, "--out", out, "--resume", "--json");
    expect(sizesSummary(redo.stdout)).toMatchObject({ planned: 2, records: 1, skipped: 1 });
    expect(redo.stderr).toMatch(/ok\s+sig-91 sizes \[o0\]/);
  });
});

describe("native/printparams", { timeout: 180_000 }, () => {
  const source = join(repoRoot, "native/printparams/ngcc_printparams.c");
  const gcc = (args: string[]) => spawnSync("gcc", args, { encoding: "utf8", timeout: 120_000 });

  it("builds warning-free under the project's flags and sanitizers for each category and exports only main", () => {
    const builds: Array<[string, string[], Record<string, unknown>]> = [
      [
        "kem",
        [
          "-DNGCC_CATEGORY_KEM",
          "-DPUFFIN_OWN_KECCAK",
          "-I",
          join(submissionsDir, "kem-90/Reference_Implementation/Puffin-128"),
        ],
        {
          algname: "Puffin-K-128",
          sizes: { publicKeyBytes: 800, secretKeyBytes: 1632, ciphertextBytes: 832, sharedSecretBytes: 16 },
        },
      ],
      [
        "sign",
        [
          "-DNGCC_CATEGORY_SIGN",
          "-DNGCC_NAMESPACE=PQCLEAN_FALCON512_CLEAN_",
          "-I",
          join(pqcleanDir, "crypto_sign/falcon-512/clean"),
        ],
        { algname: "Falcon-512", sizes: { publicKeyBytes: 897, secretKeyBytes: 1281, signatureBytes: 752 } },
      ],
      [
        "kex",
        [
          "-DNGCC_CATEGORY_KEX",
          "-I",
          join(submissionsDir, "kex-92/Reference_Implementation/Heron-2P-128"),
          "-I",
          nativeIncludeDir,
        ],
        { category: "kex", sizes: expect.objectContaining({ passes: 2, msg1Bytes: 1632, bandwidthBytes: 3264 }) },
      ],
    ];
    for (const [name, flags, expected] of builds) {
      const exe = join(tmp, `pp-${name}`);
      const b = gcc([...STRICT_CFLAGS, ...SANITIZE_CFLAGS, ...flags, source, "-o", exe]);
      expect(b.stderr, name).toBe("");
      expect(b.status, name).toBe(0);
      const r = spawnSync(exe, [], { encoding: "utf8" });
      expect(r.status, name).toBe(0);
      expect(JSON.parse(r.stdout), name).toMatchObject(expected);
      const obj = join(tmp, `pp-${name}.o`);
      expect(gcc([...STRICT_CFLAGS, ...flags, "-c", source, "-o", obj]).status).toBe(0);
      const nm = spawnSync("nm", ["-g", "--defined-only", obj], { encoding: "utf8" });
      const symbols = nm.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(" ").pop());
      expect(symbols, name).toEqual(["main"]);
    }
  });

  it("fails to build, naming the problem, when api.h lacks a macro or no category is given", () => {
    const noCategory = gcc([
      "-std=c99",
      "-I",
      join(submissionsDir, "kem-90/Reference_Implementation/Puffin-128"),
      source,
      "-o",
      join(tmp, "pp-x"),
    ]);
    expect(noCategory.status).not.toBe(0);
    expect(noCategory.stderr).toMatch(/define exactly one of NGCC_CATEGORY_KEM/);
    const kexWithNs = gcc([
      "-std=c99",
      "-DNGCC_CATEGORY_KEX",
      "-DNGCC_NAMESPACE=X_",
      "-I",
      join(submissionsDir, "kex-92/Reference_Implementation/Heron-128"),
      "-I",
      nativeIncludeDir,
      source,
      "-o",
      join(tmp, "pp-y"),
    ]);
    expect(kexWithNs.status).not.toBe(0);
    expect(kexWithNs.stderr).toMatch(/NGCC_NAMESPACE does not apply to key exchange/);
  });
});
