// The shipped .rsp checked as a NIST KAT file before anything is compared with it: text (no binary bytes, valid
// UTF-8), `key = value` lines, entries numbered 0, 1, 2 … in order, every field of the category in each entry,
// hex values of even length, the same length of every fixed-size field in every entry, mlen / smlen agreeing with
// msg / sm, and as many entries as the comparison needs. A file that fails is a corrupt KAT file (outcome
// corrupt-kat): the submission's fault, never the implementation's.
import { readShipped } from "./shipped.ts";

/** One problem of a shipped KAT file or its manifest: the file (absolute), the 1-based line, what is wrong. */
export interface KatProblem {
  file: string;
  line?: number;
  message: string;
}

/** "file:line: message", as on stderr and in the log. */
export function problemText(p: KatProblem): string {
  return `${p.file}${p.line ? `:${p.line}` : ""}: ${p.message}`;
}

/** At most this many problems are listed per file (the rest counted). */
export const MAX_PROBLEMS = 20;

type Category = "kem" | "sign" | "kex";

/** The fields of an entry after `count`, in the order katgen writes them (docs/kat.md). */
const FIELDS: Record<Category, { required: string[]; optional: string[] }> = {
  kem: { required: ["seed", "pk", "sk", "ct", "ss"], optional: [] },
  sign: { required: ["seed", "mlen", "msg", "pk", "sk", "smlen", "sm"], optional: [] },
  kex: { required: ["seed", "pk_b", "sk_b", "m1", "ss"], optional: ["pk_a", "sk_a", "m2"] },
};
const DECIMAL = new Set(["count", "mlen", "smlen"]);
/** Fields whose length varies from entry to entry. */
const VARIABLE = new Set(["msg", "sm"]);

/** A value cut for a message: at most 40 characters, control characters escaped. */
function shown(value: string): string {
  const cut = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return JSON.stringify(cut);
}

/** The first byte that makes the file binary (NUL or another control byte) or invalid UTF-8, with its line. */
function binaryAt(data: Buffer): { offset: number; line: number; what: string } | null {
  const lineOf = (offset: number) => {
    let line = 1;
    for (let i = 0; i < offset; i++) if (data[i] === 0x0a) line++;
    return line;
  };
  for (let i = 0; i < data.length; i++) {
    const b = data[i] as number;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) {
      return { offset: i, line: lineOf(i), what: `byte 0x${b.toString(16).padStart(2, "0")}` };
    }
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    // Find the first offending byte: decode growing prefixes is slow; a non-ASCII byte is enough to point at.
    const i = data.findIndex((b) => b >= 0x80);
    return { offset: i, line: lineOf(Math.max(0, i)), what: "invalid UTF-8" };
  }
  return null;
}

interface Field {
  key: string;
  value: string;
  line: number;
}
interface Entry {
  count: number | null;
  line: number;
  fields: Field[];
}

/** Hex of even length (a zero-length value is written "00"); null when fine, else what is wrong. */
function hexProblem(key: string, value: string): string | null {
  if (value === "") return `field ${key} is empty; expected hex digits`;
  const bad = /[^0-9A-Fa-f]/.exec(value);
  if (bad) return `field ${key}: ${shown(bad[0])} at column ${bad.index + 1} of the value is not a hex digit`;
  if (value.length % 2 !== 0) return `field ${key}: odd-length hex (${value.length} digits); expected whole bytes`;
  return null;
}

