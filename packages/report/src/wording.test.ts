// Every sentence on a page is true of the records behind it: the group words come from the hash-profile records'
// groups (ICCS only for the ICCS placeholders and DRNG), the manifest sentence appears only with a manifest, the
// survey's wording follows its findings and groups, and the earlier harness's wording only on records transcribed
// from its pages (provenance "synthesized").
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderSite } from "./site.ts";
import {
  algorithmRecordAt,
  editAll,
  measuredProvenance,
  miniStore,
  type Rec,
  readJson,
  renderEdited,
  sectionOf,
  writeJson,
} from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-wording-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MEASURED = measuredProvenance("2026-10-01T10:00:00Z");

const render = (name: string, ids: string[], edit: (root: string) => void) => renderEdited(join(tmp, name), ids, edit);

/** PQClean's groups as the campaign names them: fips202/sha2 and PQCLEAN_randombytes. */
function pqcleanGroups(r: Rec): void {
  r.groups = [
    { name: "hash", label: "fips202/sha2", symbols: ["shake128", "sha3_256", "sha3_512"], share: r.groups[0].share },
    { name: "drng", label: "DRNG", symbols: ["PQCLEAN_randombytes"], share: r.groups[1].share },
  ];
  r.calls = (r.calls ?? []).map((c: Rec) =>
    c.group === "drng" ? { ...c, symbol: "PQCLEAN_randombytes" } : { ...c, symbol: "shake128", label: "shake128" },
  );
}

