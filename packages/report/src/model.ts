// The report model: what every page says, independent of Markdown or HTML. Pages hold plain text (escaping is the
// templates' job), tables of cells, notes and chart data; links are relative, so the site works from disk and
// from any web server.

/** A run of text, optionally code, optionally a link: `page` is a site page (the renderer adds .md or .html),
 * `href` a file or URL used as is. */
export interface Inline {
  text: string;
  code?: boolean;
  page?: string;
  anchor?: string;
  href?: string;
  /** The current page among a list of alternatives (the system switcher). */
  current?: boolean;
}

export type Cell = Inline[];

export interface Table {
  /** What the table holds (HTML caption). */
  caption: string;
  headers: string[];
  rows: Cell[][];
  /** The first column names the row (HTML th scope=row). */
  rowHeaders: boolean;
}

export type ChartKind = "time" | "share" | "spread" | "workers" | "compare";

export interface ChartDatum {
  /** Row label (instance, or instance and operation). */
  row: string;
  /** Series (operation, group or system). */
  series: string;
  value: number;
  /** A 95 % interval drawn as an error bar (time charts; same unit as value). */
  low?: number;
  high?: number;
  /** The figure written at the end of the bar (time charts), e.g. "41.2 µs". */
  label?: string;
}

/** A time chart's value axis: the unit its values are in, the scale, and a domain fitted to the data. */
export interface TimeAxis {
  title: string;
  log: boolean;
  domain: [number, number];
}

export interface Chart {
  kind: ChartKind;
  /** File name of the SVG beside the page (Markdown links to it; HTML inlines it). */
  file: string;
  title: string;
  /** One sentence saying what the picture shows, for people who cannot see it. */
  description: string;
  data: ChartDatum[];
  /** Order of the rows and series as on the page. */
  rows: string[];
  series: string[];
  /** Time and compare charts: the value axis (values already in its unit). */
  axis?: TimeAxis;
}

export interface Section {
  /** Anchor of the section. */
  id: string;
  heading: string;
  /** Paragraphs before the tables. */
  notes: Inline[][];
  /** A key–value list (section 1). */
  list?: Array<{ key: string; value: Inline[] }>;
  tables: Table[];
  /** Paragraphs after the tables. */
  after: Inline[][];
  charts: Chart[];
}

export type PageKind = "algorithm" | "system-index" | "method" | "sizes" | "summary" | "compare" | "home";

export interface Page {
  kind: PageKind;
  /** Path below site/ without extension, e.g. arm_1/kem-20. */
  path: string;
  /** The breadcrumb and system switcher line. */
  header: Inline[];
  title: string;
  intro: Inline[][];
  sections: Section[];
  footer: Inline[][];
}

/** Plain text of a run of inlines (what the golden test compares). */
export function plain(inlines: ReadonlyArray<Inline>): string {
  return inlines.map((i) => i.text).join("");
}

export const text = (t: string): Inline => ({ text: t });
export const code = (t: string): Inline => ({ text: t, code: true });
export const cell = (t: string, isCode = false): Cell => [isCode ? code(t) : text(t)];