/** The problems of one entry against the category's fields and the lengths of the first entry. */
function entryProblems(e: Entry, cat: Category, lengths: Map<string, number>, file: string): KatProblem[] {
  const out: KatProblem[] = [];
  const at = (line: number, message: string) => out.push({ file, line, message });
  const spec = FIELDS[cat];
  const known = new Set([...spec.required, ...spec.optional]);
  const seen = new Map<string, Field>();
  const name = `entry count = ${e.count ?? "?"}`;
  for (const f of e.fields) {
    if (seen.has(f.key)) at(f.line, `${name}: field ${f.key} appears twice`);
    else if (!known.has(f.key)) at(f.line, `${name}: unexpected field ${f.key}; expected ${spec.required.join(", ")}`);
    seen.set(f.key, f);
    if (!known.has(f.key)) continue;
    if (DECIMAL.has(f.key)) {
      if (!/^\d+$/.test(f.value)) at(f.line, `${name}: field ${f.key} is ${shown(f.value)}; expected a decimal number`);
      continue;
    }
    const bad = hexProblem(f.key, f.value);
    if (bad) {
      at(f.line, `${name}: ${bad}`);
      continue;
    }
    if (VARIABLE.has(f.key)) continue;
    const first = lengths.get(f.key);
    if (first === undefined) lengths.set(f.key, f.value.length);
    else if (first !== f.value.length) {
      at(f.line, `${name}: field ${f.key} has ${f.value.length / 2} bytes, entry count = 0 has ${first / 2}`);
    }
  }
  for (const key of spec.required) if (!seen.has(key)) at(e.line, `${name} has no field ${key} (truncated entry?)`);
  // mlen and smlen give the byte lengths of msg and sm.
  for (const [len, data] of [
    ["mlen", "msg"],
    ["smlen", "sm"],
  ] as const) {
    const l = seen.get(len);
    const d = seen.get(data);
    if (cat !== "sign" || !l || !d || !/^\d+$/.test(l.value) || hexProblem(data, d.value)) continue;
    const bytes = Number(l.value) === 0 && d.value === "00" ? 0 : d.value.length / 2;
    if (bytes !== Number(l.value)) at(d.line, `${name}: field ${data} has ${bytes} bytes, ${len} says ${l.value}`);
  }
  return out;
}

/** Splits the text into entries at `count` lines; lines that are not `key = value` are problems. */
function entriesOf(text: string, file: string, problems: KatProblem[]): Entry[] {
  const entries: Entry[] = [];
  let cur: Entry | null = null;
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    const s = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (s.trim() === "" || s.startsWith("#")) {
      if (s.trim() === "") cur = null;
      return;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*) = ?(.*)$/.exec(s.trim());
    if (!m?.[1]) {
      problems.push({ file, line, message: `expected "key = value", found ${shown(s)}` });
      return;
    }
    const key = m[1];
    const value = m[2] ?? "";
    if (key === "count") {
      cur = { count: /^\d+$/.test(value) ? Number(value) : null, line, fields: [] };
      entries.push(cur);
      if (cur.count === null) problems.push({ file, line, message: `count is ${shown(value)}; expected a number` });
      return;
    }
    if (!cur) {
      const message = `field ${key} outside an entry; an entry starts with a "count = N" line after an empty line`;
      problems.push({ file, line, message });
      return;
    }
    (cur as Entry).fields.push({ key, value, line });
  });
  return entries;
}

/**
 * The problems of a shipped .rsp of an instance of `category` that must hold at least `entries` entries;
 * an empty list when it is a well-formed KAT file. Never throws for what the file holds.
 */
export function checkShippedRsp(file: string, category: Category, entries: number, root?: string): KatProblem[] {
  const read = readShipped(file, root);
  if (read.missing) return [{ file, message: "does not exist (meta.json names it as the instance's KAT file)" }];
  if (read.error !== undefined) return [{ file, message: read.error }];
  const data = read.bytes;
  if (data.length === 0) return [{ file, message: `is empty; expected a NIST .rsp with ${entries} entries` }];
  const binary = binaryAt(data);
  if (binary) {
    const message = `${binary.what} at offset ${binary.offset}: not a text file; expected a NIST .rsp ("key = value" lines)`;
    return [{ file, line: binary.line, message }];
  }
  const text = data.toString("utf8");
  const problems: KatProblem[] = [];
  const list = entriesOf(text, file, problems);
  const lengths = new Map<string, number>();
  let next = 0;
  for (const e of list) {
    if (e.count !== null && e.count !== next) {
      problems.push({ file, line: e.line, message: `count = ${e.count} out of order; expected count = ${next}` });
    }
    next = (e.count ?? next) + 1;
    problems.push(...entryProblems(e, category, lengths, file));
  }
  if (list.length < entries) {
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const message = `has ${list.length} ${list.length === 1 ? "entry" : "entries"}; expected ${entries} (truncated file?)`;
    problems.push({ file, line: Math.max(1, lines), message });
  }
  if (problems.length <= MAX_PROBLEMS) return problems;
  const more = problems.length - MAX_PROBLEMS;
  return [...problems.slice(0, MAX_PROBLEMS), { file, message: `… and ${more} more problem${more === 1 ? "" : "s"}` }];
}
