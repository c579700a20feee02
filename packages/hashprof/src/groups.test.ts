// The profiler's groups per algorithm: the campaign's (or the defaults), then the submission's meta.json profiler,
// then the campaign's algorithms[].profiler, each added or overriding by name (or replacing); every group says its
// kind, whether it is ICCS and where it came from; labels shortened by the group's common prefix.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InstanceSpec, ResolvedCampaign } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import { commonSymbolPrefix, groupsFor, shortLabels } from "./groups.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-hashprof-groups-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const KYBER = [
  "pqcrystals_kyber_fips202_ref_shake128_absorb_once",
  "pqcrystals_kyber_fips202_ref_shake128_squeezeblocks",
  "pqcrystals_kyber_fips202_ref_shake256",
  "pqcrystals_kyber_fips202_ref_sha3_256",
];

let n = 0;
/** A submission folder with the given meta.json fields, and a campaign naming it. */
function setup(meta: Record<string, unknown>, config: Record<string, unknown> = {}, alg: Record<string, unknown> = {}) {
  const dir = join(tmp, `sub-${n++}`);
  mkdirSync(dir, { recursive: true });
  const json = { name: "X", category: "kem", instances: [], ...meta };
  writeFileSync(join(dir, "meta.json"), JSON.stringify(json));
  const campaign = {
    file: join(tmp, "c.yaml"),
    config: { ...config, algorithms: [{ id: "kem-1", source: { submission: dir }, ...alg }] },
    // As resolveCampaign leaves it: the meta.json read once.
    algorithms: [{ id: "kem-1", meta: { path: join(dir, "meta.json"), json } }],
  } as unknown as ResolvedCampaign;
  const spec = { algorithmId: "kem-1", instance: "X-1", namespace: "", submissionDir: dir } as unknown as InstanceSpec;
  return { campaign, spec, dir };
}

const ICCS_META = { iccs: { header: "iccs.h", hash: ["pseudohash", "pseudoXOF"], drng: ["randombytes"] } };
const DEMO_GROUPS = {
  profiler: {
    groups: {
      hash: { label: "pseudohash/XOF/sm3", symbols: ["pseudohash", "pseudoXOF", "sm3hash"] },
      drng: { symbols: ["randombytes"], symbolLabels: { randombytes: "drng" } },
    },
  },
};

describe("common prefixes", () => {
  it("removes the prefix every symbol of the group shares, at an underscore", () => {
    expect(commonSymbolPrefix(KYBER)).toBe("pqcrystals_kyber_fips202_ref_");
    expect(shortLabels(KYBER, {})).toMatchObject({
      pqcrystals_kyber_fips202_ref_shake128_squeezeblocks: "shake128_squeezeblocks",
      pqcrystals_kyber_fips202_ref_shake256: "shake256",
    });
  });
  it("leaves names alone without a shared prefix, a single symbol, or a prefix that is a whole symbol", () => {
    expect(commonSymbolPrefix(["shake128", "shake128_absorb", "sha3_256"])).toBe("");
    expect(commonSymbolPrefix(["shake128", "shake128_absorb"])).toBe("");
    expect(commonSymbolPrefix(["a_b_c", "a_b_d", "a_b"])).toBe("a_");
    expect(commonSymbolPrefix(["pqcrystals_kyber_fips202_ref_shake256"])).toBe("");
  });
  it("keeps explicit symbolLabels", () => {
    const labels = shortLabels(KYBER, { pqcrystals_kyber_fips202_ref_shake256: "XOF" });
    expect(labels.pqcrystals_kyber_fips202_ref_shake256).toBe("XOF");
    expect(labels.pqcrystals_kyber_fips202_ref_sha3_256).toBe("sha3_256");
  });
});

