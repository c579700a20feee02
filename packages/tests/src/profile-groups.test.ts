// Profiler groups per algorithm, end to end (real gcc builds): PQClean's ML-KEM-768 with the defaults plus a group of
// its own from the campaign's algorithms[].profiler (its namespaced SHAKE wrappers); `ngcc-perf run --steps
// kat,profile,report`. The records say which groups applied and where each came from, the calls column shows the
// wrappers without their common prefix (unless the short name is another group's symbol), and the page says
// nothing of ICCS (a PQClean scheme has none).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HashProfileRecord, recordPath, type SurveyRecord } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "./fixture-tools.ts";

const tmp = makeTempDir("ngcc-profile-groups-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const system = "x86_1";
const P = "PQCLEAN_MLKEM768_CLEAN_kyber_";
const KYBER = [`${P}shake128_absorb`, `${P}shake256_prf`, `${P}shake256_rkprf`];
const out = join(tmp, "out");
const campaign = join(tmp, "groups.yaml");

const profileOf = (operation: string) =>
  JSON.parse(
    readFileSync(
      recordPath(out, {
        kind: "hash-profile",
        key: { system, algorithmId: "ml-kem-768", instance: "ml-kem-768", buildProfile: "guide", operation },
      }),
      "utf8",
    ),
  ) as HashProfileRecord;

let run: ReturnType<typeof runCli>;
beforeAll(() => {
  writeFileSync(
    campaign,
    [
      "name: groups",
      `system: ${system}`,
      "timing: { trials: 2, minIterations: 3, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
      "algorithms:",
      "  - id: ml-kem-768",
      "    name: ML-KEM-768",
      "    source: { pqclean: ml-kem-768 }",
      "    profiler:",
      "      groups:",
      `        kyber: { label: ML-KEM SHAKE wrappers, symbols: [${KYBER.join(", ")}] }`,
      "",
    ].join("\n"),
  );
  run = runCli(["run", campaign, "--out", out, "--steps", "kat,profile,report"]);
}, 900_000);

describe("groups per algorithm", () => {
  it("runs: KAT, profile and the report", () => {
    expect(run.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
    expect(run.code).toBe(0);
  });

  it("records the groups that applied, their kind, iccs and source", () => {
    const r = profileOf("keygen");
    expect(r.status).toBe("ok");
    expect(r.groups?.map((g) => [g.name, g.kind, g.iccs, g.source])).toEqual([
      ["hash", "hash", false, "default"],
      ["drng", "drng", false, "default"],
      ["kyber", "hash", false, "algorithm"],
    ]);
  });

  it("shows the group's symbols without their common prefix, unless that reads as another symbol", () => {
    const r = profileOf("keygen");
    // keygen: six PRF calls for s and e (k = 3), nine matrix entries absorbed.
    const prf = r.calls?.find((c) => c.symbol === `${P}shake256_prf`);
    expect(prf?.label).toBe("shake256_prf");
    expect(prf?.meanPerOperation).toBe(6);
    // shake128_absorb is a symbol of the fips202/sha2 group: the wrapper keeps its name.
    const absorb = r.calls?.find((c) => c.symbol === `${P}shake128_absorb`);
    expect(absorb?.label).toBeUndefined();
    expect(absorb?.meanPerOperation).toBe(9);
  });

  it("the survey names its groups and words its findings without placeholders", () => {
    const s = JSON.parse(
      readFileSync(
        recordPath(out, { kind: "survey", key: { system, algorithmId: "ml-kem-768", buildProfile: "guide" } }),
        "utf8",
      ),
    ) as SurveyRecord;
    expect(s.automatic?.groups?.map((g) => [g.name, g.source])).toEqual([
      ["hash", "default"],
      ["drng", "default"],
      ["kyber", "algorithm"],
    ]);
    expect(s.automatic?.text).not.toMatch(/ICCS|placeholder/);
  });

  it("the page carries no ICCS words and names the groups by their labels", () => {
    const md = readFileSync(join(out, "site", system, "ml-kem-768.md"), "utf8");
    const start = md.indexOf("## Symmetric primitives");
    const symmetric = md.slice(start, md.indexOf("\n## ", start + 3));
    expect(symmetric).toContain("the ML-KEM SHAKE wrappers functions");
    expect(symmetric).toContain("shake256_prf 6");
    expect(symmetric).not.toContain(`${P}shake256_prf 6`);
    expect(symmetric).toContain(`${P}shake128_absorb 9`);
    expect(symmetric).toMatch(/[ ,]shake128_absorb 9/);
    expect(md).not.toMatch(/\bICCS\b|placeholder/);
  });
});
