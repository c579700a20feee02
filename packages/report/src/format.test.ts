import { describe, expect, it } from "vitest";
import {
  formatCalls,
  formatCallsN,
  formatCompiler,
  formatCount,
  formatCounter,
  formatDeviation,
  formatFixed,
  formatG,
  formatGHz,
  formatHalfWidth,
  formatKiB,
  formatN,
  formatOpsPerSecond,
  formatPercent,
  formatRatio,
  formatShare,
  formatSmt,
  formatTime,
  formatTimeRange,
  formatUtc,
} from "./format.ts";

describe("number formatting (design brief, report rules read off the seed pages)", () => {
  it("prints mean cycles as an integer below 10,000, k below 10⁶, else M", () => {
    expect(formatCounter(4340)).toBe("4340");
    expect(formatCounter(4339.6)).toBe("4340");
    expect(formatCounter(9999.4)).toBe("9999");
    expect(formatCounter(9999.6)).toBe("10.0 k");
    expect(formatCounter(174_900)).toBe("174.9 k");
    expect(formatCounter(689_000)).toBe("689.0 k");
    expect(formatCounter(999_949)).toBe("999.9 k");
    expect(formatCounter(999_950)).toBe("1.00 M");
    expect(formatCounter(29_130_000)).toBe("29.13 M");
    expect(formatCounter(742_050_000)).toBe("742.05 M");
    expect(formatCounter(0)).toBe("0");
  });

  it("prints times with three significant digits in the unit that puts them in [1, 1000)", () => {
    expect(formatTime(1550)).toBe("1.55 µs");
    expect(formatTime(64_900)).toBe("64.9 µs");
    expect(formatTime(503_000)).toBe("503 µs");
    expect(formatTime(10_800_000)).toBe("10.8 ms");
    expect(formatTime(151_000_000)).toBe("151 ms");
    expect(formatTime(13_000_000)).toBe("13 ms");
    expect(formatTime(5_400_000)).toBe("5.4 ms");
    expect(formatTime(999.7)).toBe("1 µs");
    expect(formatTime(999_600)).toBe("1 ms");
    expect(formatTime(12)).toBe("12 ns");
    expect(formatTime(2.5e9)).toBe("2.5 s");
    expect(formatTime(4.2e12)).toBe("4.2e+03 s");
  });

  it("prints ops/s as C's %.3g", () => {
    expect(formatOpsPerSecond(92.5)).toBe("92.5");
    expect(formatOpsPerSecond(915.2)).toBe("915");
    expect(formatOpsPerSecond(15_400)).toBe("1.54e+04");
    expect(formatOpsPerSecond(645_000)).toBe("6.45e+05");
    expect(formatOpsPerSecond(1700)).toBe("1.7e+03");
    expect(formatOpsPerSecond(3.5)).toBe("3.5");
    expect(formatG(0.000012345)).toBe("1.23e-05");
    expect(formatG(0.00012345)).toBe("0.000123");
    expect(formatG(0)).toBe("0");
  });

  it("prints n, RSS, shares and calls as the seeds do", () => {
    expect(formatN(5, 57)).toBe("285 (5 × 57)");
    expect(formatKiB(1436)).toBe("1436 KiB");
    expect(formatShare(0.028)).toBe("2.8%");
    expect(formatShare(0)).toBe("0.0%");
    expect(formatShare(0.0996)).toBe("10%");
    expect(formatShare(0.0994)).toBe("9.9%");
    expect(formatShare(0.55)).toBe("55%");
    expect(formatCount(2)).toBe("2");
    expect(formatCount(46.6)).toBe("46.6");
    expect(
      formatCalls([
        { label: "pseudoXOF", mean: 46.6 },
        { label: "sm3hash", mean: 0 },
        { label: "drng", mean: 2 },
      ]),
    ).toBe("drng 2, pseudoXOF 46.6");
    expect(formatCalls([])).toBe("");
  });

  it("rounds the decimal figure the record holds, ties to even, as C's printf does with an exact value", () => {
    // 1555 / 1000 is 1.55499… in binary; the figure is 1.555 µs, a tie, and 5 is odd: up.
    expect(formatTime(1555)).toBe("1.56 µs");
    expect(formatTime(2125)).toBe("2.12 µs");
    expect(formatTime(9995)).toBe("10 µs");
    expect(formatTime(999.5)).toBe("1 µs");
    expect(formatTime(2126)).toBe("2.13 µs");
    expect(formatOpsPerSecond(3125)).toBe("3.12e+03");
    expect(formatOpsPerSecond(3135)).toBe("3.14e+03");
    expect(formatG(-1.2345)).toBe("-1.23");
    // 0.0095 × 100 is 0.94999… in binary; the figure is 0.95 %.
    expect(formatShare(0.0095)).toBe("1.0%");
    expect(formatShare(0.0085)).toBe("0.8%");
    expect(formatShare(0.0995)).toBe("10%");
    expect(formatCount(9.95)).toBe("10.0");
    expect(formatCount(46.65)).toBe("46.6");
    expect(formatCounter(4340.5)).toBe("4340");
    expect(formatCounter(4341.5)).toBe("4342");
    expect(formatCounter(174_850)).toBe("174.8 k");
    expect(formatCounter(29_135_000)).toBe("29.14 M");
    expect(formatFixed(0.0004, 1)).toBe("0.0");
    expect(formatFixed(-2.25, 1)).toBe("-2.2");
    expect(formatFixed(0, 2)).toBe("0.00");
  });

  it("prints frequencies, ratios, deviations and timestamps", () => {
    expect(formatGHz(2_710_000_000)).toBe("2.71 GHz");
    expect(formatGHz(3_000_000_000)).toBe("3 GHz");
    expect(formatRatio(1.2345)).toBe("1.23×");
    expect(formatDeviation(0.004)).toBe("+0.4%");
    expect(formatDeviation(-0.06)).toBe("−6.0%");
    expect(formatUtc("2026-09-28T15:05:46Z")).toBe("2026-09-28T15:05:46");
    expect(formatUtc("2026-11-30T11:48:47.440Z")).toBe("2026-11-30T11:48:47");
    expect(formatUtc("2026-11-30T12:48:47+01:00")).toBe("2026-11-30T11:48:47");
  });

  it("prints the per-call method's n, ± and ranges", () => {
    expect(formatCallsN(6000, [2000, 2000, 2000], 1)).toBe("6000 (3 × 2000)");
    expect(formatCallsN(6012, [2010, 1998, 2004], 1)).toBe("6012 (3 × 1998–2010)");
    expect(formatCallsN(64000, [500, 500, 500, 500], 32)).toBe("64000 (4 × 500 × 32)");
    expect(formatCallsN(6000, [2000, 2000, 2000], 1, true)).toBe("6000 (3 × 2000 × 1)");
    expect(formatHalfWidth(0.004)).toBe("±0.4%");
    expect(formatHalfWidth(0.12)).toBe("±12%");
    expect(formatHalfWidth(0.0995)).toBe("±10%");
    expect(formatPercent(0.01)).toBe("1%");
    expect(formatPercent(0.005)).toBe("0.5%");
    expect(formatPercent(0.0125)).toBe("1.25%");
    expect(formatTimeRange(1_210_000, 3_400_000)).toBe("1.21–3.4 ms");
    expect(formatTimeRange(912_000, 1_200_000)).toBe("912 µs – 1.2 ms");
  });
});

describe("environment strings", () => {
  it("shows a compiler's version line once, not the name around it again", () => {
    expect(formatCompiler("gcc", "gcc (Debian 12.2.0-14+deb12u1) 12.2.0")).toBe(
      "gcc (Debian 12.2.0-14+deb12u1) 12.2.0",
    );
    expect(formatCompiler("/usr/bin/aarch64-linux-gnu-gcc", "aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0")).toBe(
      "aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0",
    );
    expect(formatCompiler("cc", "Debian clang version 14.0.6")).toBe("cc (Debian clang version 14.0.6)");
    expect(formatCompiler("gcc", "")).toBe("gcc");
  });
  it("says the kernel's SMT control word in words", () => {
    expect(formatSmt("notsupported")).toBe("not supported (one thread per core)");
    expect(formatSmt("forceoff")).toBe("off (forced)");
    expect(formatSmt("on")).toBe("on");
    expect(formatSmt(undefined)).toBe("unknown");
  });
});
