// End to end over PQClean: the catalog generated from PQClean's META.yml lengths audits all 35 schemes
// without a disagreement (API figures read from the real api.h files), and Falcon-512's signature lengths
// measured by `ngcc-perf time` reach the size audit as a distribution below the API cap.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SizeAuditRecord } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOG_FILE, META_FILE, pqcleanCatalogText } from "../../../scripts/make-pqclean-catalog.ts";
import { makeTempDir, runCli } from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-sizes-pqclean-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args);

type MetaEntry = Record<string, number | string | string[]>;
const meta = JSON.parse(readFileSync(META_FILE, "utf8")) as Record<string, MetaEntry>;
const schemes = Object.keys(meta)
  .filter((k) => !k.startsWith("_"))
  .map((k) => ({ key: k, scheme: k.split("/")[1] as string, entry: meta[k] as MetaEntry }));

function campaign(name: string, ids: string[], extra = ""): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      "system: test_1",
      `sizes: { catalog: ${JSON.stringify(CATALOG_FILE)} }`,
      "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
      extra,
      "algorithms:",
      ...ids.map((id) => `  - { id: ${id}, source: { pqclean: ${id} } }`),
    ].join("\n"),
  );
  return file;
}

/** The size audit of a scheme under the default build profile (guide). */
const audit = (out: string, alg: string) =>
  JSON.parse(readFileSync(join(out, "data/test_1/sizes", alg, "guide.json"), "utf8")) as SizeAuditRecord;

/** The sizes step's summary in the --json output of a campaign command. */
const sizesSummary = (stdout: string) =>
  (JSON.parse(stdout) as { steps: { sizes: Record<string, unknown> } }).steps.sizes;

describe("PQClean size catalog", { timeout: 600_000 }, () => {
  it("is what scripts/make-pqclean-catalog.ts makes from fixtures/reference/pqclean-meta-lengths.json", () => {
    expect(readFileSync(CATALOG_FILE, "utf8")).toBe(pqcleanCatalogText());
  });

  it("audits the 35 schemes with zero disagreements, every API figure read from the real api.h", () => {
    expect(schemes).toHaveLength(35);
    const out = join(tmp, "all-out");
    const r = cli(
      "sizes",
      campaign(
        "all",
        schemes.map((s) => s.scheme),
      ),
      "--out",
      out,
      "--json",
    );
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(sizesSummary(r.stdout)).toMatchObject({ planned: 35, records: 35, failed: 0 });
    for (const { key, scheme, entry } of schemes) {
      const rec = audit(out, scheme);
      expect(rec.findings, scheme).toEqual([]);
      const inst = rec.instances[0];
      expect(inst?.algname, scheme).toBe(entry.name);
      // The secret key and shared secret are not in the catalog: they check the API reading independently.
      const expected = key.startsWith("crypto_kem/")
        ? {
            publicKeyBytes: entry["length-public-key"],
            secretKeyBytes: entry["length-secret-key"],
            ciphertextBytes: entry["length-ciphertext"],
            sharedSecretBytes: entry["length-shared-secret"],
          }
        : {
            publicKeyBytes: entry["length-public-key"],
            secretKeyBytes: entry["length-secret-key"],
            signatureBytes: entry["length-signature"],
          };
      expect(inst?.api, scheme).toEqual(expected);
      expect(inst?.table, scheme).toEqual(expected);
    }
    expect(cli("validate", join(out, "data")).code).toBe(0);
  });

  it("reports Falcon-512's measured signature lengths as a distribution below the API cap", () => {
    const out = join(tmp, "falcon-out");
    const file = campaign("falcon", ["falcon-512"]);
    const t = cli("time", file, "--out", out);
    expect(t.code, t.stderr).toBe(0);
    const r = cli("sizes", file, "--out", out, "--json");
    expect(r.code, r.stderr).toBe(0);
    const rec = audit(out, "falcon-512");
    expect(rec.findings).toEqual([]);
    const inst = rec.instances[0];
    expect(inst?.api?.signatureBytes).toBe(752);
    const d = inst?.measured?.signatureBytes;
    if (!d) throw new Error("no measured signature lengths");
    expect(d.samples).toBeGreaterThanOrEqual(15); // at least 3 trials × 5 iterations
    expect(d.min).toBeGreaterThan(0);
    expect(d.min).toBeLessThanOrEqual(d.mean);
    expect(d.mean).toBeLessThanOrEqual(d.max);
    expect(d.max).toBeLessThan(752);
    // Falcon's compressed signatures vary in length: a distribution, not one number.
    expect(d.min).toBeLessThan(d.max);
    expect(d.sources).toEqual([
      {
        source: "timing",
        path: "records/falcon-512/guide/falcon-512__sign.json",
        min: d.min,
        mean: d.mean,
        max: d.max,
        samples: d.samples,
      },
    ]);
    const timing = JSON.parse(
      readFileSync(join(out, "data/test_1/records/falcon-512/guide/falcon-512__sign.json"), "utf8"),
    );
    expect(timing.lengths.signatureBytes).toEqual({ min: d.min, mean: d.mean, max: d.max, samples: d.samples });
    // The page's signature column is the catalog's figure (PQClean's META gives the cap).
    expect(inst?.table?.signatureBytes).toBe(752);
  });
});
