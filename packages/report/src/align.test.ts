// Figures line up: columns of figures are right-aligned in HTML (class num) and Markdown (---:), text columns
// and the row-header column stay left.
import { describe, expect, it } from "vitest";
import { cell, type Page, type Table } from "./model.ts";
import { numericColumns, renderPage } from "./render.ts";

const table: Table = {
  caption: "t",
  headers: ["instance", "operation", "median", "n", "note"],
  rowHeaders: true,
  rows: [
    [cell("Puffin-128", true), cell("keygen"), cell("41.2 µs"), cell("6000 (3 × 2000)"), cell("ok")],
    [cell("Puffin-192", true), cell("enc"), cell("mean 1.02 ms ‡"), cell("—"), cell("12 calls")],
    [cell("Puffin-256", true), cell("dec"), cell("−3.1 %"), cell(""), cell("FAILED")],
  ],
};

describe("numeric columns", () => {
  it("are the columns whose every cell is a figure or a dash, never the row header", () => {
    expect(numericColumns(table)).toEqual([false, false, true, true, false]);
    expect(numericColumns({ ...table, rows: [] })).toEqual([false, false, false, false, false]);
  });

  it("are right-aligned in both formats", () => {
    const page: Page = {
      kind: "method",
      path: "x86_1/method",
      title: "p",
      header: [],
      intro: [],
      footer: [],
      sections: [{ id: "s", heading: "s", notes: [], tables: [table], after: [], charts: [] }],
    };
    const md = renderPage(page, "md");
    expect(md).toContain("|---|---|---:|---:|---|");
    const html = renderPage(page, "html");
    expect(html).toContain('<th scope="col" class="num">median</th>');
    expect(html).toContain('<th scope="row"><code>Puffin-128</code></th><td>keygen</td><td class="num">41.2 µs</td>');
    expect(html).toContain("th.num,td.num{text-align:right}");
  });
});