describe("groups per algorithm", () => {
  it("marks the campaign's ICCS groups ICCS for a submission whose meta.json names ICCS functions", () => {
    const { campaign, spec } = setup(ICCS_META, DEMO_GROUPS);
    const groups = groupsFor(campaign, spec);
    expect(groups.map((g) => [g.name, g.kind, g.iccs, g.source])).toEqual([
      ["hash", "hash", true, "campaign"],
      ["drng", "drng", true, "campaign"],
    ]);
    expect(groups[1]?.symbolLabels).toEqual({ randombytes: "drng" });
  });

  it("never calls randombytes ICCS for a submission without iccs", () => {
    const { campaign, spec } = setup({}, DEMO_GROUPS);
    expect(groupsFor(campaign, spec).map((g) => g.iccs)).toEqual([false, false]);
    const plain = setup({ iccs: null });
    expect(groupsFor(plain.campaign, plain.spec)).toEqual([
      {
        name: "drng",
        label: "randombytes",
        symbols: ["randombytes"],
        symbolLabels: {},
        kind: "drng",
        iccs: false,
        source: "default",
      },
    ]);
  });

  it("adds the meta.json groups, overrides by name, and the campaign's algorithm groups win over both", () => {
    const meta = {
      profiler: {
        groups: {
          sha3: { label: "SHA-3/SHAKE (the submission's own)", symbols: KYBER },
          drng: { symbols: ["randombytes"], label: "randombytes" },
        },
      },
    };
    const alg = { profiler: { groups: { aes: { symbols: ["AES256_ECB"], kind: "other" } } } };
    const { campaign, spec } = setup(meta, DEMO_GROUPS, alg);
    const groups = groupsFor(campaign, spec);
    expect(groups.map((g) => [g.name, g.kind, g.iccs, g.source])).toEqual([
      ["hash", "hash", false, "campaign"],
      ["drng", "drng", false, "meta"],
      ["sha3", "hash", false, "meta"],
      ["aes", "other", false, "algorithm"],
    ]);
    expect(groups[2]?.symbolLabels.pqcrystals_kyber_fips202_ref_shake128_squeezeblocks).toBe("shake128_squeezeblocks");
  });

  it("replaces the campaign's groups when asked, and a group may be marked ICCS", () => {
    const meta = {
      ...ICCS_META,
      profiler: {
        replaceCampaignGroups: true,
        groups: { hash: { symbols: ["my_xof"], iccs: true }, rng: { symbols: ["my_rng"], kind: "drng" } },
      },
    };
    const { campaign, spec } = setup(meta, DEMO_GROUPS);
    expect(groupsFor(campaign, spec).map((g) => [g.name, g.kind, g.iccs, g.source])).toEqual([
      ["hash", "hash", true, "meta"],
      ["rng", "drng", false, "meta"],
    ]);
  });

  it("refuses a misspelled group field in meta.json, naming the file and the pointer", () => {
    const { campaign, spec, dir } = setup({ profiler: { groups: { hash: { symbol: ["x"] } } } });
    expect(() => groupsFor(campaign, spec)).toThrow(
      `${join(dir, "meta.json")}: /profiler/groups/hash/symbol: unknown field; expected one of symbols, label, symbolLabels, kind, iccs`,
    );
  });
});

describe("names that would collide", () => {
  it("keeps a symbol's full name when its short name is another group's symbol", () => {
    const P = "PQCLEAN_MLKEM768_CLEAN_kyber_";
    const alg = {
      profiler: { groups: { kyber: { symbols: [`${P}shake128_absorb`, `${P}shake256_prf`, `${P}shake256_rkprf`] } } },
    };
    const { campaign, spec } = setup({}, { profiler: { groups: { hash: { symbols: ["shake128_absorb"] } } } }, alg);
    const kyber = groupsFor(campaign, spec).find((g) => g.name === "kyber");
    expect(kyber?.symbolLabels).toEqual({
      [`${P}shake256_prf`]: "shake256_prf",
      [`${P}shake256_rkprf`]: "shake256_rkprf",
    });
  });
});
