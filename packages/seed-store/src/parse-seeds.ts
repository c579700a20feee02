// Parser for the seed performance pages of the earlier harness (system arm_1).
//
// The seeds come in two renderings of the same page:
//   - "tab": plain text, blank lines between blocks, tab-separated tables, instance and path cells in backticks;
//   - "markdown": a scraped rendering with a site label above the header, no blank lines, `- Key: value` bullets
//     (a wrapped bullet may be glued to the next one), `| a | b |` tables whose rows are broken over lines.
// Both are reduced to one logical model whose cells are in a single normal form (see `normaliseCell`).
// Every structural expectation is checked; anything unexpected throws a SeedParseError naming the file and line.

export type Rendering = "tab" | "markdown";

export type AlgorithmCategory = "kem" | "sign" | "kex";

export interface SeedHeader {
  /** The header line as printed (normalised whitespace). */
  line: string;
  /** The system the page reports on (`arm_1`). */
  system: string;
  algorithmId: string;
  /** Every system listed after `system:` (`["x86_1", "arm_1"]`). */
  systems: string[];
}

export interface SeedTitle {
  line: string;
  id: string;
  name: string;
  arch: string;
  system: string;
}

export interface BasicItem {
  key: string;
  value: string;
}

export interface BasicInformation {
  heading: string;
  /** The items in printed order, values in normal form (parameter sets joined by ", "). */
  items: BasicItem[];
  /** `public-key algorithm` */
  category: string;
  /** `key encapsulation`, `digital signature`, `key exchange` */
  function: string;
  /** kem / sign / kex, derived from `function`. */
  kind: AlgorithmCategory;
  algorithm: string;
  implementations: string[];
  parameterSets: string[];
  /** The three link labels, exactly as printed. */
  links: { securityEvaluation: string; measurementMethod: string; submission: string };
}

export interface SeedTable {
  headers: string[];
  rows: string[][];
}

export type SeedBlock = { kind: "paragraph"; text: string } | { kind: "table"; table: SeedTable };

export interface SeedSection {
  /** 2..7, or null for the unnumbered "Symmetric primitives" section. */
  number: number | null;
  /** The heading as printed: `4. Performance`, `Symmetric primitives`. */
  heading: string;
  /** The heading without its number: `Performance`. */
  name: string;
  /** Paragraphs and tables in printed order. */
  blocks: SeedBlock[];
}

export interface SeedPage {
  rendering: Rendering;
  /** Lines above the header (the scraped rendering's site label `ngcc.dev`), normally empty. */
  preamble: string[];
  header: SeedHeader;
  title: SeedTitle;
  /** The sentence on the NICCS guide below the title. */
  intro: string;
  basic: BasicInformation;
  /** Sections 2..7 and "Symmetric primitives", in printed order. */
  sections: SeedSection[];
  /** The closing `Scripts: ...` line (printed after the section 7 table). */
  footer: string;
}

export class SeedParseError extends Error {
  override name = "SeedParseError";
}

/** The sections after section 1, in the order every seed prints them. */
export const SECTION_ORDER: ReadonlyArray<{ number: number | null; name: string }> = [
  { number: 2, name: "Assessment environment" },
  { number: 3, name: "Functional testing (KAT)" },
  { number: 4, name: "Performance" },
  { number: 5, name: "Resource consumption" },
  { number: 6, name: "Transmission and storage overhead" },
  { number: null, name: "Symmetric primitives" },
  { number: 7, name: "Raw evidence index" },
];

export const BASIC_KEYS = [
  "Category",
  "Algorithm",
  "Implementation versions measured",
  "Parameter sets",
  "Security evaluation",
  "Measurement method",
  "Submission",
] as const;

export const ENVIRONMENT_ITEMS = [
  "processor",
  "machine",
  "clock",
  "memory",
  "OS / kernel",
  "compiler / build tool",
  "campaign start / end (UTC)",
] as const;

