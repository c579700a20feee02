// The comparison's statistics (bootstrap interval, verdicts, pairing) on stores made in memory; the end-to-end
// command over real timing stores is packages/tests/src/compare.test.ts.
import type { InstructionsRecord, TimingRecord } from "@ngcc-perf/schema";
import { describe, expect, it } from "vitest";
import { alignedTable, compareStores, ratioInterval, rng, sideOf, verdictOf } from "./compare-stores.ts";
import type { LoadedStore, SystemStore } from "./load.ts";

/** Per-call values of `workers` workers around `center`, with a worker-to-worker offset and noise (seeded). */
function workers(center: number, count: number, perWorker: number, seed: number): number[][] {
  const next = rng(seed);
  const u = () => next() / 4294967296;
  return Array.from({ length: count }, () => {
    const offset = center * 0.01 * (u() - 0.5);
    return Array.from({ length: perWorker }, () => center + offset + center * 0.05 * u() ** 3);
  });
}

describe("the bootstrap interval of a ratio", () => {
  it("contains 1 for a side compared with itself, and is the same for the same seed", () => {
    const a = sideOf(workers(1000, 6, 300, 7), [0, 16, 32, 0, 16, 32]);
    const ci = ratioInterval(a, a, "median", 500, 3);
    expect(ci.low).toBeLessThanOrEqual(1);
    expect(ci.high).toBeGreaterThanOrEqual(1);
    expect(ratioInterval(a, a, "median", 500, 3)).toEqual(ci);
    expect(verdictOf(ci, 0.05)).toBe("same");
  });

  it("lies around the true ratio when B is 30 % slower (median and mean)", () => {
    const a = sideOf(workers(1000, 4, 400, 1));
    const b = sideOf(workers(1300, 4, 400, 2));
    for (const statistic of ["median", "mean"] as const) {
      const ci = ratioInterval(a, b, statistic, 400, 5);
      expect(ci.low).toBeGreaterThan(1.2);
      expect(ci.high).toBeLessThan(1.4);
      expect(verdictOf(ci, 0.05)).toBe("slower");
      expect(verdictOf(ratioInterval(b, a, statistic, 400, 5), 0.05)).toBe("faster");
    }
  });

  it("is wider when the workers disagree than the pooled samples alone would say", () => {
    const spread = [[...Array(200)].map(() => 1000), [...Array(200)].map(() => 1100)];
    const ci = ratioInterval(sideOf(spread), sideOf(spread), "median", 400, 9);
    // Two workers 10 % apart: a resample may hold either one twice.
    expect(ci.high - ci.low).toBeGreaterThan(0.1);
  });
});

describe("sideOf", () => {
  it("draws workers within their code layout only when they outnumber the layouts by two or more", () => {
    const w = workers(1000, 6, 10, 4);
    expect(sideOf(w, [0, 16, 32, 0, 16, 32]).strata).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
    expect(sideOf(w.slice(0, 5), [0, 16, 32, 48, 0]).strata).toEqual([[0, 1, 2, 3, 4]]);
    expect(sideOf(w, [0, 16, 32, 48, 0, 16]).strata).toEqual([[0, 4], [1, 5], [2], [3]]);
    const side = sideOf([[3, 1], [2]]);
    expect([...side.values]).toEqual([1, 2, 3]);
    expect([...side.worker]).toEqual([0, 1, 0]);
  });
});

describe("verdicts", () => {
  it("says slower or faster only when the whole interval lies beyond the band", () => {
    expect(verdictOf({ low: 1.06, high: 1.2 }, 0.05)).toBe("slower");
    expect(verdictOf({ low: 1.03, high: 1.2 }, 0.05)).toBe("same");
    expect(verdictOf({ low: 1.01, high: 1.03 }, 0.05)).toBe("same");
    expect(verdictOf({ low: 0.8, high: 0.94 }, 0.05)).toBe("faster");
    expect(verdictOf({ low: 0.8, high: 0.96 }, 0.05)).toBe("same");
    expect(verdictOf({ low: 0.9, high: 1.1 }, 0)).toBe("same");
  });
});

function instr(instance: string, operation: string, perCall: number, status: "ok" | "failed" = "ok") {
  return {
    kind: "instructions",
    algorithmId: "kem-1",
    instance,
    buildProfile: "guide",
    operation,
    status,
    ...(status === "ok" ? { instructionsPerCall: perCall } : {}),
  } as unknown as InstructionsRecord;
}

function store(root: string, records: InstructionsRecord[], timings: TimingRecord[] = []): LoadedStore {
  const pathOf = new Map<object, string>();
  for (const r of records) pathOf.set(r, `instructions/kem-1/guide/${r.instance}__${r.operation}.json`);
  const system = { system: "x86_1", timings, instructions: records, pathOf } as unknown as SystemStore;
  return { root, systems: [system] };
}

describe("compareStores", () => {
  it("compares instruction counts exactly, lists one-sided and failed measurements, gates on a rise", () => {
    const a = store("/a", [instr("P-1", "enc", 1000), instr("P-1", "dec", 2000), instr("P-1", "keygen", 10)]);
    const b = store("/b", [
      instr("P-1", "enc", 1001),
      instr("P-1", "dec", 2000),
      instr("P-1", "keygen", 0, "failed"),
      instr("P-2", "enc", 5),
    ]);
    const c = compareStores(a, b, { a: "A", b: "B" });
    expect(c.instructions.map((x) => [x.key.operation, x.verdict])).toEqual([
      ["enc", "more"],
      ["dec", "same"],
    ]);
    expect(c.unmatched.map((u) => [u.key.instance, u.key.operation, u.where])).toEqual([
      ["P-1", "keygen", "failed-b"],
      ["P-2", "enc", "only-b"],
    ]);
    // One instruction more in 1000 is within the 5 % band: no gate; 10 % more is.
    expect(c.regressed).toBe(false);
    const worse = compareStores(a, store("/c", [instr("P-1", "enc", 1100)]), { a: "A", b: "C" });
    expect(worse.regressed).toBe(true);
    expect(compareStores(a, a, { a: "A", b: "A" }).instructions.every((x) => x.verdict === "same")).toBe(true);
  });

  it("pairs two build profiles of one store with --profiles", () => {
    const o2 = { ...instr("P-1", "enc", 900), buildProfile: "o2" } as InstructionsRecord;
    const s = store("/s", [instr("P-1", "enc", 1000), o2]);
    const c = compareStores(s, s, { a: "S", b: "S" }, { profiles: { a: "guide", b: "o2" } });
    expect(c.instructions).toHaveLength(1);
    expect(c.instructions[0]).toMatchObject({ a: 1000, b: 900, verdict: "fewer" });
    expect(c.unmatched).toEqual([]);
  });
});

describe("alignedTable", () => {
  it("pads every column and right-aligns the numeric ones", () => {
    const t = alignedTable(
      ["name", "x"],
      [
        ["a", "1.5"],
        ["long name", "10.25"],
      ],
      [1],
    );
    expect(t.split("\n")).toEqual(["name           x", "---------  -----", "a            1.5", "long name  10.25"]);
  });
});
