// Text from records on pages and in charts goes through visibleModel (the schema's visibleText): bidi and control
// characters are shown as \uXXXX escapes in HTML, Markdown and SVG.
import { describe, expect, it } from "vitest";
import { renderChart } from "./charts.ts";
import type { Page } from "./model.ts";
import { renderPage, visibleModel } from "./render.ts";

const RLO = "\u202E";

describe("visibleModel", () => {
  it("escapes every string of a page model, whatever field holds it", () => {
    const page: Page = {
      kind: "algorithm",
      path: "x/kem-1",
      header: [{ text: `head${RLO}` }],
      title: `title${RLO}\u0007`,
      intro: [[{ text: `intro${RLO}` }]],
      sections: [
        {
          id: "s",
          heading: `heading${RLO}`,
          notes: [],
          list: [{ key: `key${RLO}`, value: [{ text: `value\u2066` }] }],
          tables: [
            { caption: `caption${RLO}`, headers: [`h${RLO}`], rows: [[[{ text: `cell\ufeff` }]]], rowHeaders: false },
          ],
          after: [],
          charts: [],
        },
      ],
      footer: [],
    };
    for (const format of ["html", "md"] as const) {
      const out = renderPage(page, format);
      for (const c of [RLO, "\u2066", "\ufeff", "\u0007"]) expect(out, format).not.toContain(c);
      // Markdown tables have no caption.
      const parts = ["title", "head", "intro", "heading", "key", "h", ...(format === "html" ? ["caption"] : [])];
      for (const part of parts) expect(out, `${format} ${part}`).toMatch(new RegExp(`${part}\\\\{1,2}u202E`));
      expect(out).toMatch(/value\\{1,2}u2066/);
      expect(out).toMatch(/cell\\{1,2}uFEFF/);
    }
    expect(visibleModel({ n: 1, b: true, s: [`a${RLO}`] })).toEqual({ n: 1, b: true, s: ["a\\u202E"] });
  });

  it("escapes chart labels in the SVG", async () => {
    const svg = await renderChart({
      kind: "time",
      file: "t.svg",
      title: `t${RLO}`,
      description: "d",
      data: [{ row: `row${RLO}1`, series: `keygen\u2067`, value: 1e-3 }],
      rows: [`row${RLO}1`],
      series: [`keygen\u2067`],
    });
    expect(svg).not.toMatch(/[\u202e\u2067]/);
    expect(svg).toContain("row\\u202E1");
    expect(svg).toContain("keygen\\u2067");
  });
});
