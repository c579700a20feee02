import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputError, loadCampaign } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import type { AnalysedObject } from "./build.ts";
import { profileFigures } from "./figures.ts";
import { NGCC_DEFAULT_GROUPS } from "./groups.ts";
import type { GroupSpec } from "./objects.ts";
import { curatedNotes, findingOf, verdictOf } from "./survey.ts";

const work = mkdtempSync(join(tmpdir(), "ngcc-hashprof-survey-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const o = (object: string, x: Partial<AnalysedObject>): AnalysedObject => ({
  object,
  source: object.replace(/\.o$/, ".c"),
  role: "instance",
  defined: [],
  locals: [],
  undefined: [],
  edges: [],
  fingerprints: [],
  entropySources: [],
  ...x,
});
const noBlind = { wrap: [], definedIn: {}, blindSpots: [] };

describe("survey verdicts", () => {
  it("ICCS-only, mixed, bypass", () => {
    expect(verdictOf(0, 2)).toBe("ICCS-only");
    expect(verdictOf(1, 2)).toBe("mixed");
    expect(verdictOf(1, 0)).toBe("bypass");
  });

  it("names own primitives and shims from the instance's objects only", () => {
    const f = findingOf(
      "X-128",
      {
        defines: [],
        interception: noBlind,
        objects: [
          o("kem.o", {
            defined: ["crypto_kem_keypair", "x_shake256"],
            undefined: ["pseudoXOF", "randombytes", "x_keccak_absorb"],
            edges: [
              { caller: "x_shake256", callee: "pseudoXOF" },
              { caller: "crypto_kem_keypair", callee: "randombytes" },
              { caller: "crypto_kem_keypair", callee: "x_keccak_absorb" },
            ],
          }),
          o("keccak.o", {
            defined: ["x_keccak_absorb"],
            fingerprints: [{ primitive: "Keccak-f[1600]", evidence: "Keccak round constants (12 of 12)" }],
          }),
          o("sm3.o", {
            role: "support",
            defined: ["sm3hash"],
            fingerprints: [{ primitive: "SM3", evidence: "SM3 initial value (8 of 8)" }],
          }),
        ],
      },
      NGCC_DEFAULT_GROUPS,
    );
    expect(f.verdict).toBe("mixed");
    expect(f.placeholders).toEqual(["pseudoXOF"]);
    expect(f.drng).toEqual(["randombytes"]);
    expect(f.shims).toEqual([{ symbol: "x_shake256", forwardsTo: "pseudoXOF" }]);
    expect(f.ownPrimitives.map((p) => p.name)).toEqual(["Keccak-f[1600]"]);
    expect(f.ownPrimitives[0]?.evidence).toContain("Keccak round constants");
  });
});

describe("curated notes", () => {
  const campaignWith = (notes: string) => {
    writeFileSync(join(work, "notes.yaml"), notes);
    const file = join(work, "c.yaml");
    writeFileSync(
      file,
      [
        "name: t",
        "system: x86_1",
        "profiler:",
        "  notes: notes.yaml",
        "  groups: { hash: { symbols: [pseudoXOF] } }",
        "algorithms:",
        "  - { id: kem-90, source: { submission: nowhere }, surveyNotes: from the campaign }",
        "",
      ].join("\n"),
    );
    return loadCampaign(file);
  };
  it("reads the notes file over the campaign's surveyNotes", () => {
    const n = curatedNotes(campaignWith("kem-90: { verdict: mixed, text: own AES for matrix A }\n"));
    expect(n.get("kem-90")).toMatchObject({ verdict: "mixed", text: "own AES for matrix A" });
    expect(n.get("kem-90")?.source).toMatch(/notes\.yaml$/);
  });
  it("rejects a bad verdict naming the file and the key", () => {
    const c = campaignWith("kem-90: { verdict: maybe }\n");
    expect(() => curatedNotes(c)).toThrow(InputError);
    expect(() => curatedNotes(c)).toThrow(/notes\.yaml: \/kem-90\/verdict: expected one of ICCS-only, mixed, bypass/);
  });
});

describe("profile figures", () => {
  it("shares from the wrapper clock, calls as means over every iteration", () => {
    const fig = profileFigures(
      {
        trials: [
          { iterations: 10, counterDelta: 0, ns: 1000 },
          { iterations: 10, counterDelta: 0, ns: 1000 },
        ],
        profile: {
          clock: "rdtsc",
          totalTicks: 4000,
          groups: [
            { name: "hash", ticks: 3120, outer: 410 },
            { name: "drng", ticks: 40, outer: 40 },
          ],
          symbols: [
            { name: "pseudoXOF", group: "hash", outer: 410, nested: 0, ticks: 3120 },
            { name: "randombytes", group: "drng", outer: 40, nested: 0, ticks: 40 },
            { name: "sm3hash", group: "hash", outer: 0, nested: 0, ticks: 0 },
          ],
        },
      },
      [{ iterations: 20, counterDelta: 0, ns: 1900 }],
      NGCC_DEFAULT_GROUPS,
    );
    expect(fig.totalNsPerOp).toBe(100);
    expect(fig.unprofiledNsPerOp).toBe(95);
    expect(fig.wrapperOverhead).toBeCloseTo(100 / 95 - 1, 12);
    expect(fig.groups?.map((g) => [g.name, g.share])).toEqual([
      ["hash", 0.78],
      ["drng", 0.01],
    ]);
    expect(fig.calls).toEqual([
      { symbol: "pseudoXOF", group: "hash", meanPerOperation: 20.5, nsPerOp: 78 },
      { symbol: "randombytes", group: "drng", label: "drng", meanPerOperation: 2, nsPerOp: 1 },
    ]);
  });
});

describe("the survey's placeholders follow the groups", () => {
  it("beside ICCS groups, a submission's own SHA-3 group is its own code, not a placeholder", () => {
    const [hash, drng] = NGCC_DEFAULT_GROUPS as [GroupSpec, GroupSpec];
    const sha3: GroupSpec = { name: "sha3", symbols: ["x_shake256"], symbolLabels: {}, kind: "hash", iccs: false };
    const groups: GroupSpec[] = [{ ...hash, kind: "hash", iccs: true }, sha3, { ...drng, kind: "drng", iccs: true }];
    const f = findingOf(
      "X-128",
      {
        defines: [],
        interception: noBlind,
        objects: [
          o("kem.o", { defined: ["crypto_kem_keypair"], undefined: ["pseudoXOF", "x_shake256"] }),
          o("keccak.o", {
            defined: ["x_shake256"],
            fingerprints: [{ primitive: "Keccak-f[1600]", evidence: "Keccak round constants (12 of 12)" }],
          }),
        ],
      },
      groups,
    );
    expect(f.placeholders).toEqual(["pseudoXOF"]);
    expect(f.verdict).toBe("mixed");
  });
});
