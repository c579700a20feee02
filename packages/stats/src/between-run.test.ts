import { describe, expect, it } from "vitest";
import { betweenRunComponent, ratioWithBetweenRun, withBetweenRun } from "./between-run.ts";
import { sd } from "./quantile.ts";
import { tQuantile975 } from "./student-t.ts";

const exact = (values: number[]) => values.map((value) => ({ value, halfWidth: 0 }));

describe("betweenRunComponent", () => {
  it("is the sd of the sessions' figures relative to their mean when the sessions have no within-run noise", () => {
    const c = betweenRunComponent([exact([100, 110, 90, 100])]);
    expect(c.relativeSd).toBeCloseTo(sd([1, 1.1, 0.9, 1]), 12);
    expect(c).toMatchObject({ df: 3, sessions: 4, operations: 1 });
  });

  it("takes off the variance the within-run noise alone gives a session's figure, floored at zero", () => {
    const t = tQuantile975(3);
    // Each session's within-run sd is 5 % of its figure: half-width t · √2 · 0.05 · value.
    const noisy = [100, 110, 90, 100].map((value) => ({ value, halfWidth: t * Math.SQRT2 * 0.05 * value }));
    const observed = sd([1, 1.1, 0.9, 1]) ** 2;
    const within = [100, 110, 90, 100].reduce((a) => a + 0.05 ** 2, 0) / 4;
    expect(betweenRunComponent([noisy]).relativeSd).toBeCloseTo(Math.sqrt(observed - within), 12);
    // Sessions that agree better than their own noise says: no between-run component.
    const wide = [100, 101, 99].map((value) => ({ value, halfWidth: 0.5 * value }));
    expect(betweenRunComponent([wide]).relativeSd).toBe(0);
  });

  it("pools the operations' variances and keeps sessions − 1 degrees of freedom", () => {
    const c = betweenRunComponent([exact([100, 120]), exact([50, 50])]);
    const a = sd([100 / 110, 120 / 110]) ** 2;
    expect(c.relativeSd).toBeCloseTo(Math.sqrt((a + 0) / 2), 12);
    expect(c).toMatchObject({ df: 1, sessions: 2, operations: 2 });
  });

  it("refuses fewer than 2 sessions, operations with different session counts and figures that are not positive", () => {
    expect(() => betweenRunComponent([])).toThrow(/no operations/);
    expect(() => betweenRunComponent([exact([1])])).toThrow(/at least 2 sessions/);
    expect(() => betweenRunComponent([exact([1, 2]), exact([1, 2, 3])])).toThrow(/every session/);
    expect(() => betweenRunComponent([exact([0, 0])])).toThrow(/not positive/);
  });
});

describe("withBetweenRun", () => {
  it("adds t(df) · √2 · sd · value to the within-run half-width in quadrature", () => {
    const between = tQuantile975(7) * Math.SQRT2 * 0.01 * 100;
    expect(withBetweenRun(3, 100, { relativeSd: 0.01, df: 7 })).toBeCloseTo(Math.sqrt(9 + between ** 2), 12);
    expect(withBetweenRun(3, 100, { relativeSd: 0, df: 7 })).toBe(3);
  });
});

describe("ratioWithBetweenRun", () => {
  it("adds t(min df) · √(σ_A² + σ_B²) to each end's log distance from the ratio, in quadrature", () => {
    const e = tQuantile975(4) * Math.sqrt(0.02 ** 2 + 0.01 ** 2);
    const ci = ratioWithBetweenRun(
      1.1,
      { low: 1.1 * Math.exp(-0.03), high: 1.1 * Math.exp(0.04) },
      { relativeSd: 0.02, df: 7 },
      { relativeSd: 0.01, df: 4 },
    );
    expect(Math.log(ci.low / 1.1)).toBeCloseTo(-Math.sqrt(0.03 ** 2 + e ** 2), 12);
    expect(Math.log(ci.high / 1.1)).toBeCloseTo(Math.sqrt(0.04 ** 2 + e ** 2), 12);
  });

  it("leaves an interval it cannot take the log of as it is", () => {
    const c = { relativeSd: 0.1, df: 3 };
    expect(ratioWithBetweenRun(0, { low: 0, high: 1 }, c, c)).toEqual({ low: 0, high: 1 });
  });
});
