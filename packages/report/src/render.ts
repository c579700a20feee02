// Markdown and HTML from one report model, through Handlebars templates. Everything that comes from a record
// (algorithm names, notes, failure messages, environment strings) is text: every string of the page first goes through
// the schema's visibleText (bidi and control characters shown as \uXXXX escapes, line breaks as spaces), then the HTML
// template escapes it, the Markdown helpers backslash-escape it, and link targets other than our own relative paths
// and http(s) URLs are dropped.
import { createRequire } from "node:module";
import { visibleText } from "@ngcc-perf/schema";
import type * as HandlebarsTypes from "handlebars";
import type { Inline, Page, Table } from "./model.ts";

// Handlebars is CommonJS (`export =`): loaded with require so the same code runs from source and from the bundle.
const Handlebars = createRequire(import.meta.url)("handlebars") as typeof HandlebarsTypes;

export type Format = "md" | "html";
export const FORMATS: ReadonlyArray<Format> = ["md", "html"];

// ---------------------------------------------------------------------------------------------------------------
// Escaping

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/** One line of text: no line breaks; control, bidi and BOM characters as escapes (the schema's visibleText). */
const oneLine = visibleText;

/**
 * A copy of a page (or chart) model with every string made visible: the one place where text from records, names,
 * notes and messages is escaped for display, whatever template field it lands in (titles, headings, captions,
 * headers, list keys, chart labels).
 */
export function visibleModel<T>(value: T): T {
  if (typeof value === "string") return visibleText(value) as T;
  if (Array.isArray(value)) return value.map((v) => visibleModel(v)) as T;
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleModel(v)])) as T;
  return value;
}

/**
 * Markdown text: every character CommonMark/GFM could read as markup is backslash-escaped, so text stays text.
 * An underscore between two letters or digits cannot open emphasis and stays as is (`init_a`).
 */
