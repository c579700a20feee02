// The page's hash/DRNG wording comes from the profiler's groups as the records name them (kind, iccs, label): a
// submission's own SHA-3 and a plain randombytes get no ICCS words anywhere on the page, the survey never calls
// them placeholders; groups marked ICCS are worded as the ICCS placeholders and DRNG.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  algorithmRecordAt,
  editAll,
  entries,
  measuredProvenance,
  type Rec,
  readJson,
  reindex,
  renderEdited,
  sectionOf,
  writeJson,
} from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-groups-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MEASURED = measuredProvenance("2026-10-01T10:00:00Z");
const INSTANCES = ["Mithril-128", "Mithril-256", "Mithril-512"];

async function render(name: string, edit: (root: string) => void): Promise<string> {
  return (await renderEdited(join(tmp, name), ["kem-22"], edit))("kem-22");
}

const SHA3 = ["pqcrystals_kyber_fips202_ref_shake128_squeezeblocks", "pqcrystals_kyber_fips202_ref_shake256"];

/** A NIST submission's own SHA-3 and ngcc-perf's plain randombytes, as the profiler records them now. */
function ownGroups(r: Rec): void {
  r.provenance = MEASURED;
  r.groups = [
    {
      name: "sha3",
      label: "SHA-3/SHAKE (the submission's own)",
      kind: "hash",
      iccs: false,
      source: "meta",
      symbols: SHA3,
      share: r.groups[0].share,
    },
    {
      name: "drng",
      label: "randombytes",
      kind: "drng",
      iccs: false,
      source: "default",
      symbols: ["randombytes"],
      share: r.groups[1].share,
    },
  ];
  r.calls = [
    { symbol: SHA3[0], group: "sha3", label: "shake128_squeezeblocks", meanPerOperation: 16.1 },
    { symbol: "randombytes", group: "drng", meanPerOperation: 1 },
  ];
}

function ownSurvey(root: string, groups: Rec[]): void {
  const file = algorithmRecordAt(root, "survey", { algorithmId: "kem-22" });
  writeJson(file, {
    ...readJson(file),
    provenance: MEASURED,
    verdict: "ICCS-only",
    automatic: {
      verdict: "ICCS-only",
      placeholders: [...SHA3, "randombytes"].sort(),
      ownPrimitives: [],
      shims: [{ symbol: "kyber_shake128_absorb", forwardsTo: SHA3[0] }],
      switches: [],
      text: "SHA-3/SHAKE (the submission's own) functions …",
      groups,
      instances: INSTANCES.map((instance) => ({
        instance,
        verdict: "ICCS-only",
        placeholders: SHA3,
        drng: ["randombytes"],
      })),
    },
    curated: undefined,
    text: "SHA-3/SHAKE (the submission's own) functions …",
  });
}

const RECORDED = [
  { name: "sha3", label: "SHA-3/SHAKE (the submission's own)", kind: "hash", iccs: false, source: "meta" },
  { name: "drng", label: "randombytes", kind: "drng", iccs: false, source: "default" },
];

