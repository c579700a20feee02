// The progress lines: each job's line carries the figure its record publishes.
import { describe, expect, it } from "vitest";
import { figureOf, progressPrinter, timeText } from "./progress.ts";

describe("timeText", () => {
  it("prints three significant digits in the unit that keeps the number below 1000", () => {
    expect(timeText(41_234)).toBe("41.2 µs");
    expect(timeText(999.7)).toBe("1 µs");
    expect(timeText(812)).toBe("812 ns");
    expect(timeText(1_530_000)).toBe("1.53 ms");
    expect(timeText(2.5e9)).toBe("2.5 s");
  });
});

const perCall = (statistic: string, target?: string) => ({
  kind: "timing",
  status: "ok",
  central: { statistic, valueNs: 41_234, relativeHalfWidth: 0.006, cycles: { relativeHalfWidth: 0.0021 } },
  sampling: { target: { figure: target } },
  aggregates: { meanNs: 40_000 },
});

describe("figureOf", () => {
  it("gives a timing's central figure with the half-width the page shows", () => {
    expect(figureOf(perCall("median"))).toBe("41.2 µs ±0.6 %");
    expect(figureOf(perCall("mean"))).toBe("mean 41.2 µs ±0.6 %");
    expect(figureOf(perCall("median", "cycles"))).toBe("41.2 µs ±0.2 % (cycles)");
  });

  it("gives the trials method's mean, an instruction count, and nothing for failures or other records", () => {
    expect(figureOf({ kind: "timing", status: "ok", aggregates: { meanNs: 1200 } })).toBe("mean 1.2 µs");
    expect(figureOf({ kind: "instructions", status: "ok", instructionsPerCall: 123456.4 })).toBe("123456 instructions");
    expect(figureOf({ kind: "timing", status: "failed" })).toBeNull();
    expect(figureOf({ kind: "kat", status: "ok" })).toBeNull();
  });

  it("gives a memory record's stack and heap, and a constant-time record's verdict with its open findings", () => {
    expect(figureOf({ kind: "memory", status: "ok", stackBytes: 11000, heapPeakBytes: 200 })).toBe(
      "stack 11000 B, heap 200 B",
    );
    const ct = (verdict: string, statuses: string[]) => ({
      kind: "constant-time",
      status: "ok",
      verdict,
      levels: [{ findings: statuses.map((status) => ({ status })) }, { findings: [] }],
    });
    expect(figureOf(ct("pass", ["accepted"]))).toBe("pass");
    expect(figureOf(ct("leaks found", ["open", "accepted", "open"]))).toBe(
      "LEAKS FOUND (2 open finding(s) over the levels)",
    );
    // With the statistical test's verdict, |t| and measurements.
    const leak = { status: "leak", maxT: 216.94, measurements: 12_000 };
    expect(figureOf({ ...ct("leaks found", []), statistical: leak })).toBe(
      "LEAKS FOUND (0 open finding(s) over the levels; statistical test: LEAK (|t| 216.9 at 12000 measurements))",
    );
    const none = { status: "no leak detected", maxT: 1.84, measurements: 48_000 };
    expect(figureOf({ ...ct("pass", []), statistical: none })).toBe(
      "pass (statistical test: no leak detected (|t| 1.8 at 48000 measurements))",
    );
    expect(figureOf({ ...ct("pass", []), statistical: { status: "not run", reason: "x" } })).toBe("pass");
  });

  it("goes on the job's progress line", () => {
    const lines: string[] = [];
    const print = progressPrinter({ out: () => {}, err: (l) => lines.push(l) }, {
      isTTY: false,
    } as NodeJS.WriteStream);
    print({ type: "plan", step: "time", total: 52, units: 1 });
    print({
      type: "job",
      step: "time",
      algorithmId: "kem-90",
      instance: "Puffin-128",
      profile: "guide",
      operation: "enc",
      status: "ok",
      done: 3,
      total: 52,
      record: perCall("median"),
    });
    expect(lines[1]).toMatch(/^time \[3\/52\] ok {6}kem-90\/Puffin-128 enc \[guide\] 41\.2 µs ±0\.6 % ETA /);
  });
});
