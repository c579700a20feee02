// inputDependence: the decision of the published statistic from per-call instruction counts, on hand-made
// records on both sides of the threshold.
import { describe, expect, it } from "vitest";
import { INPUT_DEPENDENCE_THRESHOLD, inputDependence } from "./input-dependence.ts";

const rec = (instructions: number[]) =>
  ({
    status: "ok",
    perCall: {
      instructions,
      min: Math.min(...instructions),
      max: Math.max(...instructions),
      median: 0,
    },
  }) as const;

describe("inputDependence", () => {
  it("states its threshold: 10 %", () => {
    expect(INPUT_DEPENDENCE_THRESHOLD).toBe(0.1);
  });

  it("work that varies by a fraction of a percent (ML-KEM's matrix expansion) is not input-dependent", () => {
    const d = inputDependence(rec([602_022, 601_510, 602_942, 601_800]));
    expect(d).toEqual({
      inputDependent: false,
      relativeSpread: (602_942 - 601_510) / ((601_800 + 602_022) / 2),
      minInstructions: 601_510,
      maxInstructions: 602_942,
      calls: 4,
      threshold: 0.1,
    });
  });

  it("work that varies by multiples (a signing loop that starts over) is input-dependent", () => {
    const d = inputDependence(rec([3_671_643, 23_677_250, 7_300_000, 3_700_000, 11_000_000]));
    expect(d?.inputDependent).toBe(true);
    expect(d?.relativeSpread).toBeCloseTo((23_677_250 - 3_671_643) / 7_300_000, 12);
    expect(d?.calls).toBe(5);
  });

  it("decides at the threshold: a spread of exactly 10 % is not more than it; just above is", () => {
    expect(inputDependence(rec([1000, 1000, 1100]))?.inputDependent).toBe(false); // (1100 − 1000) / 1000 = 0.1
    expect(inputDependence(rec([1000, 1000, 1101]))?.inputDependent).toBe(true);
    // Another threshold when given.
    expect(inputDependence(rec([1000, 1000, 1050]), 0.01)?.inputDependent).toBe(true);
    // Identical counts: spread 0.
    expect(inputDependence(rec([7, 7, 7]))).toMatchObject({ relativeSpread: 0, inputDependent: false });
  });

  it("no decision from a failed record or one without per-call counts", () => {
    expect(inputDependence({ status: "failed" })).toBeNull();
    expect(inputDependence({ status: "ok" })).toBeNull();
    expect(inputDependence({ status: "ok", perCall: { instructions: [], min: 0, max: 0, median: 0 } })).toBeNull();
  });
});