describe("the page's words from the recorded groups", () => {
  it("gives a submission without ICCS no ICCS words: its own SHA-3 by label, randombytes by name", async () => {
    const md = await render("own", (root) => {
      editAll(root, "arm_1", (r) => {
        if (r.kind === "hash-profile") ownGroups(r);
      });
      ownSurvey(root, RECORDED);
    });
    const symmetric = sectionOf(md, "Symmetric primitives");
    expect(symmetric).toContain(
      "Share of each operation spent in the SHA-3/SHAKE (the submission's own) functions (pqcrystals_kyber_fips202_ref_shake128_squeezeblocks and pqcrystals_kyber_fips202_ref_shake256) and in randombytes (",
    );
    expect(symmetric).toContain(
      "Survey verdict: SHA-3/SHAKE (the submission's own) functions only — SHA-3/SHAKE (the submission's own) functions",
    );
    expect(symmetric).toContain("shake128_squeezeblocks 16.1");
    expect(md).not.toMatch(/\bICCS\b|placeholder/);
  });

  it("shows calls per operation as mean (min–max) where they vary, with one legend line; a fixed count as today", async () => {
    const md = await render("per-op", (root) => {
      editAll(root, "arm_1", (r) => {
        if (r.kind !== "hash-profile") return;
        ownGroups(r);
        r.calls[0].callsPerOperation = { min: 16, max: 18, median: 16, mean: 16.1, operations: 40 };
        r.calls[1].callsPerOperation = { min: 1, max: 1, median: 1, mean: 1, operations: 40, histogram: [[1, 40]] };
      });
    });
    const symmetric = sectionOf(md, "Symmetric primitives");
    expect(symmetric).toContain("randombytes 1, shake128_squeezeblocks 16.1 (16–18)");
    expect(symmetric).not.toContain("randombytes 1 (");
    expect(symmetric.match(/Calls as mean \(min–max\)/g)).toHaveLength(1);
    expect(symmetric).toContain(
      "Calls as mean (min–max): the number of calls per operation over the 40 operations profiled (for a sampling function: 1 + the rejections).",
    );
  });

  it("no legend line when no call count varies", async () => {
    const md = await render("per-op-fixed", (root) => {
      editAll(root, "arm_1", (r) => {
        if (r.kind !== "hash-profile") return;
        ownGroups(r);
        r.calls[1].callsPerOperation = { min: 1, max: 1, median: 1, mean: 1, operations: 40 };
      });
    });
    expect(sectionOf(md, "Symmetric primitives")).not.toContain("Calls as mean");
  });

  it("words the survey from its recorded groups when no hash profile is in the store", async () => {
    const md = await render("survey-only", (root) => {
      for (const { file, entry } of entries(join(root, "data", "arm_1"), "arm_1"))
        if (entry.kind === "hash-profile") rmSync(file);
      reindex(root);
      ownSurvey(root, RECORDED);
    });
    const symmetric = sectionOf(md, "Symmetric primitives");
    expect(symmetric).toContain("No hash/DRNG profile in the store");
    expect(symmetric).toContain("Survey verdict: SHA-3/SHAKE (the submission's own) functions only —");
    expect(md).not.toMatch(/\bICCS\b|placeholder/);
  });

  it("a record's iccs: true wins over the symbol names (a group marked ICCS)", async () => {
    const md = await render("marked", (root) => {
      editAll(root, "arm_1", (r) => {
        if (r.kind !== "hash-profile") return;
        ownGroups(r);
        r.groups[0].iccs = true;
        r.groups[1].iccs = true;
      });
    });
    expect(sectionOf(md, "Symmetric primitives")).toContain(
      "Share of each operation spent in the ICCS placeholder hash functions and in the ICCS DRNG",
    );
  });

  it("a record's iccs: false wins over ICCS-looking names (randombytes of a submission without iccs)", async () => {
    const md = await render("plain", (root) => {
      editAll(root, "arm_1", (r) => {
        if (r.kind !== "hash-profile") return;
        r.provenance = MEASURED;
        r.groups = r.groups.map((g: Rec) => ({ ...g, iccs: false, kind: g.name === "drng" ? "drng" : "hash" }));
      });
    });
    const symmetric = sectionOf(md, "Symmetric primitives");
    expect(symmetric).not.toContain("ICCS DRNG");
    expect(symmetric).not.toContain("ICCS placeholder hash functions");
  });

  it("words an ICCS group as the placeholders and a submission's own SHA-3 group beside it by its label", async () => {
    const md = await render("iccs-and-own", (root) => {
      editAll(root, "arm_1", (r) => {
        if (r.kind !== "hash-profile") return;
        r.provenance = MEASURED;
        const [hash, drng] = r.groups;
        r.groups = [
          { ...hash, kind: "hash", iccs: true, source: "meta" },
          { ...drng, kind: "drng", iccs: true, source: "meta" },
          {
            name: "sha3",
            label: "SHA-3/SHAKE (the submission's own)",
            kind: "hash",
            iccs: false,
            source: "meta",
            symbols: ["puffin_shake128"],
            share: 0.1,
          },
        ];
      });
    });
    expect(sectionOf(md, "Symmetric primitives")).toContain(
      "Share of each operation spent in the ICCS placeholder hash functions and the SHA-3/SHAKE (the submission's own) functions (puffin_shake128) and in the ICCS DRNG",
    );
  });

  it("names a DRNG group labelled as a function by that name", async () => {
    const md = await render("pqclean-rng", (root) => {
      editAll(root, "arm_1", (r) => {
        if (r.kind !== "hash-profile") return;
        ownGroups(r);
        r.groups[1].symbols = ["PQCLEAN_randombytes"];
      });
    });
    expect(sectionOf(md, "Symmetric primitives")).toContain(" and in randombytes (PQCLEAN_randombytes) (");
  });
});
