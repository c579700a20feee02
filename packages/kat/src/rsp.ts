// NIST .rsp texts: parsing, the forms PQClean and liboqs hash, byte comparison with CRLF tolerated, and the
// diagnosis of a mismatch (first differing count and field, how many entries differ).

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

/**
 * Where `actual` (generated) differs from `expected` (shipped): entries are paired by position; the first
 * differing entry names its count and its first differing field with both values abbreviated.
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
  if (first) {
    const at = first.expectedLine ? ` (line ${first.expectedLine} of the expected file)` : "";
    return {
      differingEntries: differing,
      ...first,
      summary: `first difference at count = ${first.firstCount}, field ${first.field}${at}: expected ${first.expected}, generated ${first.actual}; ${differing} of ${n} entries differ`,
    };
  }
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
    summary: "every entry agrees; the files differ only in empty lines or spacing",
  };
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
