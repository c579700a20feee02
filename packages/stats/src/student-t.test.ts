import { describe, expect, it } from "vitest";
import { meanInterval } from "./interval.ts";
import { tQuantile975, Z975 } from "./student-t.ts";

describe("Student-t quantiles", () => {
  it("has the 97.5 % quantile for 1 to 30 degrees of freedom, the normal's beyond", () => {
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(2)).toBe(4.303);
    expect(tQuantile975(9)).toBe(2.262);
    expect(tQuantile975(30)).toBe(2.042);
    expect(tQuantile975(31)).toBe(1.96);
    expect(tQuantile975(0)).toBe(1.96);
    expect(Z975).toBeCloseTo(1.96, 2);
  });

  it("falls with the degrees of freedom towards the normal quantile", () => {
    for (let df = 1; df < 30; df++) expect(tQuantile975(df)).toBeGreaterThan(tQuantile975(df + 1));
    expect(tQuantile975(30)).toBeGreaterThan(Z975);
  });

  it("gives the interval of a mean, a point for a single value", () => {
    const ci = meanInterval(10, 2, 4);
    expect(ci.low).toBeCloseTo(10 - 3.182, 12);
    expect(ci.high).toBeCloseTo(10 + 3.182, 12);
    expect(meanInterval(10, 2, 100, 1.96).high).toBeCloseTo(10 + 1.96 * 0.2, 12);
    expect(meanInterval(7, 0, 1)).toEqual({ low: 7, high: 7 });
  });
});