export const HEADERS = {
  environment: ["item", "value"],
  kat: ["instance", "build flags", "KAT"],
  performance: ["instance", "operation", "mean cycles", "mean time", "ops/s", "median trial", "n (trials × iters)"],
  resources: ["instance", "operation", "static: ELF image (bytes)", "baseline RSS", "peak RSS"],
  sizesKem: ["instance", "public key", "secret key", "ciphertext", "shared secret"],
  sizesSign: ["instance", "public key", "secret key", "signature"],
  sizesKex: [
    "instance",
    "passes",
    "messages (bytes; raw API)",
    "protocol-message bytes",
    "public key A / B",
    "bandwidth (bytes)",
    "long-term sk (API cap)",
    "shared secret",
  ],
  symmetric: ["instance", "operation", "pseudohash/XOF/sm3", "DRNG", "calls per operation"],
  evidence: ["instance", "item", "file"],
} as const;

export const KEM_OPERATIONS = ["keygen", "enc", "dec"] as const;
export const SIGN_OPERATIONS = ["keygen", "sign", "verify"] as const;

const HEADER_RE = /^Performance measurements › (\S+) › (\S+) · system: (.+)$/;
const TITLE_RE = /^(\S+) (.+) — performance on (.+) \(system (\S+)\)$/;
const SECTION_RE = /^([1-9])\. (\S.*)$/;

/** Cell formats of the seeds, used to catch a mis-split row. */
export const CELL_PATTERNS = {
  cycles: /^(\d+|\d+\.\d k|\d+\.\d\d M)$/,
  time: /^\d+(\.\d+)? (ns|µs|ms|s)$/,
  opsPerSecond: /^\d+(\.\d+)?(e[+-]\d\d)?$/,
  n: /^(\d+) \((\d+) × (\d+)\)$/,
  bytes: /^\d+$/,
  kib: /^\d+ KiB$/,
  share: /^(\d+\.\d|\d+)%$/,
  calls: /^([A-Za-z0-9_]+ \d+(\.\d)?)(, [A-Za-z0-9_]+ \d+(\.\d)?)*$/,
  katLog: /^KAT log \(sha256 ([0-9a-f]{16})…\)$/,
} as const;

/**
 * The one normal form of a cell: code markup (backticks) removed, whitespace runs collapsed to one space, trimmed.
 * Everything else stays as printed (`174.9 k`, `64.9 µs`, `1.54e+04`, `41380 (5 × 8276)`).
 * The KAT-log cell thus reads `KAT log (sha256 3d04b7000fb8fbd8…)` in both renderings.
 */
