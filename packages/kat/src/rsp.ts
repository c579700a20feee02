// NIST .rsp texts: parsing, the forms PQClean and liboqs hash, the comparison of a shipped file with the generated
// one (every entry line byte for byte; comment lines, empty lines and the final newline may differ, each difference
// named), and the diagnosis of a mismatch (first differing count and field, how many entries differ).

export interface RspField {
  key: string;
  value: string;
  /** 1-based line in the text. */
  line: number;
}

export interface RspEntry {
  /** The value of its `count = ` line (NaN when not a number), or the entry's position when it has none. */
  count: number;
  fields: RspField[];
}

export interface Rsp {
  /** Lines starting with '#' (normally one: "# <algorithm name>"). */
  header: string[];
  entries: RspEntry[];
}

/** Parses a NIST .rsp text (LF or CRLF). Lines that are not `key = value` are kept as field "(text)". */
export function parseRsp(text: string): Rsp {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const header: string[] = [];
  const entries: RspEntry[] = [];
  let cur: RspEntry | undefined;
  lines.forEach((line, i) => {
    if (line.startsWith("#")) {
      header.push(line);
      return;
    }
    if (line.trim() === "") {
      cur = undefined;
      return;
    }
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s?(.*?)\s*$/.exec(line);
    const key = m?.[1] ?? "(text)";
    const value = m ? (m[2] ?? "") : line;
    if (key === "count" || !cur) {
      cur = { count: key === "count" ? Number(value) : entries.length, fields: [] };
      entries.push(cur);
    }
    cur.fields.push({ key, value, line: i + 1 });
  });
  return { header, entries };
}

export type Form = "rsp" | "single" | "all";

/** Whether a text uses CRLF line endings anywhere. */
export function hasCrlf(text: string): boolean {
  return text.includes("\r\n");
}

/** The text with CRLF turned into LF (the only difference the comparison tolerates). */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

/** "3A5F09C1…77E2A0B1 (768 bytes)" for long hex, the value itself otherwise. */
export function abbreviate(value: string | undefined): string {
  if (value === undefined) return "(absent)";
  const hex = /^[0-9A-Fa-f]+$/.test(value) && value.length % 2 === 0;
  if (value.length <= 24) return hex && value.length > 8 ? `${value} (${value.length / 2} bytes)` : value;
  const body = `${value.slice(0, 8)}…${value.slice(-8)}`;
  return hex ? `${body} (${value.length / 2} bytes)` : `${body} (${value.length} characters)`;
}

export interface Diagnosis {
  /** How many entries differ (an entry missing on one side counts). */
  differingEntries: number;
  firstCount?: number;
  /** seed, pk, sk, ct, ss, mlen, msg, smlen, sm, …; "header" or "layout" when no entry differs. */
  field?: string;
  expected?: string;
  actual?: string;
  /** Line of the first difference in the expected text (1-based), when it has one. */
  expectedLine?: number;
  /** A sentence for logs and messages. */
  summary: string;
}

function entryKey(e: RspEntry): string {
  return e.fields.map((f) => `${f.key}=${f.value}`).join("\n");
}

/** A line of a text with its 1-based number. */
interface NumberedLine {
  text: string;
  line: number;
}

/** Lines that hold entry data: every line that is neither empty (or blank) nor a comment (`#` …). */
const isDataLine = (text: string): boolean => text.trim() !== "" && !text.startsWith("#");
const isComment = (text: string): boolean => text.startsWith("#");

/** The lines of an LF text (a final newline ends the last line; it does not start an empty one). */
function linesOf(text: string): NumberedLine[] {
  const parts = text.split("\n");
  if (text.endsWith("\n")) parts.pop();
  return parts.map((t, i) => ({ text: t, line: i + 1 }));
}

/** The `key` of a `key = value` line, or "(text)". */
const keyOf = (text: string): string => /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(text)?.[1] ?? "(text)";

/** A line as a message quotes it: cut to 60 characters, spaces and control characters visible through JSON. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text);
}

/**
 * Where the data lines of two texts first differ byte for byte (null when they agree): the entry (the `count`
 * line at or before it in the expected text) and the field, both lines quoted. This catches what parsing forgives
 * (spacing around `=`, trailing blanks in a value).
 */
function firstDataDifference(
  expected: NumberedLine[],
  actual: NumberedLine[],
): Omit<Diagnosis, "differingEntries" | "summary"> | null {
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const a = actual[i];
    if (e && a && e.text === a.text) continue;
    const countLine = [...expected.slice(0, i + 1)].reverse().find((l) => keyOf(l.text) === "count");
    const count = countLine ? Number(/=\s*(\d+)/.exec(countLine.text)?.[1]) : Number.NaN;
    return {
      ...(Number.isInteger(count) ? { firstCount: count } : {}),
      field: keyOf(e?.text ?? a?.text ?? ""),
      expected: e ? quoted(e.text) : "(no such line)",
      actual: a ? quoted(a.text) : "(no such line)",
      ...(e ? { expectedLine: e.line } : {}),
    };
  }
  return null;
}

