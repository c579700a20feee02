import { describe, expect, it } from "vitest";
import { hash32, rng } from "./rng.ts";

describe("the bootstrap's random numbers", () => {
  it("draw the same uint32 sequence for the same seed, another for another seed", () => {
    const take = (seed: number) => {
      const next = rng(seed);
      return Array.from({ length: 8 }, () => next());
    };
    expect(take(1)).toEqual(take(1));
    expect(take(1)).not.toEqual(take(2));
    for (const v of take(3)) {
      expect(Number.isInteger(v)).toBe(true);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(2 ** 32);
    }
  });

  it("are about uniform", () => {
    const next = rng(42);
    const n = 20_000;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += next() / 2 ** 32;
    expect(sum / n).toBeGreaterThan(0.49);
    expect(sum / n).toBeLessThan(0.51);
  });

  it("seed from names by FNV-1a", () => {
    expect(hash32("")).toBe(0x811c9dc5);
    expect(hash32("a")).toBe(0xe40c292c);
    expect(hash32("foobar")).toBe(0xbf9cf968);
  });
});