export function escapeMarkdown(s: string): string {
  const t = oneLine(s);
  let out = "";
  for (let i = 0; i < t.length; i++) {
    const c = t[i] as string;
    if (c === "_") {
      const before = t[i - 1] ?? "";
      const after = t[i + 1] ?? "";
      out += /[A-Za-z0-9]/.test(before) && /[A-Za-z0-9]/.test(after) ? "_" : "\\_";
    } else if ("\\`*[]<>|~&#!".includes(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}

/** A code span whose fence is longer than any backtick run inside; pipes escaped for GFM tables. */
export function markdownCode(s: string): string {
  const t = oneLine(s);
  const longest = Math.max(0, ...[...t.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = t.startsWith("`") || t.endsWith("`") ? " " : "";
  return `${fence}${pad}${t.replace(/\|/g, "\\|")}${pad}${fence}`;
}

/** Link targets we write: our own relative paths, or http(s)/mailto URLs from a catalog. Anything else is dropped. */
export function safeHref(href: string): string | null {
  const h = href.trim();
  if (/^(https?:\/\/|mailto:)/i.test(h)) return h;
  if (/^[a-z][a-z0-9+.-]*:/i.test(h) || h.startsWith("//") || /[\s"'<>\\]/.test(h)) return null;
  return h;
}

function hrefOf(i: Inline, ext: Format): string | null {
  if (i.page !== undefined) return `${i.page}.${ext}${i.anchor ? `#${i.anchor}` : ""}`;
  if (i.href !== undefined) return safeHref(i.href);
  return null;
}

export function inlinesHtml(inlines: ReadonlyArray<Inline>): string {
  return inlines
    .map((i) => {
      const body = i.code ? `<code>${escapeHtml(oneLine(i.text))}</code>` : escapeHtml(oneLine(i.text));
      const href = hrefOf(i, "html");
      if (href !== null) return `<a href="${escapeHtml(encodeURI(decodeSafe(href)))}">${body}</a>`;
      if (i.current) return `<strong aria-current="page">${body}</strong>`;
      return body;
    })
    .join("");
}

function decodeSafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

export function inlinesMarkdown(inlines: ReadonlyArray<Inline>, paragraphStart = false): string {
  let out = inlines
    .map((i) => {
      const body = i.code ? markdownCode(i.text) : escapeMarkdown(i.text);
      const href = hrefOf(i, "md");
      if (href !== null)
        return `[${body}](${encodeURI(decodeSafe(href)).replace(/[()]/g, (c) => (c === "(" ? "%28" : "%29"))})`;
      if (i.current) return `**${body}**`;
      return body;
    })
    .join("");
  // A paragraph must not start like a list, heading, quote or numbered item.
  if (paragraphStart)
    out = out.replace(/^([-+=]|\d+[.)])/, (m) => (m.length === 1 ? `\\${m}` : `${m.slice(0, -1)}\\${m.slice(-1)}`));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Templates

const STYLE = `
:root{color-scheme:light;--fg:#1b1f23;--muted:#57606a;--line:#d0d7de;--head:#f6f8fa;--accent:#0b5cad}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);margin:0 auto;max-width:76rem;padding:1rem 1.5rem 3rem}
header nav{font-size:.9rem;color:var(--muted);border-bottom:1px solid var(--line);padding-bottom:.5rem}
a{color:var(--accent)}
h1{font-size:1.5rem;margin:1rem 0 .5rem}
h2{font-size:1.15rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
table{border-collapse:collapse;margin:.75rem 0;font-size:.85rem;font-variant-numeric:tabular-nums}
caption{text-align:left;color:var(--muted);font-size:.8rem;padding:.25rem 0}
th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top}
th.num,td.num{text-align:right}
thead th{background:var(--head)}
tbody th{font-weight:normal}
code{font:.85em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
figure{margin:1rem 0}
figcaption{color:var(--muted);font-size:.8rem;max-width:48rem}
figure svg{max-width:100%;height:auto}
footer{margin-top:3rem;border-top:1px solid var(--line);color:var(--muted);font-size:.8rem}
@media print{header nav{display:none}}
`.trim();

const HTML_TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ngcc-perf">
<title>{{page.title}}</title>
<style>{{{style}}}</style>
</head>
<body>
<header><nav aria-label="Breadcrumb and systems"><p>{{{html page.header}}}</p></nav></header>
<main>
<h1>{{page.title}}</h1>
{{#each page.intro}}<p>{{{html this}}}</p>
{{/each}}
{{#each page.sections}}
<section id="{{id}}" aria-labelledby="{{id}}-heading">
<h2 id="{{id}}-heading">{{heading}}</h2>
{{#each notes}}<p>{{{html this}}}</p>
{{/each}}
{{#if list}}<ul>
{{#each list}}<li>{{key}}: {{{html value}}}</li>
{{/each}}</ul>
{{/if}}
{{#each tables}}<table>
<caption>{{caption}}</caption>
<thead><tr>{{#each headers}}<th scope="col"{{#if (at ../numeric @index)}} class="num"{{/if}}>{{this}}</th>{{/each}}</tr></thead>
<tbody>
{{#each rows}}<tr>{{#each this}}{{#if (rowHeader @index ../../rowHeaders)}}<th scope="row">{{{html this}}}</th>{{else}}<td{{#if (at ../../numeric @index)}} class="num"{{/if}}>{{{html this}}}</td>{{/if}}{{/each}}</tr>
{{/each}}</tbody>
</table>
{{/each}}
{{#each after}}<p>{{{html this}}}</p>
{{/each}}
{{#each charts}}<figure>
{{{svg this}}}
<figcaption>{{title}}. {{description}}</figcaption>
</figure>
{{/each}}
</section>
{{/each}}
</main>
<footer>{{#each page.footer}}<p>{{{html this}}}</p>{{/each}}</footer>
</body>
</html>
`;

const MD_TEMPLATE = `{{{md page.header}}}

# {{{text page.title}}}

{{#each page.intro}}{{{para this}}}

{{/each}}
{{#each page.sections}}
<a id="{{id}}"></a>

## {{{text heading}}}

{{#each notes}}{{{para this}}}

{{/each}}
{{#if list}}{{#each list}}- {{{text key}}}: {{{md value}}}
{{/each}}

{{/if}}
{{#each tables}}| {{#each headers}}{{{text this}}} | {{/each}}
|{{#each headers}}{{#if (at ../numeric @index)}}---:{{else}}---{{/if}}|{{/each}}
{{#each rows}}| {{#each this}}{{{md this}}} | {{/each}}
{{/each}}

{{/each}}
{{#each after}}{{{para this}}}

{{/each}}
{{#each charts}}![{{{text title}}}]({{{file}}})

{{{text description}}}

{{/each}}
{{/each}}
---

{{#each page.footer}}{{{para this}}}

{{/each}}`;

export interface ChartSvgs {
  /** SVG text per chart file name of the page. */
  get(file: string): string | undefined;
}

const hb = Handlebars.create();
hb.registerHelper("html", (inlines: Inline[]) => inlinesHtml(inlines ?? []));
hb.registerHelper("md", (inlines: Inline[]) => inlinesMarkdown(inlines ?? []));
hb.registerHelper("para", (inlines: Inline[]) => inlinesMarkdown(inlines ?? [], true));
hb.registerHelper("text", (s: string) => escapeMarkdown(String(s ?? "")));
hb.registerHelper("rowHeader", (index: number, rowHeaders: boolean) => index === 0 && rowHeaders === true);
hb.registerHelper("at", (list: unknown, index: number) => Array.isArray(list) && list[index] === true);
hb.registerHelper(
  "svg",
  function (this: unknown, chart: { file: string; title: string }, options: HandlebarsTypes.HelperOptions) {
    const svgs = options.data?.root?.svgs as ChartSvgs | undefined;
    const svg = svgs?.get(chart.file);
    if (!svg) return "";
    // The SVG is ours (vega escapes every text it draws); give it a role and a name for assistive technology.
    return svg.replace(/^<svg /, `<svg role="img" aria-label="${escapeHtml(chart.title)}" `);
  },
);

const compiled = {
  html: hb.compile(HTML_TEMPLATE, { strict: false }),
  md: hb.compile(MD_TEMPLATE, { noEscape: true, strict: false }),
};

/** A cell that reads as a figure: a number first (after a sign, ≈, ~, < or >), e.g. `41.2 µs ±0.6 %`, `1184`. */
const FIGURE = /^(?:mean |median |[<>≈~±+\-−] ?)?\d/;
const PLACEHOLDERS = new Set(["", "—"]);

/**
 * The columns of a table that hold figures (every cell a figure or a placeholder dash, at least one figure):
 * right-aligned, so that magnitudes line up. The row-header column never is.
 */
export function numericColumns(table: Table): boolean[] {
  return table.headers.map((_h, k) => {
    if (k === 0 && table.rowHeaders) return false;
    let figures = 0;
    for (const row of table.rows) {
      const t = (row[k] ?? [])
        .map((i) => i.text)
        .join("")
        .trim();
      if (PLACEHOLDERS.has(t)) continue;
      if (!FIGURE.test(t)) return false;
      figures++;
    }
    return figures > 0;
  });
}

function withAlignment(page: Page): Page {
  return {
    ...page,
    sections: page.sections.map((s) => ({
      ...s,
      tables: s.tables.map((t) => ({ ...t, numeric: numericColumns(t) })),
    })),
  };
}

/** Renders one page in one format. */
export function renderPage(page: Page, format: Format, svgs?: ChartSvgs): string {
  const out = compiled[format]({ page: visibleModel(withAlignment(page)), style: STYLE, svgs });
  // Collapse the blank lines that empty template blocks leave behind.
  if (format === "html") return out.replace(/\n{2,}/g, "\n");
  const lines = out.split("\n").map((l) => l.trimEnd());
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()}\n`;
}
