// The size catalog (external_sizes.csv): RFC 4180 CSV parsed with csv-parse, every row checked, errors as
// file:line plus what was expected. docs/sizes.md documents the format.
import { readFileSync } from "node:fs";
import { InputError, type SizeCatalogRow, shortText, validate } from "@ngcc-perf/schema";
import { CsvError, parse } from "csv-parse/sync";

export type Category = "kem" | "sign" | "kex";

/** The catalog's columns, in the order formatCatalog writes them. */
export const CATALOG_COLUMNS = [
  "algorithm_id",
  "instance",
  "category",
  "public_key",
  "ciphertext",
  "signature",
  "public_key_a",
  "kex_messages",
  "source",
  "note",
] as const;
export type CatalogColumn = (typeof CATALOG_COLUMNS)[number];

/** Columns every catalog has; the others (category, public_key_a, kex_messages) are optional. */
export const REQUIRED_COLUMNS: readonly CatalogColumn[] = [
  "algorithm_id",
  "instance",
  "public_key",
  "ciphertext",
  "signature",
  "source",
  "note",
];

/** Which size columns a row of each category may fill (the others must be empty). */
const CATEGORY_COLUMNS: Record<Category, readonly CatalogColumn[]> = {
  kem: ["public_key", "ciphertext"],
  sign: ["public_key", "signature"],
  kex: ["public_key", "public_key_a", "kex_messages"],
};
const SIZE_COLUMNS: readonly CatalogColumn[] = [
  "public_key",
  "ciphertext",
  "signature",
  "public_key_a",
  "kex_messages",
];

export interface CatalogRow {
  algorithmId: string;
  instance: string;
  category: Category | null;
  /** KEM/signature public key; key exchange: the responder B's long-term public key. */
  publicKeyBytes: number | null;
  ciphertextBytes: number | null;
  signatureBytes: number | null;
  /** Key exchange: the initiator A's long-term public key (0 when A has none). */
  publicKeyABytes: number | null;
  /** Key exchange: each protocol message in pass order. */
  kexMessageBytes: number[] | null;
  source: string;
  note: string;
  /** 1-based line of the row in the file (its first line when a quoted cell spans lines). */
  line: number;
}

export interface Catalog {
  path: string;
  sha256?: string;
  rows: CatalogRow[];
}

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.+-]*$/;
const SIZE_RE = /^\d+$/;
const MESSAGES_RE = /^\d+(\+\d+)*$/;
const MAX_ERRORS = 20;
/** The plausibility limit of a catalogued size: 64 MiB, as for API sizes (MAX_API_BYTES). */
const MAX_CATALOG_BYTES = 64 * 1024 * 1024;

interface Located {
  record: string[];
  info: { lines: number };
}

/** Collects `file:line: message` problems (at most MAX_ERRORS) and throws them together. */
class Problems {
  readonly list: string[] = [];
  constructor(private readonly file: string) {}
  add(line: number, message: string): void {
    if (this.list.length < MAX_ERRORS) this.list.push(`${this.file}:${line}: ${message}`);
  }
  throwIfAny(): void {
    if (this.list.length === 0) return;
    const more = this.list.length >= MAX_ERRORS ? `\n(stopped after ${MAX_ERRORS} errors)` : "";
    throw new InputError(`invalid size catalog:\n${this.list.join("\n")}${more}`);
  }
}

/** csv-parse's records with their line information; InputError for text that is not CSV. */
function csvRecords(text: string, file: string): Located[] {
  try {
    return parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      comment: "#",
      comment_no_infix: true,
    }) as unknown as Located[];
  } catch (err) {
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines ?? 1;
      throw new InputError(
        `invalid size catalog:\n${file}:${line}: not valid CSV (RFC 4180): ${shortText(err.message, 240)}`,
      );
    }
    throw err;
  }
}

/** A record's first line: where it ends minus the line breaks inside its quoted cells. */
function startLine(r: Located): number {
  return r.info.lines - r.record.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
}

/** The header: each known column's index; unknown, repeated and missing columns are problems. */
function headerIndex(header: readonly string[], line: number, problems: Problems): Map<string, number> {
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!(CATALOG_COLUMNS as readonly string[]).includes(name)) {
      problems.add(
        line,
        `unknown column "${shortText(name)}" in the header; expected the columns ${CATALOG_COLUMNS.join(", ")}`,
      );
    } else if (index.has(name)) {
      problems.add(line, `column "${shortText(name)}" appears twice in the header`);
    } else index.set(name, i);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
  if (missing.length > 0) problems.add(line, `the header lacks the column(s) ${missing.join(", ")}`);
  return index;
}

function parseCategory(text: string, fail: (message: string) => void): Category | null {
  if (text === "") return null;
  if (text === "kem" || text === "sign" || text === "kex") return text;
  fail(`column category: expected kem, sign or kex, found "${shortText(text)}"`);
  return null;
}

function parseMessages(text: string, fail: (message: string) => void): number[] | null {
  if (text === "") return null;
  const parts = text.split("+").map((p) => p.trim());
  if (parts.every((p) => SIZE_RE.test(p) && Number(p) <= MAX_CATALOG_BYTES) && MESSAGES_RE.test(parts.join("+"))) {
    return parts.map(Number);
  }
  fail(
    `column kex_messages: expected message sizes in bytes (each at most ${MAX_CATALOG_BYTES}) joined by + (e.g. 1632+832), found "${shortText(text)}"`,
  );
  return null;
}