export function normaliseCell(raw: string): string {
  return raw.replace(/`/g, "").replace(/\s+/g, " ").trim();
}

function normaliseLine(raw: string): string {
  return raw.replace(/\s+/g, " ").trim();
}

/** "markdown" when the page has `|---|` table separators, "tab" when it has tab-separated lines; never both. */
export function detectRendering(text: string): Rendering {
  const lines = text.split(/\r?\n/);
  const separator = lines.some(isMarkdownSeparator);
  const tabs = lines.some((l) => l.includes("\t"));
  if (separator && !tabs) return "markdown";
  if (tabs && !separator) return "tab";
  throw new SeedParseError(
    `cannot tell the rendering: tab-separated lines ${tabs ? "present" : "absent"}, markdown tables ${
      separator ? "present" : "absent"
    }`,
  );
}

interface Line {
  no: number; // 1-based line number in the source
  text: string; // raw text, trailing whitespace removed
}

class Cursor {
  private i = 0;
  constructor(
    readonly lines: Line[],
    readonly file: string,
  ) {}
  get done(): boolean {
    return this.i >= this.lines.length;
  }
  peek(): Line | undefined {
    return this.lines[this.i];
  }
  next(): Line {
    const l = this.lines[this.i];
    if (l === undefined) throw this.error("unexpected end of page");
    this.i++;
    return l;
  }
  skipBlank(): void {
    while (!this.done && this.peek()?.text.trim() === "") this.i++;
  }
  error(message: string, line?: Line): SeedParseError {
    const at = line ?? this.peek();
    return new SeedParseError(`${this.file}${at ? `:${at.no}` : ""}: ${message}`);
  }
}

function isSectionHeading(text: string): boolean {
  const t = normaliseLine(text);
  return SECTION_RE.test(t) || t === "Symmetric primitives";
}

function splitPipeRow(text: string): string[] {
  let t = text.trim();
  if (t.startsWith("|")) t = t.slice(1);
  if (t.endsWith("|")) t = t.slice(0, -1);
  return t.split("|").map(normaliseCell);
}

function isMarkdownSeparator(text: string): boolean {
  return /^\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(text.trim());
}

/** Reads one markdown table at the cursor: header line, separator, then logical rows possibly broken over lines. */
function readMarkdownTable(cur: Cursor): SeedTable {
  const headerLine = cur.next();
  const headers = splitPipeRow(headerLine.text);
  const sep = cur.next();
  if (!isMarkdownSeparator(sep.text)) throw cur.error("expected a markdown table separator", sep);
  const sepCols = splitPipeRow(sep.text).length;
  if (sepCols !== headers.length) throw cur.error(`separator has ${sepCols} columns, header ${headers.length}`, sep);
  const rows: string[][] = [];
  let pending = ""; // the logical row text gathered so far
  let pendingStart: Line | undefined;
  const pendingCells = (): number => (pending === "" ? 0 : splitPipeRow(pending).length);
  for (;;) {
    const l = cur.peek();
    const complete = pending !== "" && pending.trimEnd().endsWith("|") && pendingCells() >= headers.length;
    if (complete) {
      const cells = splitPipeRow(pending);
      if (cells.length !== headers.length)
        throw cur.error(`row has ${cells.length} cells, table has ${headers.length} columns`, pendingStart);
      rows.push(cells);
      pending = "";
      pendingStart = undefined;
    }
    if (l === undefined) break;
    const text = l.text.trim();
    if (pending === "") {
      // Between rows: the table goes on only with a line that carries a cell separator.
      if (text === "" || isSectionHeading(text) || !text.includes("|")) break;
      pendingStart = l;
      pending = text;
    } else {
      if (text === "") throw cur.error("blank line inside a broken table row", l);
      if (isSectionHeading(text)) throw cur.error("section heading inside an unfinished table row", l);
      // A line ending in "|" closed its cell; otherwise the cell itself was broken and continues here.
      pending = `${pending} ${text}`;
    }
    cur.next();
  }
  if (pending !== "") throw cur.error(`unfinished table row: ${pending}`, pendingStart);
  return { headers, rows };
}

function readTabTable(cur: Cursor): SeedTable {
  const headerLine = cur.next();
  const headers = headerLine.text.split("\t").map(normaliseCell);
  const rows: string[][] = [];
  for (;;) {
    const l = cur.peek();
    if (l === undefined || l.text.trim() === "") break;
    if (!l.text.includes("\t")) throw cur.error("a line without tabs inside a tab-separated table", l);
    const cells = l.text.split("\t").map(normaliseCell);
    if (cells.length !== headers.length)
      throw cur.error(`row has ${cells.length} cells, table has ${headers.length} columns`, l);
    rows.push(cells);
    cur.next();
  }
  return { headers, rows };
}

/** Reads the blocks of one section body, up to the next section heading or the end of the page. */
function readBlocks(cur: Cursor, rendering: Rendering): SeedBlock[] {
  const blocks: SeedBlock[] = [];
  for (;;) {
    cur.skipBlank();
    const l = cur.peek();
    if (l === undefined || isSectionHeading(l.text)) break;
    if (rendering === "tab") {
      if (l.text.includes("\t")) {
        blocks.push({ kind: "table", table: readTabTable(cur) });
        continue;
      }
      // A paragraph: consecutive non-blank lines without tabs.
      const parts: string[] = [];
      for (;;) {
        const p = cur.peek();
        if (p === undefined || p.text.trim() === "" || isSectionHeading(p.text)) break;
        if (p.text.includes("\t")) throw cur.error("a table glued to a paragraph without a blank line", p);
        parts.push(normaliseLine(p.text));
        cur.next();
      }
      blocks.push({ kind: "paragraph", text: parts.join(" ") });
    } else {
      const t = l.text.trim();
      if (t.startsWith("|")) {
        const after = cur.lines[cur.lines.indexOf(l) + 1];
        if (after === undefined || !isMarkdownSeparator(after.text))
          throw cur.error("a pipe line that does not start a table", l);
        blocks.push({ kind: "table", table: readMarkdownTable(cur) });
        continue;
      }
      if (t.includes(" | ")) throw cur.error("a table row outside a table", l);
      // The scraped rendering has no blank lines: each line is one paragraph.
      blocks.push({ kind: "paragraph", text: normaliseLine(t) });
      cur.next();
    }
  }
  return blocks;
}

function kindOfFunction(fn: string): AlgorithmCategory {
  switch (fn) {
    case "key encapsulation":
      return "kem";
    case "digital signature":
    case "signature":
      return "sign";
    case "key exchange":
      return "kex";
    default:
      throw new SeedParseError(`unknown function "${fn}"`);
  }
}

/** Section 1 of the page at the cursor → BasicInformation. */
function readBasicInformation(cur: Cursor, rendering: Rendering, heading: string): BasicInformation {
  const lines: Line[] = [];
  for (;;) {
    const l = cur.peek();
    if (l === undefined || isSectionHeading(l.text)) break;
    lines.push(cur.next());
  }
  try {
    return parseBasicLines(
      lines.map((l) => l.text),
      rendering,
      heading,
    );
  } catch (e) {
    if (e instanceof SeedParseError) throw cur.error(`section 1: ${e.message}`, lines[0]);
    throw e;
  }
}

/**
 * The lines of section 1 (below its heading) → items. Handles `Key: value` lines and `- Key: value` bullets,
 * including a bullet wrapped onto the next line and glued to the following bullet
 * (`MAMBA-Viper-128,...,MAMBA-Viper-512 - Security evaluation: kem-21 report`).
 */
export function parseBasicLines(
  lines: readonly string[],
  rendering: Rendering,
  heading = "1. Basic information",
): BasicInformation {
  const raw: string[] = [];
  for (const line of lines) {
    const t = normaliseLine(line);
    if (t === "") continue;
    if (rendering === "markdown") {
      if (t.startsWith("- ")) raw.push(t.slice(2));
      else if (raw.length > 0) raw[raw.length - 1] = `${raw[raw.length - 1]} ${t}`;
      else throw new SeedParseError(`text before the first bullet: ${t}`);
    } else {
      raw.push(t);
    }
  }
  // A wrapped bullet may have swallowed the following bullet: split on " - <known key>:".
  const keyAlt = BASIC_KEYS.map((k) => k.replace(/[()]/g, "\\$&")).join("|");
  const glued = new RegExp(` - (?=(?:${keyAlt}): )`);
  const items: BasicItem[] = [];
  for (const line of raw.flatMap((r) => r.split(glued))) {
    const m = /^([^:]+): (.*)$/.exec(line);
    if (!m || m[1] === undefined || m[2] === undefined)
      throw new SeedParseError(`a line without "key: value": ${line}`);
    items.push({ key: m[1], value: m[2].trim() });
  }
  const keys = items.map((i) => i.key);
  if (keys.join("\n") !== BASIC_KEYS.join("\n"))
    throw new SeedParseError(`keys are [${keys.join(", ")}], expected [${BASIC_KEYS.join(", ")}]`);
  const get = (k: (typeof BASIC_KEYS)[number]): string => {
    const item = items.find((i) => i.key === k);
    if (!item) throw new SeedParseError(`no ${k}`);
    return item.value;
  };
  const list = (v: string): string[] =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  const parameterSets = list(get("Parameter sets"));
  const implementations = list(get("Implementation versions measured"));
  for (const item of items) {
    if (item.key === "Parameter sets") item.value = parameterSets.join(", ");
    if (item.key === "Implementation versions measured") item.value = implementations.join(", ");
  }
  const cat = /^(.+); function: (.+)$/.exec(get("Category"));
  if (!cat || cat[1] === undefined || cat[2] === undefined)
    throw new SeedParseError(`bad Category: ${get("Category")}`);
  return {
    heading,
    items,
    category: cat[1],
    function: cat[2],
    kind: kindOfFunction(cat[2]),
    algorithm: get("Algorithm"),
    implementations,
    parameterSets,
    links: {
      securityEvaluation: get("Security evaluation"),
      measurementMethod: get("Measurement method"),
      submission: get("Submission"),
    },
  };
}

/** Parses one seed page (either rendering) and checks it for completeness; throws SeedParseError otherwise. */
export function parseSeedPage(text: string, file = "<seed>"): SeedPage {
  const rendering = detectRendering(text);
  const lines: Line[] = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .map((t, i) => ({ no: i + 1, text: t.replace(/\s+$/, "") }));
  const cur = new Cursor(lines, file);

  const preamble: string[] = [];
  cur.skipBlank();
  while (!cur.done && !HEADER_RE.test(normaliseLine(cur.peek()?.text ?? ""))) {
    const l = cur.next();
    if (l.text.trim() !== "") preamble.push(normaliseLine(l.text));
    if (preamble.length > 2) throw cur.error("no header line `Performance measurements › ...` near the top", l);
  }
  const headerLine = normaliseLine(cur.next().text);
  const hm = HEADER_RE.exec(headerLine);
  if (!hm || hm[1] === undefined || hm[2] === undefined || hm[3] === undefined)
    throw cur.error(`bad header line: ${headerLine}`);
  const header: SeedHeader = { line: headerLine, system: hm[1], algorithmId: hm[2], systems: hm[3].split(" · ") };
  if (!header.systems.includes(header.system))
    throw cur.error(`header system ${header.system} is not among [${header.systems.join(", ")}]`);

  cur.skipBlank();
  const titleLine = normaliseLine(cur.next().text);
  const tm = TITLE_RE.exec(titleLine);
  if (!tm || tm[1] === undefined || tm[2] === undefined || tm[3] === undefined || tm[4] === undefined)
    throw cur.error(`bad title line: ${titleLine}`);
  const title: SeedTitle = { line: titleLine, id: tm[1], name: tm[2], arch: tm[3], system: tm[4] };
  if (title.id !== header.algorithmId) throw cur.error(`title id ${title.id} ≠ header id ${header.algorithmId}`);
  if (title.system !== header.system) throw cur.error(`title system ${title.system} ≠ header ${header.system}`);

  cur.skipBlank();
  const introLine = cur.next();
  const intro = normaliseLine(introLine.text);
  if (!intro.startsWith("Independent measurement")) throw cur.error(`unexpected intro sentence: ${intro}`, introLine);

  cur.skipBlank();
  const s1 = cur.next();
  const s1Heading = normaliseLine(s1.text);
  if (s1Heading !== "1. Basic information") throw cur.error(`expected "1. Basic information"`, s1);
  const basic = readBasicInformation(cur, rendering, s1Heading);
  if (basic.algorithm !== title.name) throw cur.error(`section 1 algorithm ${basic.algorithm} ≠ title ${title.name}`);

  const sections: SeedSection[] = [];
  while (!cur.done) {
    cur.skipBlank();
    const h = cur.peek();
    if (h === undefined) break;
    const heading = normaliseLine(h.text);
    if (!isSectionHeading(heading)) throw cur.error(`expected a section heading, got: ${heading}`, h);
    cur.next();
    const m = SECTION_RE.exec(heading);
    const number = m ? Number(m[1]) : null;
    const name = m?.[2] ?? heading;
    sections.push({ number, heading, name, blocks: readBlocks(cur, rendering) });
  }
  const got = sections.map((s) => s.heading);
  const want = SECTION_ORDER.map((s) => (s.number === null ? s.name : `${s.number}. ${s.name}`));
  if (got.join("\n") !== want.join("\n"))
    throw new SeedParseError(`${file}: sections are [${got.join(" | ")}], expected [${want.join(" | ")}]`);

  // The closing "Scripts: ..." line is the page footer, not a section-7 note.
  const last = sections[sections.length - 1];
  const lastBlock = last?.blocks[last.blocks.length - 1];
  if (!last || lastBlock?.kind !== "paragraph" || !lastBlock.text.startsWith("Scripts: "))
    throw new SeedParseError(`${file}: the page does not end with a "Scripts: ..." line`);
  last.blocks.pop();

  const page: SeedPage = { rendering, preamble, header, title, intro, basic, sections, footer: lastBlock.text };
  checkPage(page, file);
  return page;
}

// ---------------------------------------------------------------------------------------------------------------
// Accessors

export function sectionByName(page: SeedPage, name: string): SeedSection {
  const s = page.sections.find((x) => x.name === name);
  if (!s) throw new SeedParseError(`no section "${name}"`);
  return s;
}

export function tablesOf(section: SeedSection): SeedTable[] {
  return section.blocks.flatMap((b) => (b.kind === "table" ? [b.table] : []));
}

export function notesOf(section: SeedSection): string[] {
  return section.blocks.flatMap((b) => (b.kind === "paragraph" ? [b.text] : []));
}

/** The single table of a section (every section of the seeds has exactly one). */
export function tableOf(page: SeedPage, name: string): SeedTable {
  const ts = tablesOf(sectionByName(page, name));
  const t = ts[0];
  if (ts.length !== 1 || t === undefined) throw new SeedParseError(`section "${name}" has ${ts.length} tables, not 1`);
  return t;
}

/** Operations timed per instance, in printed order (taken from the performance table). */
export function operationsOf(page: SeedPage): string[] {
  const ops: string[] = [];
  const first = page.basic.parameterSets[0];
  for (const row of tableOf(page, "Performance").rows) if (row[0] === first && row[1] !== undefined) ops.push(row[1]);
  return ops;
}

/** Operations that have a hash/DRNG profile, in printed order (taken from the symmetric-primitives table). */
export function profiledOperationsOf(page: SeedPage): string[] {
  const ops: string[] = [];
  const first = page.basic.parameterSets[0];
  for (const row of tableOf(page, "Symmetric primitives").rows)
    if (row[0] === first && row[1] !== undefined) ops.push(row[1]);
  return ops;
}

/** The survey verdict line of the "Symmetric primitives" section, split into verdict and detail. */
export function surveyVerdictOf(page: SeedPage): { line: string; verdict: string; detail: string | null } {
  const line = notesOf(sectionByName(page, "Symmetric primitives")).find((n) => n.startsWith("Survey verdict: "));
  if (line === undefined) throw new SeedParseError("no survey verdict line");
  const body = line.slice("Survey verdict: ".length);
  const i = body.indexOf(" — ");
  return i < 0 ? { line, verdict: body, detail: null } : { line, verdict: body.slice(0, i), detail: body.slice(i + 3) };
}

// ---------------------------------------------------------------------------------------------------------------
// Completeness checks

function fail(file: string, problems: string[]): never {
  throw new SeedParseError(`${file}: the parse is incomplete or inconsistent:\n  - ${problems.join("\n  - ")}`);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The problems a page's check has found so far, and the checks of its tables that add to them. */
class PageCheck {
  readonly problems: string[] = [];
  readonly instances: readonly string[];
  readonly alg: string;

  constructor(readonly page: SeedPage) {
    this.instances = page.basic.parameterSets;
    this.alg = page.header.algorithmId;
  }

  /** Notes a problem. */
  p(msg: string): void {
    this.problems.push(msg);
  }

  /** The named table, its headers checked against `want`. */
  headers(name: string, want: readonly string[]): SeedTable {
    const t = tableOf(this.page, name);
    if (!sameList(t.headers, want))
      this.p(`${name}: headers [${t.headers.join(" | ")}], expected [${want.join(" | ")}]`);
    return t;
  }

  /** Every cell of column `col` matches `re`. */
  cells(name: string, t: SeedTable, col: number, re: RegExp): void {
    t.rows.forEach((r, i) => {
      const c = r[col] ?? "";
      if (!re.test(c)) this.p(`${name} row ${i + 1} column "${t.headers[col]}": unexpected cell "${c}"`);
    });
  }

  /** Row count and leading cells: row i must begin with keys[i] (a prefix of the row). */
  keys(name: string, t: SeedTable, keys: string[][]): void {
    if (t.rows.length !== keys.length) this.p(`${name}: ${t.rows.length} rows, expected ${keys.length}`);
    keys.forEach((k, i) => {
      const row = t.rows[i];
      if (row === undefined) return;
      const got = row.slice(0, k.length);
      if (!sameList(got, k)) this.p(`${name} row ${i + 1}: [${got.join(", ")}], expected [${k.join(", ")}]`);
    });
  }
}

/** Checks headers, row counts (instances × operations), row keys and cell formats of every table. */
export function checkPage(page: SeedPage, file = "<seed>"): void {
  const c = new PageCheck(page);
  checkStructure(c);
  if (c.problems.length > 0) fail(file, c.problems);
  checkEnvironmentTable(c);
  checkKatTable(c);
  const ops = checkPerformanceTable(c);
  checkResourceTable(c, ops);
  checkSizesTable(c);
  const profOps = checkSymmetricTable(c, ops);
  checkEvidenceTable(c, ops, profOps);
  if (c.problems.length > 0) fail(file, c.problems);
}

/** Parameter sets (some, none twice) and one table per section: what the table checks rely on. */
function checkStructure(c: PageCheck): void {
  if (c.instances.length === 0) c.p("no parameter sets");
  if (new Set(c.instances).size !== c.instances.length) c.p("duplicate parameter sets");
  for (const s of c.page.sections) {
    const n = tablesOf(s).length;
    if (n !== 1) c.p(`section "${s.heading}" has ${n} tables, expected 1`);
  }
}

/** Every (instance, operation) pair in printed order: the rows of the performance and resource tables. */
function timedPairs(c: PageCheck, ops: readonly string[]): string[][] {
  return c.instances.flatMap((i) => ops.map((o) => [i, o]));
}

/** 2. Assessment environment: one row per item, none empty. */
function checkEnvironmentTable(c: PageCheck): void {
  const env = c.headers("Assessment environment", HEADERS.environment);
  c.keys(
    "Assessment environment",
    env,
    ENVIRONMENT_ITEMS.map((k) => [k]),
  );
  env.rows.forEach((r, i) => {
    if ((r[1] ?? "") === "") c.p(`Assessment environment row ${i + 1}: empty value`);
  });
}

/** 3. KAT: one verdict per instance, and the sentence naming the manifest. */
function checkKatTable(c: PageCheck): void {
  const kat = c.headers("Functional testing (KAT)", HEADERS.kat);
  c.keys(
    "Functional testing (KAT)",
    kat,
    c.instances.map((i) => [i]),
  );
  c.cells("Functional testing (KAT)", kat, 2, /^(PASS|FAIL|MISMATCH|ERROR|SKIP)$/);
  if (!notesOf(sectionByName(c.page, "Functional testing (KAT)")).some((n) => n.includes(`${c.alg}/kat.sha256`)))
    c.p(`Functional testing (KAT): no sentence naming the manifest ${c.alg}/kat.sha256`);
}

/** 4. Performance: a row per instance and operation, n = trials × iters. Returns the operations timed. */
function checkPerformanceTable(c: PageCheck): string[] {
  const kind = c.page.basic.kind;
  const perf = c.headers("Performance", HEADERS.performance);
  // KEM and signature operations are fixed; a KEX's steps are read off its first instance and must repeat.
  const wantOps: readonly string[] | null = kind === "kem" ? KEM_OPERATIONS : kind === "sign" ? SIGN_OPERATIONS : null;
  const ops = wantOps !== null ? [...wantOps] : operationsOf(c.page);
  if (kind === "kex" && !ops.includes("exchange")) c.p("Performance: a KEX without an `exchange` row");
  if (ops.length === 0) c.p("Performance: no operations");
  c.keys("Performance", perf, timedPairs(c, ops));
  c.cells("Performance", perf, 2, CELL_PATTERNS.cycles);
  c.cells("Performance", perf, 3, CELL_PATTERNS.time);
  c.cells("Performance", perf, 4, CELL_PATTERNS.opsPerSecond);
  c.cells("Performance", perf, 5, CELL_PATTERNS.time);
  c.cells("Performance", perf, 6, CELL_PATTERNS.n);
  perf.rows.forEach((r, i) => {
    const m = CELL_PATTERNS.n.exec(r[6] ?? "");
    if (m && Number(m[1]) !== Number(m[2]) * Number(m[3]))
      c.p(`Performance row ${i + 1}: n ${r[6]} is not trials × iters`);
  });
  return ops;
}

/** 5. Resource consumption: a row per instance and timed operation. */
function checkResourceTable(c: PageCheck, ops: readonly string[]): void {
  const res = c.headers("Resource consumption", HEADERS.resources);
  c.keys("Resource consumption", res, timedPairs(c, ops));
  c.cells("Resource consumption", res, 2, CELL_PATTERNS.bytes);
  c.cells("Resource consumption", res, 3, CELL_PATTERNS.kib);
  c.cells("Resource consumption", res, 4, CELL_PATTERNS.kib);
}

/** 6. Transmission and storage overhead: a row per instance, the columns of the page's kind. */
function checkSizesTable(c: PageCheck): void {
  const kind = c.page.basic.kind;
  const sizesHeaders = kind === "kem" ? HEADERS.sizesKem : kind === "sign" ? HEADERS.sizesSign : HEADERS.sizesKex;
  const sizes = c.headers("Transmission and storage overhead", sizesHeaders);
  c.keys(
    "Transmission and storage overhead",
    sizes,
    c.instances.map((i) => [i]),
  );
  for (let col = 1; col < sizesHeaders.length; col++) {
    const re = sizesHeaders[col] === "public key A / B" ? /^\d+ \/ \d+$/ : CELL_PATTERNS.bytes;
    c.cells("Transmission and storage overhead", sizes, col, re);
  }
}

/** Symmetric primitives: the profiled operations (returned), each a timed one, and the survey verdict line. */
function checkSymmetricTable(c: PageCheck, ops: readonly string[]): string[] {
  const sym = c.headers("Symmetric primitives", HEADERS.symmetric);
  const profOps = profiledOperationsOf(c.page);
  for (const o of profOps) if (!ops.includes(o)) c.p(`Symmetric primitives: profiled operation ${o} is not timed`);
  c.keys(
    "Symmetric primitives",
    sym,
    c.instances.flatMap((i) => profOps.map((o) => [i, o])),
  );
  c.cells("Symmetric primitives", sym, 2, CELL_PATTERNS.share);
  c.cells("Symmetric primitives", sym, 3, CELL_PATTERNS.share);
  c.cells("Symmetric primitives", sym, 4, CELL_PATTERNS.calls);
  try {
    surveyVerdictOf(c.page);
  } catch {
    c.p("Symmetric primitives: no `Survey verdict:` line");
  }
  return profOps;
}

/** 7. Raw evidence index: per instance the KAT log, then timing and hash profile per operation (alphabetical). */
function checkEvidenceTable(c: PageCheck, ops: readonly string[], profOps: readonly string[]): void {
  const alg = c.alg;
  const ev = c.headers("Raw evidence index", HEADERS.evidence);
  const sortedOps = [...ops].sort();
  const sortedProf = [...profOps].sort();
  const evKeys: string[][] = [];
  for (const i of c.instances) {
    evKeys.push([i]);
    for (const o of sortedOps) evKeys.push([i, `timing ${o}`, `records/${alg}/${i}__${o}.json`]);
    for (const o of sortedProf) evKeys.push([i, `hash profile ${o}`, `profile/${alg}/${i}__${o}.json`]);
  }
  c.keys("Raw evidence index", ev, evKeys);
  ev.rows.forEach((r, i) => {
    if (r[1]?.startsWith("KAT log")) {
      if (!CELL_PATTERNS.katLog.test(r[1])) c.p(`Raw evidence index row ${i + 1}: bad KAT-log cell "${r[1]}"`);
      if (r[2] !== `kat/${alg}/${r[0]}.log`) c.p(`Raw evidence index row ${i + 1}: KAT log path "${r[2]}"`);
    }
  });
  if (!notesOf(sectionByName(c.page, "Raw evidence index")).some((n) => n.startsWith("Paths are relative to ")))
    c.p("Raw evidence index: no `Paths are relative to ...` sentence");
}
