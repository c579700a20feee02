// Renders the logical model of a seed page back to text in either of the seeds' two renderings.
// Used by tests to exercise the parser on whole pages without reading the seeds themselves:
// expected-cells.json → text (tab or scraped markdown) → parseSeedPage → the same cells.

import type { ExpectedPage } from "./extract-cells.ts";

const CODE_FIRST_COLUMN_EXCEPT = new Set([2]); // section 2's first column (item) is plain text

function tabCell(sectionNumber: number | null, header: string, col: number, cell: string): string {
  if (col === 0 && !CODE_FIRST_COLUMN_EXCEPT.has(sectionNumber ?? -1)) return `\`${cell}\``;
  if (header === "file") return `\`${cell}\``;
  const kat = /^KAT log \(sha256 ([0-9a-f]+…)\)$/.exec(cell);
  if (kat) return `KAT log (sha256 \`${kat[1]}\`)`;
  return cell;
}

/** The plain-text rendering: blank lines between blocks, tab-separated tables, code cells in backticks. */
export function renderTab(page: ExpectedPage): string {
  const out: string[] = [page.header.line, "", page.title.line, "", page.intro, "", page.basicInformation.heading, ""];
  for (const item of page.basicInformation.items) out.push(`${item.key}: ${item.value}`);
  out.push("");
  for (const s of page.sections) {
    out.push(s.heading, "");
    for (const n of s.notes) out.push(n, "");
    for (const t of s.tables) {
      out.push(t.headers.join("\t"));
      for (const r of t.rows) out.push(r.map((c, i) => tabCell(s.number, t.headers[i] ?? "", i, c)).join("\t"));
      out.push("");
    }
  }
  out.push(page.footer);
  return out.join("\n");
}

/**
 * The scraped rendering as in seed 001: a site label, no blank lines, bullets with the parameter-set list wrapped
 * onto the next line and glued to the following bullet, tables whose rows break after the first cell (and after
 * every cell of a KAT-log evidence row), no backticks.
 */
export function renderScrapedMarkdown(page: ExpectedPage, siteLabel = "ngcc.dev"): string {
  const out: string[] = [siteLabel, page.header.line, page.title.line, page.intro, page.basicInformation.heading];
  const items = page.basicInformation.items;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === undefined) continue;
    if (item.key === "Parameter sets") {
      const next = items[i + 1];
      out.push(`- ${item.key}:`);
      const list = page.basicInformation.parameterSets.join(",");
      out.push(next ? `${list} - ${next.key}: ${next.value}` : list);
      i++;
    } else {
      out.push(`- ${item.key}: ${item.value}`);
    }
  }
  for (const s of page.sections) {
    out.push(s.heading);
    out.push(...s.notes);
    for (const t of s.tables) {
      out.push(`| ${t.headers.join(" | ")} |`, `|${t.headers.map(() => "---|").join("")}`);
      for (const r of t.rows) {
        if (s.number === 2) out.push(`| ${r.join(" | ")} |`);
        else if ((r[1] ?? "").startsWith("KAT log")) out.push(...r.map((c) => `${c} |`));
        else out.push(`${r[0]} |`, `${r.slice(1).join(" | ")} |`);
      }
    }
  }
  out.push(page.footer);
  return out.join("\n");
}