/**
 * Where `actual` (generated) differs from `expected` (shipped): entries are paired by position; the first
 * differing entry names its count and its first differing field with both values abbreviated. When the parsed
 * entries agree but their lines do not byte for byte, the first such line is named.
 */
export function diagnose(expected: string, actual: string): Diagnosis {
  const e = parseRsp(expected);
  const a = parseRsp(actual);
  const n = Math.max(e.entries.length, a.entries.length);
  let differing = 0;
  let first: Omit<Diagnosis, "differingEntries" | "summary"> | undefined;
  for (let i = 0; i < n; i++) {
    const ee = e.entries[i];
    const ae = a.entries[i];
    if (ee && ae && entryKey(ee) === entryKey(ae)) continue;
    differing++;
    if (first) continue;
    const count = ee?.count ?? ae?.count ?? i;
    if (!ee || !ae) {
      first = {
        firstCount: Number.isInteger(count) ? count : i,
        field: "count",
        expected: ee ? `entry with count = ${ee.count}` : "(no such entry)",
        actual: ae ? `entry with count = ${ae.count}` : "(no such entry)",
        ...(ee?.fields[0] ? { expectedLine: ee.fields[0].line } : {}),
      };
      continue;
    }
    const m = Math.max(ee.fields.length, ae.fields.length);
    for (let j = 0; j < m; j++) {
      const fe = ee.fields[j];
      const fa = ae.fields[j];
      if (fe && fa && fe.key === fa.key && fe.value === fa.value) continue;
      const field = fe && fa && fe.key !== fa.key ? `${fe.key}/${fa.key}` : (fe?.key ?? fa?.key ?? "?");
      first = {
        firstCount: Number.isInteger(count) ? count : i,
        field,
        expected: fe
          ? fe.key === fa?.key || !fa
            ? abbreviate(fe.value)
            : `${fe.key} = ${abbreviate(fe.value)}`
          : "(absent)",
        actual: fa
          ? fa.key === fe?.key || !fe
            ? abbreviate(fa.value)
            : `${fa.key} = ${abbreviate(fa.value)}`
          : "(absent)",
        ...(fe ? { expectedLine: fe.line } : {}),
      };
      break;
    }
  }
  const summaryOf = (d: Omit<Diagnosis, "differingEntries" | "summary">, count: number, of: number) => {
    const at = d.expectedLine ? ` (line ${d.expectedLine} of the expected file)` : "";
    const entry = d.firstCount !== undefined ? `count = ${d.firstCount}, ` : "";
    return `first difference at ${entry}field ${d.field}${at}: expected ${d.expected}, generated ${d.actual}; ${count} of ${of} entries differ`;
  };
  if (first) return { differingEntries: differing, ...first, summary: summaryOf(first, differing, n) };
  // The parsed entries agree: their lines may still differ byte for byte (spacing the parser forgives).
  const bytes = firstDataDifference(
    linesOf(expected).filter((l) => isDataLine(l.text)),
    linesOf(actual).filter((l) => isDataLine(l.text)),
  );
  if (bytes) return { differingEntries: 1, ...bytes, summary: summaryOf(bytes, 1, n) };
  if (e.header.join("\n") !== a.header.join("\n")) {
    const expectedHeader = e.header.join(" | ") || "(none)";
    const actualHeader = a.header.join(" | ") || "(none)";
    return {
      differingEntries: 0,
      field: "header",
      expected: expectedHeader,
      actual: actualHeader,
      summary: `every entry agrees; the header differs: expected "${expectedHeader}", generated "${actualHeader}"`,
    };
  }
  return {
    differingEntries: 0,
    field: "layout",
    summary: "every entry agrees; the files differ only in empty lines",
  };
}

/** One difference of a shipped .rsp from the generated one outside its entries (tolerated, reported). */
export interface OutsideDifference {
  /** comment: a `#` line differs, is missing or is extra; empty-lines: where empty lines are; final-newline. */
  kind: "comment" | "empty-lines" | "final-newline";
  /** 1-based line of the shipped file (absent when the line is only in the generated file). */
  line?: number;
  /** What the shipped file has there, and what the generated file has (quoted lines, or words). */
  expected: string;
  generated: string;
}

export type RspComparison =
  | { equal: true }
  /** Every entry line agrees byte for byte; only comment lines, empty lines or the final newline differ. */
  | { equal: false; entriesAgree: true; differences: OutsideDifference[] }
  | { equal: false; entriesAgree: false };

