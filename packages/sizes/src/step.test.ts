// The sizes step's plan: one unit per algorithm × build profile, each with one job (its size-audit record)
// and the inputs hash known before anything runs; the selection rule; the outcome of an audit. No C is
// compiled here (printparams' inputs are hashed, not built); the end-to-end runs are in packages/tests.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCampaign, resolveCampaign, selectUnits, toolchain } from "@ngcc-perf/runner";
import { type InstanceKey, recordPath, relativeRecordPath } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { auditOutcome, loadCatalog, sizesUnits } from "./step.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const tmp = mkdtempSync(join(tmpdir(), "ngcc-sizes-step-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function campaignFile(o0Flags: string): string {
  const file = join(tmp, `c-${Math.random().toString(36).slice(2)}.yaml`);
  const sub = (id: string) => JSON.stringify(join(repo, "fixtures/submissions", id));
  writeFileSync(
    file,
    [
      "name: two-profiles",
      "system: t_1",
      `iccs: { dir: ${JSON.stringify(join(repo, "fixtures/iccs"))} }`,
      "buildProfiles:",
      '  guide: { cflags: ["-O3"] }',
      `  o0: { cflags: ${o0Flags} }`,
      "algorithms:",
      `  - { id: kem-90, instances: [Puffin-128, Puffin-192], buildProfiles: [guide, o0], source: { submission: ${sub("kem-90")} } }`,
      `  - { id: sig-91, buildProfiles: [o0, guide], source: { submission: ${sub("sig-91")} } }`,
    ].join("\n"),
  );
  return file;
}

async function plan(out: string, o0Flags = '["-O0"]') {
  const campaign = resolveCampaign(loadCampaign(campaignFile(o0Flags)));
  return sizesUnits(campaign, await toolchain(campaign.context), out, loadCatalog(campaign));
}

const hashOf = (units: Awaited<ReturnType<typeof plan>>, alg: string, profile: string) =>
  units.find((u) => u.key.algorithmId === alg && u.key.buildProfile === profile)?.jobs[0]?.inputsHash;

describe("the sizes step's plan", () => {
  it("has one unit per algorithm × build profile, each with one size-audit job at its layout path", async () => {
    const units = await plan(join(tmp, "out-a"));
    expect(units.map((u) => [u.key.algorithmId, u.key.buildProfile])).toEqual([
      ["kem-90", "guide"],
      ["kem-90", "o0"],
      ["sig-91", "o0"],
      ["sig-91", "guide"],
    ]);
    for (const u of units) {
      expect(u.jobs).toHaveLength(1);
      const [job] = u.jobs;
      expect(job?.operation).toBe("sizes");
      expect(job?.inputsHash).toMatch(/^[0-9a-f]{64}$/);
      expect(job?.entry && relativeRecordPath(job.entry)).toBe(`sizes/${u.key.algorithmId}/${u.key.buildProfile}.json`);
    }
    expect(units[0]?.work.specs.map((s) => s.instance)).toEqual(["Puffin-128", "Puffin-192"]);
    // Puffin-256 is left out by the campaign's selection but known, so a catalog row for it is not "unknown".
    expect(units[0]?.work.knownInstances).toContain("Puffin-256");
  });

  it("selects an algorithm unit when any of its instances matches --only, and keeps all its instances", async () => {
    const units = await plan(join(tmp, "out-b"));
    const picked = (only: string[]) =>
      selectUnits(units, { out: tmp, only }).map((u) => `${u.key.algorithmId}/${u.key.buildProfile}`);
    expect(picked(["Puffin-19*"])).toEqual(["kem-90/guide", "kem-90/o0"]);
    expect(picked(["sig-91"])).toEqual(["sig-91/o0", "sig-91/guide"]);
    expect(picked(["sig-91/Quill-V-192"])).toEqual(["sig-91/o0", "sig-91/guide"]);
    expect(picked(["nothing"])).toEqual([]);
    expect(units.filter((u) => u.key.algorithmId === "sig-91").map((u) => u.work.specs.length)).toEqual([2, 2]);
  });

  it("hashes the KAT and timing records of its own build profile only", async () => {
    const out = join(tmp, "out-c");
    const before = await plan(out);
    const key: InstanceKey = { system: "t_1", algorithmId: "sig-91", instance: "Quill-V-192", buildProfile: "o0" };
    const put = (path: string, value: unknown) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify(value));
    };
    put(recordPath(out, { kind: "kat", key }), { kind: "kat", lengths: {} });
    const afterKat = await plan(out);
    expect(hashOf(afterKat, "sig-91", "o0")).not.toBe(hashOf(before, "sig-91", "o0"));
    expect(hashOf(afterKat, "sig-91", "guide")).toBe(hashOf(before, "sig-91", "guide"));
    expect(hashOf(afterKat, "kem-90", "o0")).toBe(hashOf(before, "kem-90", "o0"));
    put(recordPath(out, { kind: "timing", key: { ...key, operation: "sign" } }), { status: "ok" });
    const afterTiming = await plan(out);
    expect(hashOf(afterTiming, "sig-91", "o0")).not.toBe(hashOf(afterKat, "sig-91", "o0"));
    expect(
      afterTiming.find((u) => u.key.buildProfile === "o0" && u.key.algorithmId === "sig-91")?.work.measured[1]?.files,
    ).toHaveLength(2);
    // The same store planned again gives the same hashes (what --resume compares).
    expect((await plan(out)).map((u) => u.jobs[0]?.inputsHash)).toEqual(afterTiming.map((u) => u.jobs[0]?.inputsHash));
  });

  it("hashes the profile's -D/-U flags, which may change api.h, and not its other flags", async () => {
    const out = join(tmp, "out-d");
    const base = await plan(out);
    expect(hashOf(await plan(out, '["-O1"]'), "kem-90", "o0")).toBe(hashOf(base, "kem-90", "o0"));
    const defined = await plan(out, '["-O0", "-DPUFFIN_OWN_KECCAK"]');
    expect(hashOf(defined, "kem-90", "o0")).not.toBe(hashOf(base, "kem-90", "o0"));
    expect(hashOf(defined, "kem-90", "guide")).toBe(hashOf(base, "kem-90", "guide"));
  });
});

describe("auditOutcome", () => {
  const record = (instances: unknown[], findings: unknown[] = []) => ({ algorithmId: "kem-90", instances, findings });

  it("is a failure when an instance's api.h could not be read or a measured length exceeds the API's", () => {
    expect(
      auditOutcome(record([{ instance: "P-1" }], [{ instance: "P-1", kind: "catalog-differs-from-api" }])),
    ).toBeNull();
    expect(
      auditOutcome(
        record([
          { instance: "P-1" },
          { instance: "P-2", failure: { reason: "compile-error", message: "reading kem-90/P-2 failed\nstderr" } },
        ]),
      ),
    ).toEqual({ reason: "compile-error", message: "kem-90/P-2: reading kem-90/P-2 failed" });
    expect(
      auditOutcome(
        record([{ instance: "P-1" }], [{ instance: "P-1", kind: "measured-exceeds-api", field: "ciphertextBytes" }]),
      ),
    ).toEqual({ reason: "measured-exceeds-api", message: "kem-90/P-1: measured ciphertextBytes exceeds the API's" });
  });
});