/** One body record as a row; its problems are added to `problems` (the row is usable when none were). */
function parseRow(r: Located, line: number, index: Map<string, number>, problems: Problems): CatalogRow {
  const fail = (message: string) => problems.add(line, message);
  const cell = (c: CatalogColumn): string => {
    const i = index.get(c);
    return i === undefined ? "" : (r.record[i] ?? "").trim();
  };
  const size = (c: CatalogColumn): number | null => {
    const v = cell(c);
    if (v === "") return null;
    if (SIZE_RE.test(v) && Number(v) <= MAX_CATALOG_BYTES) return Number(v);
    if (SIZE_RE.test(v)) {
      fail(
        `column ${c}: ${shortText(v)} bytes is over the plausibility limit of ${MAX_CATALOG_BYTES} (64 MiB); expected a size in bytes`,
      );
      return null;
    }
    fail(`column ${c}: expected a size in bytes (a whole number) or an empty cell, found "${shortText(v)}"`);
    return null;
  };
  const algorithmId = cell("algorithm_id");
  const instance = cell("instance");
  if (!ID_RE.test(algorithmId))
    fail(`column algorithm_id: expected an algorithm id such as kem-20, found "${shortText(algorithmId)}"`);
  if (!ID_RE.test(instance))
    fail(`column instance: expected an instance name such as MAMBA-Frost-128, found "${shortText(instance)}"`);
  const category = parseCategory(cell("category"), fail);
  const kexMessageBytes = parseMessages(cell("kex_messages"), fail);
  const row: CatalogRow = {
    algorithmId,
    instance,
    category,
    publicKeyBytes: size("public_key"),
    ciphertextBytes: size("ciphertext"),
    signatureBytes: size("signature"),
    publicKeyABytes: size("public_key_a"),
    kexMessageBytes,
    source: cell("source"),
    note: cell("note"),
    line,
  };
  const allowed = category ? CATEGORY_COLUMNS[category] : SIZE_COLUMNS;
  for (const c of SIZE_COLUMNS) {
    if (!allowed.includes(c) && cell(c) !== "") {
      fail(`column ${c}: expected an empty cell in a ${category} row (it fills ${allowed.join(", ")})`);
    }
  }
  return row;
}

/**
 * Parses catalog text. `file` names the file in error messages. Lines whose first character is `#` are
 * comments; empty lines are skipped. Throws InputError listing every problem as `file:line: message`.
 */
export function parseCatalog(text: string, file: string): CatalogRow[] {
  const [head, ...body] = csvRecords(text, file);
  if (!head)
    throw new InputError(
      `invalid size catalog:\n${file}:1: expected a header line (${REQUIRED_COLUMNS.join(",")}), found nothing`,
    );
  const problems = new Problems(file);
  const headLine = startLine(head);
  const header = head.record.map((c) => c.trim());
  const index = headerIndex(header, headLine, problems);
  problems.throwIfAny();

  const rows: CatalogRow[] = [];
  const seen = new Map<string, number>();
  for (const r of body) {
    const line = startLine(r);
    if (r.record.length !== header.length) {
      problems.add(
        line,
        `expected ${header.length} columns as in the header (line ${headLine}), found ${r.record.length}`,
      );
      continue;
    }
    const before = problems.list.length;
    const row = parseRow(r, line, index, problems);
    if (problems.list.length > before) continue;
    const key = `${row.algorithmId}/${row.instance}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.add(line, `duplicate row for ${key}: expected one row per instance (first at line ${first})`);
      continue;
    }
    seen.set(key, line);
    // The schema is the last word on what a row may hold.
    const v = validate("size-catalog-row", toSchemaRow(row));
    if (!v.valid) {
      for (const e of v.errors) problems.add(line, `${e.pointer || "(row)"} ${e.message}`);
      continue;
    }
    rows.push(row);
  }
  problems.throwIfAny();
  return rows;
}

/** Reads and parses a catalog file; `shown` names it in messages (default: the path). */
export function readCatalog(path: string, shown = path): CatalogRow[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new InputError(`${shown}: cannot read the size catalog (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  return parseCatalog(text, shown);
}

/** A row as the size-catalog-row schema holds it. */
export function toSchemaRow(row: CatalogRow): SizeCatalogRow {
  return {
    algorithmId: row.algorithmId,
    instance: row.instance,
    publicKeyBytes: row.publicKeyBytes,
    ciphertextBytes: row.ciphertextBytes,
    signatureBytes: row.signatureBytes,
    source: row.source,
    note: row.note,
    ...(row.category ? { category: row.category } : {}),
    ...(row.publicKeyABytes !== null ? { publicKeyABytes: row.publicKeyABytes } : {}),
    ...(row.kexMessageBytes !== null ? { kexMessageBytes: row.kexMessageBytes } : {}),
  };
}

function quote(cell: string): string {
  return /[",\r\n]|^\s|\s$|^#/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** Writes rows as catalog CSV (all columns, LF line ends), after `comments` as `# ` lines. */
export function formatCatalog(rows: readonly Omit<CatalogRow, "line">[], comments: readonly string[] = []): string {
  const n = (v: number | null) => (v === null ? "" : String(v));
  const lines = [
    ...comments.map((c) => `# ${c}`.trimEnd()),
    CATALOG_COLUMNS.join(","),
    ...rows.map((r) =>
      [
        r.algorithmId,
        r.instance,
        r.category ?? "",
        n(r.publicKeyBytes),
        n(r.ciphertextBytes),
        n(r.signatureBytes),
        n(r.publicKeyABytes),
        r.kexMessageBytes ? r.kexMessageBytes.join("+") : "",
        r.source,
        r.note,
      ]
        .map(quote)
        .join(","),
    ),
  ];
  return `${lines.join("\n")}\n`;
}