/** The comment lines of a text keyed by how many data lines come before them (0: the header). */
function commentsBy(lines: NumberedLine[]): Map<number, NumberedLine[]> {
  const out = new Map<number, NumberedLine[]>();
  let data = 0;
  for (const l of lines) {
    if (isDataLine(l.text)) data++;
    else if (isComment(l.text)) out.set(data, [...(out.get(data) ?? []), l]);
  }
  return out;
}

function commentDifferences(expected: NumberedLine[], actual: NumberedLine[]): OutsideDifference[] {
  const e = commentsBy(expected);
  const a = commentsBy(actual);
  const out: OutsideDifference[] = [];
  for (const at of [...new Set([...e.keys(), ...a.keys()])].sort((x, y) => x - y)) {
    const el = e.get(at) ?? [];
    const al = a.get(at) ?? [];
    for (let i = 0; i < Math.max(el.length, al.length); i++) {
      const x = el[i];
      const y = al[i];
      if (x && y && x.text === y.text) continue;
      out.push({
        kind: "comment",
        ...(x ? { line: x.line } : {}),
        expected: x ? quoted(x.text) : "no comment line",
        generated: y ? quoted(y.text) : "no comment line",
      });
    }
  }
  return out;
}

/** Empty-line differences once comments are set aside: where the empty lines are, and the final newline. */
function layoutDifferences(expected: string, actual: string): OutsideDifference[] {
  const keep = (t: string) => linesOf(t).filter((l) => !isComment(l.text));
  const e = keep(expected);
  const a = keep(actual);
  const out: OutsideDifference[] = [];
  const blank = (l: NumberedLine | undefined) =>
    l ? (l.text === "" ? "an empty line" : quoted(l.text)) : "the end of the file";
  for (let i = 0; i < Math.max(e.length, a.length); i++) {
    const x = e[i];
    const y = a[i];
    if (x && y && x.text === y.text) continue;
    out.push({ kind: "empty-lines", ...(x ? { line: x.line } : {}), expected: blank(x), generated: blank(y) });
    break;
  }
  const ends = (t: string) => (t === "" || t.endsWith("\n") ? "a final newline" : "no final newline");
  if (ends(expected) !== ends(actual)) {
    const last = linesOf(expected).at(-1);
    out.push({
      kind: "final-newline",
      ...(last ? { line: last.line } : {}),
      expected: ends(expected),
      generated: ends(actual),
    });
  }
  return out;
}

/**
 * A shipped .rsp (LF) against the generated one: equal; or every entry line (each non-empty line that is not a
 * `#` comment, in order) agreeing byte for byte, with the differences outside the entries listed — comment lines
 * wherever they are (the header `# <name>` first of all), empty lines, the final newline; or entries that differ.
 */
export function compareRsp(expected: string, generated: string): RspComparison {
  if (expected === generated) return { equal: true };
  const e = linesOf(expected);
  const a = linesOf(generated);
  const ed = e.filter((l) => isDataLine(l.text));
  const ad = a.filter((l) => isDataLine(l.text));
  if (ed.length !== ad.length || ed.some((l, i) => l.text !== ad[i]?.text))
    return { equal: false, entriesAgree: false };
  return {
    equal: false,
    entriesAgree: true,
    differences: [...commentDifferences(e, a), ...layoutDifferences(expected, generated)],
  };
}

/** One difference in words, e.g. `line 1: "# ML-KEM-768", generated "# Kyber768"`. */
export function differenceText(d: OutsideDifference): string {
  const at = d.line ? `line ${d.line}` : "";
  if (d.kind === "final-newline")
    return `the shipped file ends with ${d.expected}, the generated one with ${d.generated}`;
  if (d.kind === "empty-lines")
    return `empty lines differ from ${at || "the end"}: ${d.expected}, generated ${d.generated}`;
  if (!d.line) return `no comment line where the generated file has ${d.generated}`;
  if (d.generated === "no comment line") return `${at}: ${d.expected}, not in the generated file`;
  return `${at}: ${d.expected}, generated ${d.generated}`;
}

/**
 * Another form of a generated .rsp text (header line, an empty line, entries each followed by an empty line):
 * single = entry 0 without header or empty lines; all = entries 0..n-1 without header, an empty line between
 * entries; rsp = the header and entries 0..n-1.
 */
export function deriveForm(rsp: string, form: Form, n: number): string {
  const at = rsp.indexOf("\n\n");
  const header = at >= 0 ? rsp.slice(0, at + 2) : "";
  const body = at >= 0 ? rsp.slice(at + 2) : rsp;
  const entries = body
    .split("\n\n")
    .filter((e) => e !== "")
    .map((e) => (e.endsWith("\n") ? e : `${e}\n`));
  if (form === "single") return entries[0] ?? "";
  if (form === "all") return entries.slice(0, n).join("\n");
  return (
    header +
    entries
      .slice(0, n)
      .map((e) => `${e}\n`)
      .join("")
  );
}
