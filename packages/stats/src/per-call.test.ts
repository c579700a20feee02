import { describe, expect, it } from "vitest";
import { perCallCounter, perCallNs } from "./per-call.ts";

describe("perCallNs", () => {
  it("divides by the batch and the rate", () => {
    expect(perCallNs({ counterDeltas: [4000, 6000] }, 2, { unit: "tsc-ticks", rateHz: 2e9 })).toEqual([1000, 1500]);
  });
  it("needs no rate for a counter in ns", () => {
    expect(perCallNs({ counterDeltas: [1000, 1002] }, 4, { unit: "ns", rateHz: null })).toEqual([250, 250.5]);
  });
  it("converts core cycles at a fixed clock", () => {
    expect(perCallNs({ counterDeltas: [3000] }, 1, { unit: "core-cycles", rateHz: 3e9 })).toEqual([1000]);
  });
  it("refuses a counter that cannot give ns, and a bad batch", () => {
    expect(() => perCallNs({ counterDeltas: [1] }, 1, { unit: "instructions", rateHz: null })).toThrow(/rateHz/);
    expect(() => perCallNs({ counterDeltas: [1] }, 0, { unit: "ns", rateHz: null })).toThrow(/batch/);
    expect(perCallCounter({ counterDeltas: [10, 12] }, 2)).toEqual([5, 6]);
  });
});
