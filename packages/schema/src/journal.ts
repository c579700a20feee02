// The write journal of a system folder (data/<system>/.write-journal.jsonl): while a run writes into a store, each
// record's path, SHA-256 and size is appended here before the record is renamed into place ("write", flushed to
// disk) and again after ("done"). A run killed between its first record and its index (kill -9, a time limit, a
// power cut) leaves records the index does not list yet; the journal says which contents the run itself wrote, so
// the next run (resumed or not) accepts exactly those and still refuses anything else: a record edited, deleted or
// added by hand. The journal starts with a header naming the index it extends (the SHA-256 of index.json's bytes,
// or null when there was none); a journal whose index has since been replaced is stale and accepts nothing. Once a
// run has written its index the journal is removed. Reading never throws: a problem is a message naming the line.
import type { StoreIndexRecord } from "./generated/types.ts";

/** The journal's name inside a system folder (a dot-file: validate, report and merge do not read it). */
export const JOURNAL_FILE = ".write-journal.jsonl";
/** The header's `journal` field. */
export const JOURNAL_FORMAT = "ngcc-perf write journal";

export interface JournalHeader {
  journal: typeof JOURNAL_FORMAT;
  version: 1;
  system: string;
  /** SHA-256 of the bytes of index.json when the journal was started; null when there was no index. */
  index: string | null;
  createdAt: string;
  /** What started it, e.g. "ngcc-perf run (pid 1234)". */
  by: string;
}

/** One line after the header: a record about to be renamed into place ("write") or renamed ("done"). */
export interface JournalWrite {
  op: "write" | "done";
  /** Relative to the system folder, `/` separators. */
  path: string;
  sha256: string;
  bytes: number;
}

export interface ParsedJournal {
  header: JournalHeader | null;
  writes: JournalWrite[];
  /** What is wrong with the journal, one message per problem ("line 3: …"); the journal is then not trusted. */
  problems: string[];
}

const SHA = /^[0-9a-f]{64}$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function header(v: unknown, system: string): JournalHeader | string {
  if (!isObj(v) || v.journal !== JOURNAL_FORMAT || v.version !== 1)
    return `not a write journal (the first line must be its header, {"journal": "${JOURNAL_FORMAT}", "version": 1, …})`;
  if (v.system !== system)
    return `the journal of system ${JSON.stringify(v.system)}, but it is in the folder of system ${JSON.stringify(system)}`;
  if (!(v.index === null || (typeof v.index === "string" && SHA.test(v.index))))
    return "its header's index is neither null nor a SHA-256";
  return v as unknown as JournalHeader;
}

function write(v: unknown): JournalWrite | string {
  if (!isObj(v) || (v.op !== "write" && v.op !== "done")) return 'expected {"op": "write" | "done", …}';
  if (typeof v.path !== "string" || v.path === "" || v.path.startsWith("/") || v.path.split("/").includes(".."))
    return "its path is not a path inside the system folder";
  if (typeof v.sha256 !== "string" || !SHA.test(v.sha256)) return "its sha256 is not a SHA-256";
  if (typeof v.bytes !== "number" || !Number.isSafeInteger(v.bytes) || v.bytes < 0) return "its bytes is not a size";
  return { op: v.op, path: v.path, sha256: v.sha256, bytes: v.bytes };
}

/**
 * Parses a journal's text. A last line without its newline is a write the run did not finish (it was killed while
 * appending it) and is left out; any other line that is not a header or a write is a problem.
 */
export function parseJournal(text: string, system: string): ParsedJournal {
  const lines = text.split("\n");
  // The last element is "" when the text ends with a newline, else a line the run was killed while appending.
  const torn = lines.pop();
  const problems: string[] = [];
  const writes: JournalWrite[] = [];
  let head: JournalHeader | null = null;
  if (lines.length === 0) {
    return { header: null, writes, problems: [torn ? "line 1: its header is incomplete" : "empty: no header"] };
  }
  lines.forEach((line, i) => {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      problems.push(`line ${i + 1}: not JSON`);
      return;
    }
    const r = i === 0 ? header(v, system) : write(v);
    if (typeof r === "string") problems.push(`line ${i + 1}: ${r}`);
    else if (i === 0) head = r as JournalHeader;
    else writes.push(r as JournalWrite);
  });
  return { header: head, writes, problems };
}

/** What a file can hold: its SHA-256 and size, or ABSENT. */
export const ABSENT = "absent";
export const stateOf = (f: { sha256?: string; bytes?: number }): string => `${f.sha256}:${f.bytes}`;

/**
 * For every path the journal names, the contents the file may hold now if nobody but the run wrote it: starting
 * from what the index lists (ABSENT when it lists nothing), a "write" adds its content (the run may have been killed
 * before or after the rename) and a "done" leaves only its content (the rename happened). A path the journal does not
 * name must match the index itself.
 */
export function possibleStates(
  indexed: readonly StoreIndexRecord["files"][number][],
  writes: readonly JournalWrite[],
): Map<string, Set<string>> {
  const states = new Map<string, Set<string>>();
  const listed = new Map(indexed.map((f) => [f.path, f]));
  for (const w of writes) {
    let s = states.get(w.path);
    if (!s) {
      const f = listed.get(w.path);
      s = new Set([f ? stateOf(f) : ABSENT]);
      states.set(w.path, s);
    }
    if (w.op === "done") s.clear();
    s.add(stateOf(w));
  }
  return states;
}
