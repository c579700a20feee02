// Reading rendered report pages back into text: sections, notes, list items and table cells, in the normal form of
// fixtures/seed-cells/expected-cells.json (code markup removed, whitespace collapsed, trimmed). Used by the report
// tests to compare what a reader sees with the seed pages.

export interface ParsedTable {
  headers: string[];
  rows: string[][];
}

export interface ParsedSection {
  heading: string;
  notes: string[];
  items: Array<{ key: string; value: string }>;
  tables: ParsedTable[];
}

export interface ParsedPage {
  header: string;
  title: string;
  intro: string[];
  sections: ParsedSection[];
}

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();

// ---------------------------------------------------------------------------------------------------------------
// Markdown (the subset the report writes: links, bold, code spans, backslash escapes, GFM pipe tables)

/** Plain text of a line of Markdown inlines. */
export function markdownPlain(s: string): string {
  let out = "";
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    const next = s[i + 1] ?? "";
    if (c === "\\" && /[!-/:-@[-`{-~]/.test(next)) {
      out += next;
      i += 2;
    } else if (c === "`") {
      const fence = /^`+/.exec(s.slice(i))?.[0] ?? "`";
      let end = s.indexOf(fence, i + fence.length);
      while (end >= 0 && s[end + fence.length] === "`") end = s.indexOf(fence, end + fence.length + 1);
      if (end < 0) {
        out += fence;
        i += fence.length;
        continue;
      }
      let content = s.slice(i + fence.length, end);
      if (content.length > 1 && content.startsWith(" ") && content.endsWith(" ")) content = content.slice(1, -1);
      out += content;
      i = end + fence.length;
    } else if (c === "]" && next === "(") {
      const close = s.indexOf(")", i);
      i = close < 0 ? s.length : close + 1;
    } else if (c === "[") {
      i++;
    } else if (c === "*" && next === "*") {
      i += 2;
    } else {
      out += c;
      i++;
    }
  }
  return norm(out);
}

/** Splits a GFM table row on unescaped pipes; `\|` inside a cell is a pipe. */
function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cur = "";
  const body = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === "\\" && body[i + 1] === "|") {
      cur += "|";
      i++;
    } else if (c === "|") {
      cells.push(cur);
      cur = "";
    } else cur += c;
  }
  cells.push(cur);
  return cells.map((x) => markdownPlain(x));
}

export function parseMarkdownPage(md: string): ParsedPage {
  const lines = md.split("\n");
  const page: ParsedPage = { header: markdownPlain(lines[0] ?? ""), title: "", intro: [], sections: [] };
  let current: ParsedSection | null = null;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === "" || line.startsWith("<a id=") || line.startsWith("![")) continue;
    if (line === "---") break;
    if (line.startsWith("# ")) {
      page.title = markdownPlain(line.slice(2));
    } else if (line.startsWith("## ")) {
      current = { heading: markdownPlain(line.slice(3)), notes: [], items: [], tables: [] };
      page.sections.push(current);
    } else if (line.startsWith("|")) {
      const table: ParsedTable = { headers: splitRow(line), rows: [] };
      i += 2; // the delimiter row
      while (i < lines.length && (lines[i] as string).startsWith("|")) table.rows.push(splitRow(lines[i++] as string));
      i--;
      current?.tables.push(table);
    } else if (line.startsWith("- ") && current) {
      const text = markdownPlain(line.slice(2));
      const colon = text.indexOf(": ");
      current.items.push({ key: text.slice(0, colon), value: text.slice(colon + 2) });
    } else if (current) {
      // Notes after a table belong to the section too, but the seeds' notes all precede their tables.
      if (current.tables.length === 0) current.notes.push(markdownPlain(line));
    } else page.intro.push(markdownPlain(line));
  }
  return page;
}

// ---------------------------------------------------------------------------------------------------------------
// HTML (the report's own markup)

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  "#x27": "'",
  "#x3D": "=",
  "#x60": "`",
};

export function htmlPlain(s: string): string {
  return norm(
    s
      .replace(/<svg[\s\S]*?<\/svg>/g, "")
      .replace(/<[^>]*>/g, "")
      .replace(/&(#?[A-Za-z0-9]+);/g, (m, e: string) => {
        if (ENTITIES[e] !== undefined) return ENTITIES[e];
        if (/^#\d+$/.test(e)) return String.fromCodePoint(Number(e.slice(1)));
        if (/^#x[0-9a-f]+$/i.test(e)) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
        return m;
      }),
  );
}

function cellsOf(row: string): string[] {
  return [...row.matchAll(/<(th|td)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => htmlPlain(m[2] ?? ""));
}

export function parseHtmlPage(html: string): ParsedPage {
  const header = /<nav\b[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  const main = /<main>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? "";
  const beforeSections = main.split("<section")[0] ?? "";
  const page: ParsedPage = {
    header: htmlPlain(header),
    title: htmlPlain(/<h1>([\s\S]*?)<\/h1>/.exec(main)?.[1] ?? ""),
    intro: [...beforeSections.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) => htmlPlain(m[1] ?? "")),
    sections: [],
  };
  for (const m of main.matchAll(/<section\b[^>]*>([\s\S]*?)<\/section>/g)) {
    const body = m[1] ?? "";
    const firstTable = body.indexOf("<table");
    const lead = firstTable < 0 ? body : body.slice(0, firstTable);
    page.sections.push({
      heading: htmlPlain(/<h2\b[^>]*>([\s\S]*?)<\/h2>/.exec(body)?.[1] ?? ""),
      notes: [...lead.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((p) => htmlPlain(p[1] ?? "")),
      items: [...body.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((li) => {
        const text = htmlPlain(li[1] ?? "");
        const colon = text.indexOf(": ");
        return { key: text.slice(0, colon), value: text.slice(colon + 2) };
      }),
      tables: [...body.matchAll(/<table\b[^>]*>([\s\S]*?)<\/table>/g)].map((t) => {
        const rows = [...(t[1] ?? "").matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((r) => cellsOf(r[1] ?? ""));
        return { headers: rows[0] ?? [], rows: rows.slice(1) };
      }),
    });
  }
  return page;
}
