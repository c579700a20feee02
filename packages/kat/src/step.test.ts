// The KAT step's plan and resume rule, without building anything: one unit per instance × build profile, its
// job's inputs hashed at plan time, and which records stand on --resume.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCampaign, resolveCampaign, toolchain, writeFileAtomic } from "@ngcc-perf/runner";
import { type InstanceKey, recordPath } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { defineKat, katUnits } from "./step.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const campaign = resolveCampaign(loadCampaign(join(repo, "fixtures/campaigns/demo.yaml")));
const tc = await toolchain(campaign.context);
const out = mkdtempSync(join(tmpdir(), "ngcc-kat-step-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the KAT step's plan", () => {
  const units = katUnits(campaign, tc);
  it("has one unit per instance × build profile, each with one kat job whose inputs are hashed", () => {
    const kem = units.filter((u) => u.key.algorithmId === "kem-90" && "instance" in u.key);
    const profiles = new Set(kem.map((u) => u.key.buildProfile));
    expect([...profiles].sort()).toEqual(["guide", "o2"]);
    expect(units.filter((u) => u.key.algorithmId === "sig-91").every((u) => u.key.buildProfile === "guide")).toBe(true);
    for (const u of units) {
      expect(u.jobs).toEqual([
        { operation: "kat", entry: { kind: "kat", key: u.key }, inputsHash: expect.any(String) },
      ]);
      expect(u.work.build?.flags).toEqual(campaign.profiles[u.key.buildProfile]?.cflags);
    }
  });
  it("names the manifest by its path in the submission, and knows every instance's KAT file", () => {
    const kem = units.find((u) => u.key.algorithmId === "kem-90");
    const expect_ = kem?.work.expect;
    if (!expect_ || "error" in expect_) throw new Error("kem-90 without a KAT plan");
    expect(expect_.manifest?.display).toBe("kem-90/KAT/kat.sha256");
    expect(expect_.manifest?.used?.map((f) => f.split("/kem-90/")[1])).toEqual(
      expect.arrayContaining(["KAT/Puffin-128/PQCkemKAT_1632.rsp", "KAT/Puffin-K-256/PQCkemKAT_3168.rsp"]),
    );
  });
  it("hashes each profile's inputs apart, the same way on every plan", () => {
    const of = (profile: string) =>
      units.find((u) => u.key.algorithmId === "kem-90" && u.key.buildProfile === profile)?.jobs[0]?.inputsHash;
    expect(of("guide")).not.toBe(of("o2"));
    expect(katUnits(campaign, tc).map((u) => u.jobs[0]?.inputsHash)).toEqual(units.map((u) => u.jobs[0]?.inputsHash));
  });
});

describe("the KAT step's resume rule", () => {
  const step = defineKat(campaign, tc, { out });
  const [unit] = katUnits(campaign, tc);
  const job = unit?.jobs[0];
  if (!unit || !job) throw new Error("demo campaign without units");
  const log = recordPath(out, { kind: "kat-log", key: unit.key as InstanceKey });
  const current = (record: unknown) => step.isCurrent?.(record, job);
  it("keeps PASS and FAIL records of the same inputs while their log is there, redoes ERROR and corrupt-kat", () => {
    const rec = { inputsHash: job.inputsHash, verdict: "FAIL" };
    expect(current(rec)).toBe(false); // no log yet
    writeFileAtomic(log, "log\n");
    expect(current(rec)).toBe(true);
    expect(current({ ...rec, verdict: "PASS" })).toBe(true);
    expect(current({ ...rec, verdict: "ERROR" })).toBe(false);
    expect(current({ ...rec, outcome: "output-differs" })).toBe(true);
    expect(current({ ...rec, outcome: "corrupt-kat" })).toBe(false);
    expect(current({ ...rec, inputsHash: "0".repeat(64) })).toBe(false);
    expect(current(null)).toBe(false);
  });
  it("counts a record as failed unless its verdict is PASS", () => {
    expect(step.outcomeOf({ verdict: "PASS", outcome: "match" })).toBeNull();
    expect(step.outcomeOf({ verdict: "FAIL", outcome: "corrupt-kat" })).toMatchObject({ reason: "corrupt-kat" });
    expect(
      step.outcomeOf({ verdict: "ERROR", outcome: "error", error: { reason: "crash", message: "killed" } }),
    ).toEqual({ reason: "crash", message: "ERROR: killed" });
    expect(step.concurrency).toBeGreaterThanOrEqual(1);
  });
});
