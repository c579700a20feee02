// End to end: the KAT generator reproduces published KAT hashes of PQClean schemes (figures copied into
// fixtures/reference/ with their source): PQClean's nistkat-sha256 (entry 0) for the listed schemes, and
// liboqs's 100-entry hashes for ML-KEM and ML-DSA, each from one generator run. Built at -O2, two at a time.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { KatRecord } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { fixturesDir, makeTempDir, repoRoot } from "./fixture-tools.ts";

const bin = join(repoRoot, "packages/cli/bin.js");
const tmp = makeTempDir("ngcc-kat-pqclean-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const reference = join(fixturesDir, "reference");
const pqclean = JSON.parse(readFileSync(join(reference, "pqclean-nistkat-sha256.json"), "utf8")) as Record<
  string,
  string
>;
const liboqs = JSON.parse(readFileSync(join(reference, "liboqs-kat-sha256.json"), "utf8")) as Record<
  string,
  { all?: string; all_count?: number }
>;

const SCHEMES = [
  "crypto_kem/ml-kem-512",
  "crypto_kem/ml-kem-768",
  "crypto_kem/ml-kem-1024",
  "crypto_sign/ml-dsa-44",
  "crypto_sign/ml-dsa-65",
  "crypto_sign/ml-dsa-87",
  "crypto_sign/falcon-512",
  "crypto_sign/falcon-padded-512",
  "crypto_sign/sphincs-shake-128f-simple",
  "crypto_kem/hqc-128",
  "crypto_kem/mceliece348864",
];
/** The 100-entry liboqs hashes checked (the list; McEliece's would need 10 slow keypairs). */
const ALL_FORM = new Set(SCHEMES.filter((s) => /ml-kem|ml-dsa/.test(s)));

describe("KATs of PQClean schemes", () => {
  it("match PQClean's nistkat-sha256 and liboqs's 100-entry hashes", () => {
    const algorithms = SCHEMES.map((key) => {
      const scheme = key.split("/")[1] as string;
      const single = pqclean[key];
      if (!single) throw new Error(`no reference hash for ${key}`);
      const all = liboqs[key];
      const expect = [
        `{ sha256: ${single}, form: single, source: "PQClean nistkat-sha256 (fixtures/reference)" }`,
        ...(ALL_FORM.has(key) && all?.all
          ? [
              `{ sha256: ${all.all}, form: all, entries: ${all.all_count ?? 100}, source: "liboqs all (fixtures/reference)" }`,
            ]
          : []),
      ];
      const rng = scheme.startsWith("hqc-") ? ", katRng: hqc" : "";
      return `  - { id: ${scheme}, source: { pqclean: ${scheme} }${rng}, kat: [${expect.join(", ")}] }`;
    });
    const file = join(tmp, "pqclean-kat.yaml");
    writeFileSync(
      file,
      [
        "name: pqclean-kat",
        "system: test_1",
        "buildProfiles: { o2: { cflags: [-O2] } }",
        "algorithms:",
        ...algorithms,
      ].join("\n"),
    );
    const out = join(tmp, "out");
    const r = spawnSync(process.execPath, [bin, "kat", file, "--out", out, "--jobs", "2", "--json"], {
      encoding: "utf8",
      timeout: 900_000,
    });
    const failures = (JSON.parse(r.stdout || "{}") as { steps?: { kat?: { failures?: unknown[] } } }).steps?.kat
      ?.failures;
    expect(failures, r.stderr).toEqual([]);
    expect(r.status).toBe(0);
    for (const key of SCHEMES) {
      const scheme = key.split("/")[1] as string;
      const rec = JSON.parse(
        readFileSync(join(out, "data/test_1/kat", scheme, "o2", `${scheme}.json`), "utf8"),
      ) as KatRecord;
      expect(rec.verdict, scheme).toBe("PASS");
      expect(rec.manifest).toBeUndefined(); // compared with published hashes: no manifest to check
      const forms = rec.checks?.map((c) => `${c.form}:${c.entries}:${c.match}`);
      expect(forms, scheme).toEqual(["single:1:true", ...(ALL_FORM.has(key) ? ["all:100:true"] : [])]);
      expect(rec.generated?.forms?.single).toBe(pqclean[key]);
      expect(rec.rng).toBe(scheme.startsWith("hqc-") ? "hqc-shake256" : "nist-ctr-drbg");
    }
    // Falcon's signatures vary in length below the cap; the padded variant's do not.
    const falcon = JSON.parse(
      readFileSync(join(out, "data/test_1/kat/falcon-512/o2/falcon-512.json"), "utf8"),
    ) as KatRecord;
    const padded = JSON.parse(
      readFileSync(join(out, "data/test_1/kat/falcon-padded-512/o2/falcon-padded-512.json"), "utf8"),
    ) as KatRecord;
    expect(falcon.lengths?.signatureBytes?.samples).toBe(1);
    expect(padded.lengths?.signatureBytes).toMatchObject({ min: 666, max: 666 });
  }, 900_000);
});
