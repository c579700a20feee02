// A comparison as a report page (rendered with renderPage to Markdown and HTML through the report's templates).
import { formatPercent } from "../format.ts";
import { type Cell, cell, code, type Page, type Section, text } from "../model.ts";
import {
  COUNT_HEADERS,
  countRows,
  methodText,
  rowNotes,
  sideName,
  summaryText,
  TIMING_HEADERS,
  timingRows,
  unmatchedRows,
} from "./text.ts";
import type { Comparison } from "./types.ts";

const cells = (row: string[], codeFirst = true): Cell[] => row.map((s, i) => cell(s, codeFirst && i === 0));

/** The comparison as a report page (rendered with renderPage to Markdown and HTML). */
export function comparisonPage(c: Comparison): Page {
  const section = (id: string, heading: string, s: Partial<Section>): Section => ({
    id,
    heading,
    notes: [],
    tables: [],
    after: [],
    charts: [],
    ...s,
  });
  const sections: Section[] = [
    section("timings", "Timings", {
      notes: [[text(summaryText(c))]],
      tables: [
        {
          caption: "B/A of every timing present in both, with its 95% interval and verdict",
          headers: TIMING_HEADERS,
          rows: timingRows(c).map((r) => cells(r)),
          rowHeaders: true,
        },
      ],
      after: [...rowNotes(c).map((n) => [text(n)]), [text(methodText(c))]],
    }),
  ];
  if (c.instructions.length)
    sections.push(
      section("instructions", "Instruction counts", {
        tables: [
          {
            caption: "Instructions per call (valgrind's callgrind), compared exactly",
            headers: COUNT_HEADERS,
            rows: countRows(c).map((r) => cells(r)),
            rowHeaders: true,
          },
        ],
      }),
    );
  if (c.unmatched.length)
    sections.push(
      section("not-compared", "Not compared", {
        tables: [
          {
            caption: "Measurements on one side only, or failed on a side",
            headers: ["measurement", "kind", "where"],
            rows: unmatchedRows(c).map((r) => cells(r)),
            rowHeaders: true,
          },
        ],
      }),
    );
  return {
    kind: "compare",
    path: "compare",
    header: [text("ngcc-perf compare")],
    title: `Comparison: B against A`,
    intro: [
      [text("A: "), code(sideName(c.a))],
      [text("B: "), code(sideName(c.b))],
      [
        text(
          `Noise band ±${formatPercent(c.threshold)}. ${c.regressed ? "Something is slower than the band: the gate fails." : "Nothing is slower than the band."}`,
        ),
      ],
    ],
    sections,
    footer: [[text("Made by ngcc-perf compare from the records of both stores.")]],
  };
}