describe("sentences built from the records", () => {
  it("names the profiled groups by their labels, and ICCS only for the ICCS placeholders", async () => {
    const page = await render("pqclean", ["kem-22"], (root) => {
      editAll(root, "arm_1", (r) => {
        if (r.kind === "hash-profile") pqcleanGroups(r);
      });
      const file = algorithmRecordAt(root, "survey", { algorithmId: "kem-22" });
      const instances = ["Mithril-128", "Mithril-256", "Mithril-512"];
      writeJson(file, {
        ...readJson(file),
        provenance: MEASURED,
        verdict: "ICCS-only",
        automatic: {
          verdict: "ICCS-only",
          placeholders: ["PQCLEAN_randombytes", "sha3_256", "shake128"],
          ownPrimitives: [],
          shims: [],
          switches: [],
          text: "placeholders sha3_256, shake128",
          instances: instances.map((instance) => ({
            instance,
            verdict: "ICCS-only",
            placeholders: ["sha3_256", "shake128"],
            drng: ["PQCLEAN_randombytes"],
          })),
        },
        curated: undefined,
        text: "placeholders sha3_256, shake128",
      });
    });
    const symmetric = sectionOf(page("kem-22"), "Symmetric primitives");
    expect(symmetric).toContain(
      "Share of each operation spent in the fips202/sha2 functions (shake128, sha3_256 and sha3_512) and in the DRNG (PQCLEAN_randombytes) (reference build,",
    );
    expect(symmetric).toContain(
      "Survey verdict: fips202/sha2 functions only — fips202/sha2 functions sha3_256 and shake128",
    );
    expect(symmetric).toContain("| instance | operation | fips202/sha2 | DRNG | calls per operation |");
    expect(symmetric).not.toMatch(/ICCS|placeholder/);
  });

  it("says ICCS for the ICCS groups, and words a measured survey's findings in them", async () => {
    const page = await render("iccs", ["kem-22"], (root) => {
      const file = algorithmRecordAt(root, "survey", { algorithmId: "kem-22" });
      writeJson(file, {
        ...readJson(file),
        provenance: MEASURED,
        verdict: "mixed",
        automatic: {
          verdict: "mixed",
          placeholders: ["pseudoXOF", "randombytes"],
          ownPrimitives: [{ name: "AES", evidence: "in Mithril-128: aes.o" }],
          shims: [{ symbol: "shake256", forwardsTo: "pseudoXOF" }],
          switches: [],
          instances: [{ instance: "Mithril-128", verdict: "mixed", placeholders: ["pseudoXOF"], drng: [] }],
        },
      });
    });
    const symmetric = sectionOf(page("kem-22"), "Symmetric primitives");
    expect(symmetric).toContain(
      "Share of each operation spent in the ICCS placeholder hash functions and in the ICCS DRNG",
    );
    expect(symmetric).toContain(
      "Survey verdict: mixed — placeholders pseudoXOF; own AES; 1 shim over placeholders (e.g. shake256 → pseudoXOF); no DRNG call",
    );
  });

  it("gives the manifest only when the KAT record names one, and 'before timing' only when the records show it", async () => {
    const page = await render("kat", ["kem-22", "kex-06"], (root) => {
      editAll(root, "arm_1", (r, entry) => {
        if (r.kind === "kat" && "algorithmId" in entry.key && entry.key.algorithmId === "kem-22") {
          // PQClean-style: an expected SHA-256 instead of .rsp files, and no manifest.
          r.provenance = MEASURED;
          r.manifest = { path: "(none)", status: "not-applicable" };
          r.expected = {
            source: "sha256",
            sha256: "a".repeat(64),
            form: "single",
            entries: 1,
            note: "PQClean META.yml",
          };
        }
        if (r.kind === "kat" && r.algorithmId === "kex-06") r.provenance = MEASURED;
        // kem-22 was timed after its KAT; one kex-06 timing record predates its KAT record.
        if (r.kind === "timing")
          r.provenance = measuredProvenance(
            r.instance === "MAMBA-NIKE-256" && r.operation === "exchange"
              ? "2026-10-01T09:00:00Z"
              : "2026-10-01T11:00:00Z",
          );
      });
    });
    const kem = sectionOf(page("kem-22"), "3. Functional testing");
    expect(kem).toContain(
      "Each library was checked against the expected SHA-256 of the KAT output (PQClean META.yml) before timing.",
    );
    expect(kem).not.toContain("(none)");
    expect(kem).not.toContain("manifest");
    const kex = sectionOf(page("kex-06"), "3. Functional testing");
    expect(kex).toContain(
      "Each library was checked against the submitted KAT vectors (SHA-256 manifest kex-06/kat.sha256 of the submission).",
    );
    expect(kex).not.toContain("in the harness");
    expect(kex).not.toContain("before timing");
  });

  it("keeps the earlier harness's wording to the records transcribed from its pages", async () => {
    const page = await render("measured", ["kex-06"], (root) => {
      editAll(root, "arm_1", (r) => {
        r.provenance = MEASURED;
        if (r.kind === "size-audit") r.instances[1].kex.bandwidthBytes += 1;
      });
    });
    const md = page("kex-06");
    const sizes = sectionOf(md, "6. Transmission");
    expect(sizes).not.toContain("The published raw timing records are unchanged.");
    expect(sizes).toContain("Bandwidth is the size audit's figure; for some rows it is not the protocol messages plus");
    expect(sizes).not.toContain("Bandwidth counts all specified protocol messages");
    const evidence = sectionOf(md, "7. Raw evidence index");
    expect(evidence).not.toContain("in the harness");
    expect(evidence).toContain(
      "Paths are relative to data/arm_1/ in the record store; each timing record holds its raw trials",
    );
    expect(evidence).toContain("[`records/kex-06/guide/MAMBA-NIKE-128__exchange.json`]");
    expect(md).not.toContain("Synthesized records:");

    const synthesized = await render("synthesized", ["kex-06"], () => undefined);
    expect(sectionOf(synthesized("kex-06"), "6. Transmission")).toContain(
      "Bandwidth counts all specified protocol messages and each required public key once. Public keys are transmitted bytes too. Certificates and transport framing are excluded. The published raw timing records are unchanged.",
    );
  });

  it("says which sizes are API figures when the catalog has none", async () => {
    const page = await render("api-sizes", ["kem-22"], (root) => {
      const file = algorithmRecordAt(root, "size-audit", { algorithmId: "kem-22" });
      const audit = readJson(file);
      audit.provenance = MEASURED;
      for (const i of audit.instances) {
        i.catalog = { publicKeyBytes: null, ciphertextBytes: null, signatureBytes: null };
        i.tableFrom = { publicKeyBytes: "api", ciphertextBytes: "api" };
      }
      writeJson(file, audit);
    });
    const sizes = sectionOf(page("kem-22"), "6. Transmission");
    expect(sizes).toContain("No figure comes from a size catalog: all sizes shown are API figures.");
    expect(sizes).not.toContain("follow the curated");
  });

  it("says how iterations were chosen only as the driver's calibration records it", async () => {
    const root = miniStore(join(tmp, "calibrated"), ["kem-22"]);
    editAll(root, "arm_1", (r) => {
      r.provenance = MEASURED;
      if (r.kind !== "timing") return;
      r.calibration = {
        targetTrialNs: 2e7,
        warmupIterations: 10,
        estimateNs: 1e5,
        limitedBy: r.instance === "Mithril-512" && r.operation === "dec" ? "max-iterations" : "target-ns",
      };
    });
    await renderSite(root, { out: join(tmp, "calibrated-out"), formats: ["md"] });
    const method = readFileSync(join(tmp, "calibrated-out", "site", "arm_1", "method.md"), "utf8");
    expect(method).toContain("The driver chose the iterations per trial of every timing record from its own estimate");
    expect(method).toContain("| iterations decided by | max-iterations (1), target-ns (8) |");
    expect(method).toContain("| target trial duration | 20 ms |");
    expect(method).not.toContain("Synthesized records:");

    const seed = await render("uncalibrated", ["kem-22"], () => undefined);
    const plain = readFileSync(join(tmp, "uncalibrated-out", "site", "arm_1", "method.md"), "utf8");
    expect(seed("kem-22")).toContain("Synthesized records:");
    expect(plain).toContain("The records do not say how the iterations per trial were chosen.");
    expect(plain).toContain("| iterations decided by | not recorded |");
    expect(plain).toContain("Synthesized records:");
  });
});
