// The home page of the site: the systems of the store, with links to their pages and the comparison.
import { type Cell, cell, type Inline, type Page, text } from "../model.ts";
import { footer, provenanceNote, section, systemArchLabel } from "../parts.ts";
import type { SiteContext } from "../view.ts";

export function homePage(ctx: SiteContext): Page {
  const rows: Cell[][] = ctx.views.map((v) => [
    [{ text: v.system, page: `${v.system}/index` }],
    cell(v.environment ? `${v.environment.processor.model} (${systemArchLabel(v.environment)})` : "not recorded"),
    cell(String(v.algorithms.length)),
    [{ text: "method", page: `${v.system}/method` }, text(" · "), { text: "size audit", page: `${v.system}/sizes` }],
  ]);
  const intro: Inline[][] = [
    [
      text(
        "Independent measurements of post-quantum public-key algorithms (key encapsulation, signatures, key exchange) per system, following the NICCS self-assessment guide §3.5 (1)–(7).",
      ),
    ],
  ];
  intro.push(...provenanceNote(ctx.views.flatMap((v) => v.records())));
  if (ctx.views.length > 1)
    intro.push([
      text("Algorithms measured on several systems are compared side by side on the "),
      { text: "cross-system page", page: "compare" },
      text("."),
    ]);
  return {
    kind: "home",
    path: "index",
    header: [{ text: "Performance measurements", current: true }],
    title: "Performance measurements",
    intro,
    sections: [
      section("systems", "Systems", {
        tables: [
          {
            caption: "Systems in this record store",
            headers: ["system", "processor", "algorithms", "pages"],
            rows,
            rowHeaders: true,
          },
        ],
      }),
    ],
    footer: footer(ctx, null),
  };
}
