// The charts' readability rules: legend entries and row labels drawn whole, time axes in one unit with a domain
// fitted to the data, spread axes symmetric about 0 with a 0 tick.
import { describe, expect, it, vi } from "vitest";
import { fitTimeAxis, renderChart, resetCharts, symmetricLimit } from "./charts.ts";
import { formatTime } from "./format.ts";
import type { Chart } from "./model.ts";

const LONG = "Kyber fips202 (SHAKE128/SHAKE256, the submission's own Keccak-f[1600] permutation)";

describe("charts", () => {
  it("draws a long legend entry and a long row label whole", async () => {
    const chart: Chart = {
      kind: "share",
      file: "x.svg",
      title: "t",
      description: "d",
      rows: [`${LONG} keygen`],
      series: [LONG, "drng"],
      data: [
        { row: `${LONG} keygen`, series: LONG, value: 60 },
        { row: `${LONG} keygen`, series: "drng", value: 5 },
      ],
    };
    const svg = await renderChart(chart);
    expect(svg).toContain(`>${LONG}</text>`);
    expect(svg).toContain(`>${LONG} keygen</text>`);
    expect(svg).not.toContain("…");
  });

  it("fits a time axis: one unit, linear from 0 over a narrow range, logarithmic over a wide one", () => {
    const narrow = fitTimeAxis(
      [
        { row: "a", series: "keygen", value: 41_200 },
        { row: "a", series: "enc", value: 88_000, low: 87_000, high: 89_500 },
      ],
      "time per operation",
    );
    expect(narrow.axis.log).toBe(false);
    expect(narrow.axis.title).toBe("time per operation (µs)");
    expect(narrow.axis.domain[0]).toBe(0);
    expect(narrow.data.map((d) => d.value)).toEqual([41.2, 88]);
    expect(narrow.data[1]).toMatchObject({ low: 87, high: 89.5, label: formatTime(88_000) });
    const wide = fitTimeAxis(
      [
        { row: "a", series: "x", value: 1_550 },
        { row: "a", series: "y", value: 2_530_000 },
      ],
      "mean time per operation",
    );
    expect(wide.axis).toMatchObject({ log: true, title: "mean time per operation (µs, logarithmic axis)" });
    // The domain starts just below the smallest figure, not at a decade far below it.
    expect(wide.axis.domain[0]).toBeGreaterThan(1);
    expect(wide.axis.domain[0]).toBeLessThan(1.55);
  });

  it("makes spread axes symmetric about 0 at a round limit", () => {
    expect(
      symmetricLimit([
        { row: "r", series: "s", value: -1.46 },
        { row: "r", series: "s", value: 1.8 },
      ]),
    ).toBe(2);
    expect(symmetricLimit([{ row: "r", series: "s", value: 0.01 }])).toBe(0.2);
    expect(symmetricLimit([{ row: "r", series: "s", value: 7 }])).toBe(10);
  });

  it("draws every kind of chart, on a linear and a logarithmic axis, without a warning from the chart library", async () => {
    // vega-lite and vega log through the console (e.g. `WARN x-scale's "zero" is dropped…`): nothing may be printed.
    resetCharts();
    const spies = (["warn", "error", "log", "info"] as const).map((m) => vi.spyOn(console, m));
    try {
      const data = [
        { row: "a", series: "keygen", value: 1_550, low: 1_500, high: 1_600 },
        { row: "a", series: "enc", value: 2_530_000 },
      ];
      for (const values of [data, data.map((d) => ({ ...d, value: d.value / 1000 + 40_000 }))]) {
        const fitted = fitTimeAxis(values, "time per operation");
        for (const kind of ["time", "compare"] as const)
          await renderChart({
            kind,
            file: "x.svg",
            title: "t",
            description: "d",
            rows: ["a"],
            series: ["keygen", "enc"],
            data: fitted.data,
            axis: fitted.axis,
          });
      }
      for (const kind of ["spread", "workers", "share"] as const)
        await renderChart({
          kind,
          file: "x.svg",
          title: "t",
          description: "d",
          rows: ["r"],
          series: ["s"],
          data: [{ row: "r", series: "s", value: 1.5 }],
        });
      expect(fitTimeAxis(data, "x").axis.log).toBe(true);
      for (const spy of spies) expect(spy.mock.calls).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
      resetCharts();
    }
  });
});
