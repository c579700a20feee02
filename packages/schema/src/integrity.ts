// Store integrity: does a system folder (data/<system>/) still hold exactly the files its index.json lists, with the
// SHA-256 and size each was written with? And do a timing record's figures follow from one another (ops/s from the
// mean, the mean and n from the raw trials)? `ngcc-perf validate`, the report and `ngcc-perf merge` refuse a store
// that fails either check; `ngcc-perf index` rebuilds the index after a deliberate edit (docs/record-schema.md,
// "Integrity"). Nothing here throws for what files hold: every problem is a finding naming its file.
import { createHash } from "node:crypto";
import { closeSync, type Dirent, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { quantile } from "@ngcc-perf/stats";
import { formatFileProblem, formatProblem } from "./errors.ts";
import { MAX_RECORD_BYTES, validateFile } from "./files.ts";
import type { StoreIndexRecord } from "./generated/types.ts";
import { ABSENT, JOURNAL_FILE, type ParsedJournal, parseJournal, possibleStates, stateOf } from "./journal.ts";
import { isValidName, parseRecordPath } from "./layout.ts";
import { jsonLocator } from "./locate.ts";
import { keptSamples, SWITCHED_OUT_CAP } from "./switched-out.ts";
import type { ValidationError } from "./validate.ts";

/** One file of a system folder as an index lists it. */
export type IndexedFile = StoreIndexRecord["files"][number];

export type IntegrityProblem =
  /** SHA-256 or size differs from the index. */
  | "changed"
  /** Listed in the index, missing on disk. */
  | "deleted"
  /** On disk at a place of the layout, not listed in the index. */
  | "not-indexed"
  /** No index.json in the system folder. */
  | "no-index"
  /** index.json does not validate as a store index (or is another system's). */
  | "invalid-index"
  /** An entry of the index that cannot be checked: outside the layout, listed twice, the wrong kind, no hash. */
  | "index-entry"
  /** A file of the layout that cannot be read (permissions, not a regular file). */
  | "unreadable"
  /** A timing record whose figures contradict each other (timingIdentities). */
  | "inconsistent"
  /** The write journal (checked with `journal: true`) cannot be read or is not one; it then vouches for nothing. */
  | "journal";

export interface IntegrityFinding {
  /** The file concerned, relative to the system folder with `/` separators ("index.json" for the index). */
  path: string;
  problem: IntegrityProblem;
  /** What differs, starting with the problem in words ("changed since the index was written: …"). */
  message: string;
  /** For "inconsistent": the JSON pointer of the figure and its line and column. */
  pointer?: string;
  line?: number;
  column?: number;
}

export interface SystemIntegrity {
  system: string;
  /** The system folder (absolute). */
  dir: string;
  /** The index when it exists and validates, else null. */
  index: StoreIndexRecord | null;
  /** The files of the layout now on disk (below `within`), as an index would list them. */
  files: IndexedFile[];
  findings: IntegrityFinding[];
  /**
   * With `journal: true`, what the write journal (.write-journal.jsonl) was: none; current (it extends this index, so
   * the contents it names were accepted); stale (it extends an index since replaced, so it was ignored); or
   * unreadable (a "journal" finding says why; ignored).
   */
  journal?: "none" | "current" | "stale" | "unreadable";
  /** With `journal: true`, the SHA-256 of index.json's bytes (null when there is none): what a new journal extends. */
  indexSha256?: string | null;
}

export interface IntegrityOptions {
  /** Check only this file or folder of the system folder (relative, `/` separators); "" or absent: everything. */
  within?: string;
  /** Also check the identities of every timing record (timingIdentities); default true. */
  consistency?: boolean;
  /**
   * Also accept what the write journal of an interrupted run says the run wrote (a record not yet indexed, or one
   * rewritten by a resumed run): the check a run makes before it writes into a store. Default false: validate, the
   * report and merge hold a store to its index alone.
   */
  journal?: boolean;
}

/**
 * Relative tolerance of the identities (a millionth), on top of the rounding of trial totals to whole units: a
 * figure derived from trials may differ from the trials' own by half a unit (ns, counter tick) per trial. Figures a
 * program writes agree far closer; an edit that changes a published digit does not.
 */
export const IDENTITY_TOLERANCE = 1e-6;

const INDEX = "index.json";
const LAYOUT_ENTRIES = ["index.json", "environment.json", "records", "profile", "kat", "sizes", "survey"];

const toSlash = (p: string) => p.split(sep).join("/");
const short = (hash: string) => `${hash.slice(0, 16)}…`;

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/** SHA-256 (hex) and size of a file, read in chunks (a file of any size); an error message instead when unreadable. */
export function hashFile(file: string): { sha256: string; bytes: number } | { error: string } {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    return { error: `cannot read: ${code(err)}` };
  }
  try {
    const hash = createHash("sha256");
    const buf = Buffer.alloc(1 << 16);
    let bytes = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      bytes += n;
    }
    return { sha256: hash.digest("hex"), bytes };
  } catch (err) {
    return { error: `cannot read: ${code(err)}` };
  } finally {
    closeSync(fd);
  }
}

/** Whether a folder is a system folder of a store: data/<name>/ holding an index, an environment or record folders. */
export function isSystemDir(dir: string): boolean {
  const abs = resolve(dir);
  if (basename(dirname(abs)) !== "data" || !isValidName(basename(abs))) return false;
  return LAYOUT_ENTRIES.some((e) => existsSync(join(abs, e)));
}

export interface SystemRef {
  /** The system folder (absolute). */
  dir: string;
  system: string;
  /** The part of it `path` names, relative with `/` separators; "" for the whole folder. */
  within: string;
}

/**
 * The system folders a path concerns: the one it lies in (a record, a folder below data/<system>/, the system folder
 * itself), or every system folder below it (a store, its data/ folder, a folder of stores). Dot-folders and
 * node_modules are skipped. A path that does not exist concerns none.
 */
export function systemDirsOf(path: string): SystemRef[] {
  const abs = resolve(path);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    return [];
  }
  for (let cur = isDir ? abs : dirname(abs); ; cur = dirname(cur)) {
    if (isSystemDir(cur)) return [{ dir: cur, system: basename(cur), within: toSlash(relative(cur, abs)) }];
    if (dirname(cur) === cur) break;
  }
  if (!isDir) return [];
  const found: SystemRef[] = [];
  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!e.isDirectory() || e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = join(dir, e.name);
      if (isSystemDir(p)) found.push({ dir: p, system: e.name, within: "" });
      else walk(p);
    }
  };
  walk(abs);
  return found;
}

/** Whether `rel` is `within` or lies below it. */
function inside(rel: string, within: string): boolean {
  return within === "" || rel === within || rel.startsWith(`${within}/`);
}

/**
 * The files of the layout in a system folder (or below `within`), hashed: what index.json lists, in the order of a
 * walk with each folder's names sorted. The index itself, dot-files and temporaries (*.tmp) are not part of it; files
 * outside the layout are ignored.
 */
function scan(dir: string, system: string, within: string): { files: IndexedFile[]; unreadable: IntegrityFinding[] } {
  const files: IndexedFile[] = [];
  const unreadable: IntegrityFinding[] = [];
  const visit = (abs: string, rel: string) => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(abs);
    } catch (err) {
      // a dangling symbolic link, a file removed while we read
      const entry = parseRecordPath(system, rel);
      if (entry && entry.kind !== "store-index")
        unreadable.push({ path: rel, problem: "unreadable", message: `cannot read: ${code(err)}` });
      return;
    }
    if (st.isDirectory()) {
      let names: string[];
      try {
        names = readdirSync(abs).sort();
      } catch (err) {
        unreadable.push({ path: rel, problem: "unreadable", message: `cannot read the folder: ${code(err)}` });
        return;
      }
      for (const name of names) {
        if (name.startsWith(".") || name.endsWith(".tmp")) continue;
        visit(join(abs, name), rel === "" ? name : `${rel}/${name}`);
      }
      return;
    }
    const entry = parseRecordPath(system, rel);
    if (!entry || entry.kind === "store-index") return;
    if (!st.isFile()) {
      unreadable.push({ path: rel, problem: "unreadable", message: "not a regular file" });
      return;
    }
    const h = hashFile(abs);
    if ("error" in h) unreadable.push({ path: rel, problem: "unreadable", message: h.error });
    else files.push({ path: rel, kind: entry.kind as IndexedFile["kind"], sha256: h.sha256, bytes: h.bytes });
  };
  visit(within === "" ? dir : join(dir, ...within.split("/")), within);
  return { files, unreadable };
}

/** The files of the layout in a system folder with kind, SHA-256 and size: the `files` of its index. */
export function storeFiles(dir: string): IndexedFile[] {
  const abs = resolve(dir);
  return scan(abs, basename(abs), "").files;
}

/** Reads and validates a system folder's index.json: the index, or the finding that says why there is none. */
export function readStoreIndex(
  dir: string,
  system = basename(resolve(dir)),
): { index: StoreIndexRecord } | { finding: IntegrityFinding } {
  const file = join(dir, INDEX);
  if (!existsSync(file)) {
    return {
      finding: {
        path: INDEX,
        problem: "no-index",
        message:
          'missing: without index.json no record of this system can be checked against the SHA-256 it was written with; if the records are as they should be, rebuild it with "ngcc-perf index <store>"',
      },
    };
  }
  let r: ReturnType<typeof validateFile>;
  try {
    r = validateFile(file, { kind: "store-index" });
  } catch (err) {
    const message = `cannot be checked: ${(err as Error).message}`;
    return { finding: { path: INDEX, problem: "invalid-index", message } };
  }
  if (!r.valid) {
    const e = r.errors[0];
    const where = e ? formatProblem(e) : "";
    const more = r.errors.length > 1 ? ` (and ${r.errors.length - 1} more)` : "";
    return {
      finding: { path: INDEX, problem: "invalid-index", message: `not a valid store index: ${where}${more}` },
    };
  }
  let index: StoreIndexRecord;
  try {
    index = JSON.parse(readFileSync(file, "utf8")) as StoreIndexRecord;
  } catch (err) {
    return { finding: { path: INDEX, problem: "invalid-index", message: `cannot read: ${code(err)}` } };
  }
  if (index.system !== system) {
    return {
      finding: {
        path: INDEX,
        problem: "invalid-index",
        message: `the index of system ${JSON.stringify(index.system)}, but it is in the folder of system ${JSON.stringify(system)}`,
      },
    };
  }
  return { index };
}

/**
 * The index's entries below `within`, by path, and the findings of entries that cannot be checked (outside the
 * layout, listed twice, the wrong kind).
 */
function listedFiles(
  system: string,
  index: StoreIndexRecord,
  within: string,
): { listed: Map<string, IndexedFile>; findings: IntegrityFinding[] } {
  const findings: IntegrityFinding[] = [];
  const listed = new Map<string, IndexedFile>();
  for (const f of index.files) {
    if (!inside(f.path, within)) continue;
    const entry = parseRecordPath(system, f.path);
    if (!entry || entry.kind === "store-index") {
      findings.push({
        path: f.path,
        problem: "index-entry",
        message: "listed in index.json, but not a place of the store layout (see docs/record-schema.md)",
      });
      continue;
    }
    if (listed.has(f.path)) {
      findings.push({ path: f.path, problem: "index-entry", message: "listed twice in index.json" });
      continue;
    }
    if (entry.kind !== f.kind) {
      findings.push({
        path: f.path,
        problem: "index-entry",
        message: `listed in index.json as ${f.kind}, but a file at this place holds ${entry.kind}`,
      });
    }
    listed.set(f.path, f);
  }
  return { listed, findings };
}

/**
 * A file the write journal says the run wrote: no finding when it holds what the run wrote (or what it replaced, if
 * killed mid-write), else "changed" (it is indexed) or "not-indexed".
 */
function journalledFinding(
  f: IndexedFile,
  want: IndexedFile | undefined,
  written: Set<string>,
): IntegrityFinding | null {
  if (written.has(stateOf(f))) return null;
  const said = [...written].filter((x) => x !== ABSENT).map((x) => short(x.split(":")[0] ?? ""));
  return want
    ? {
        path: f.path,
        problem: "changed",
        message: `changed since it was written: SHA-256 ${short(f.sha256 ?? "")} (${f.bytes} bytes), but the index says ${short(want.sha256 ?? "")} and the write journal ${said.join(" or ")}`,
      }
    : {
        path: f.path,
        problem: "not-indexed",
        message: `not indexed, and not what the interrupted run wrote: SHA-256 ${short(f.sha256 ?? "")} (${f.bytes} bytes), the write journal says ${said.join(" or ")}`,
      };
}

/** A file on disk against its entry of the index (none: not indexed); null when they agree. */
function indexedFinding(f: IndexedFile, want: IndexedFile | undefined, nor: string): IntegrityFinding | null {
  if (!want) {
    return {
      path: f.path,
      problem: "not-indexed",
      message: `not indexed: the file is in the store, but index.json does not list it${nor}`,
    };
  }
  if (want.sha256 === undefined || want.bytes === undefined) {
    return {
      path: f.path,
      problem: "index-entry",
      message: `index.json gives no ${want.sha256 === undefined ? "SHA-256" : "size"} for it, so it cannot be checked`,
    };
  }
  const diffs: string[] = [];
  if (want.sha256 !== f.sha256) diffs.push(`SHA-256 ${short(f.sha256 ?? "")}, the index says ${short(want.sha256)}`);
  if (want.bytes !== f.bytes) diffs.push(`${f.bytes} bytes, the index says ${want.bytes}`);
  if (diffs.length === 0) return null;
  return { path: f.path, problem: "changed", message: `changed since the index was written: ${diffs.join("; ")}` };
}

/** Compares the files on disk with the index's list. */
function compare(
  system: string,
  index: StoreIndexRecord,
  files: IndexedFile[],
  unreadable: IntegrityFinding[],
  within: string,
  journal: Map<string, Set<string>> | null = null,
): IntegrityFinding[] {
  const nor = journal ? " nor the write journal of an interrupted run" : "";
  const { listed, findings } = listedFiles(system, index, within);
  const present = new Set<string>();
  for (const u of unreadable) present.add(u.path);
  for (const f of files) {
    present.add(f.path);
    const want = listed.get(f.path);
    const written = journal?.get(f.path);
    const finding = written ? journalledFinding(f, want, written) : indexedFinding(f, want, nor);
    if (finding) findings.push(finding);
  }
  for (const [path, f] of listed) {
    if (present.has(path)) continue;
    findings.push({
      path,
      problem: "deleted",
      message: `deleted: index.json lists it (${f.kind}${f.bytes !== undefined ? `, ${f.bytes} bytes` : ""}), but there is no such file`,
    });
  }
  return [...findings, ...unreadable];
}

/**
 * Checks a system folder (data/<system>/) against its index.json: every file of the layout with the SHA-256 and
 * size the index lists, every listed file present, nothing unlisted; and (unless `consistency: false`) the identities
 * of every timing record. Findings are sorted by path; the index's own finding (missing, invalid) comes first.
 */
export function checkSystemIntegrity(dir: string, options: IntegrityOptions = {}): SystemIntegrity {
  const abs = resolve(dir);
  const system = basename(abs);
  const within = (options.within ?? "").replace(/\/+$/, "");
  const { files, unreadable } = scan(abs, system, within);
  const read = readStoreIndex(abs, system);
  const findings: IntegrityFinding[] = [];
  let index: StoreIndexRecord | null = null;
  const extra: Pick<SystemIntegrity, "journal" | "indexSha256"> = {};
  if (options.journal) {
    const j = readJournal(abs, system, read);
    extra.journal = j.state;
    extra.indexSha256 = j.indexSha256;
    if (j.finding) findings.push(j.finding);
    if ("index" in read) {
      index = read.index;
      findings.push(...compare(system, index, files, unreadable, within, j.states ?? new Map()));
    } else if (read.finding.problem === "no-index" && j.state === "current") {
      // The first run into this store was interrupted before its index: what it wrote is in the journal.
      const own = compare(system, { files: [] } as unknown as StoreIndexRecord, files, unreadable, within, j.states);
      findings.push(...(own.length > 0 ? [read.finding, ...own] : []));
    } else findings.push(read.finding, ...unreadable);
  } else if ("finding" in read) findings.push(read.finding, ...unreadable);
  else {
    index = read.index;
    findings.push(...compare(system, index, files, unreadable, within));
  }
  if (options.consistency !== false) {
    for (const f of files) {
      if (f.kind !== "timing" || (f.bytes ?? 0) > MAX_RECORD_BYTES) continue;
      for (const e of recordConsistency(join(abs, ...f.path.split("/")))) {
        findings.push({ path: f.path, problem: "inconsistent", message: e.message, pointer: e.pointer, ...pos(e) });
      }
    }
  }
  const rank = (f: IntegrityFinding) => (f.path === INDEX ? 0 : f.path === JOURNAL_FILE ? 1 : 2);
  findings.sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { system, dir: abs, index, files, findings, ...extra };
}

/**
 * The write journal of a system folder, read against the index now there: the contents it accepts per path (null
 * when it is missing, stale or unreadable — then it accepts nothing), its state, and the index's own SHA-256.
 */
function readJournal(
  dir: string,
  system: string,
  read: ReturnType<typeof readStoreIndex>,
): {
  states: Map<string, Set<string>> | null;
  state: NonNullable<SystemIntegrity["journal"]>;
  indexSha256: string | null;
  finding?: IntegrityFinding;
} {
  const h = "index" in read || read.finding.problem !== "no-index" ? hashFile(join(dir, INDEX)) : null;
  const indexSha256 = h && "sha256" in h ? h.sha256 : null;
  const file = join(dir, JOURNAL_FILE);
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw Object.assign(new Error("not a regular file"), { code: "not a regular file" });
    // Two lines of about 200 bytes per record written: far more than any store holds is not a journal.
    if (st.size > 4 * MAX_RECORD_BYTES) throw Object.assign(new Error("too large"), { code: `${st.size} bytes` });
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { states: null, state: "none", indexSha256 };
    const message = `cannot read the write journal: ${code(err)}; it vouches for nothing`;
    return {
      states: null,
      state: "unreadable",
      indexSha256,
      finding: { path: JOURNAL_FILE, problem: "journal", message },
    };
  }
  const j: ParsedJournal = parseJournal(text, system);
  if (j.problems.length > 0 || !j.header) {
    const message = `not a valid write journal (${j.problems.join("; ")}); it vouches for nothing (if the records are as they should be, rebuild the index with "ngcc-perf index <store>")`;
    return {
      states: null,
      state: "unreadable",
      indexSha256,
      finding: { path: JOURNAL_FILE, problem: "journal", message },
    };
  }
  // A journal vouches only for writes on top of the index it started from.
  if (j.header.index !== indexSha256 || !("index" in read || read.finding.problem === "no-index"))
    return { states: null, state: "stale", indexSha256 };
  const indexed = "index" in read ? read.index.files : [];
  return { states: possibleStates(indexed, j.writes), state: "current", indexSha256 };
}

function pos(e: ValidationError): { line?: number; column?: number } {
  return e.line === undefined ? {} : { line: e.line, column: e.column ?? 1 };
}

/** Every system folder below a store (data/<system>/ holding any file), checked. */
export function checkStoreIntegrity(root: string, options: IntegrityOptions = {}): SystemIntegrity[] {
  const data = join(resolve(root), "data");
  let names: string[];
  try {
    names = readdirSync(data, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith("."))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
  return names.filter((n) => isSystemDir(join(data, n))).map((n) => checkSystemIntegrity(join(data, n), options));
}

/** One line per finding: "<system folder>/<path>[:line:col pointer]: message". */
export function formatFindings(result: SystemIntegrity, dirShown: string = result.dir): string[] {
  return result.findings.map((f) => {
    const file = join(dirShown, ...f.path.split("/"));
    return f.problem === "inconsistent" ? formatFileProblem(file, f) : `${file}: ${f.message}`;
  });
}

// ---------------------------------------------------------------- identities of a timing record

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** The end of every identity's message: what a contradiction most likely means. */
const EDITED = " (the figures contradict each other: edited by hand?)";

/** Whether a and b agree within IDENTITY_TOLERANCE plus an absolute `slack` (rounding of whole units). */
function close(a: number, b: number, slack = 0): boolean {
  return Math.abs(a - b) <= slack + IDENTITY_TOLERANCE * Math.max(Math.abs(a), Math.abs(b)) + 1e-12;
}

function num(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(10)));
}

/**
 * sampling.switchedOut.keptPerWorker when present, each checked against the rule (keptSamples) over the worker's
 * raw samples and its samples[].switchedOut; a mismatch is an error. null when the record has none.
 */
function keptPerWorkerOf(record: Record<string, unknown>, errors: ValidationError[]): number[] | null {
  const s = record.sampling;
  const so = isObj(s) ? s.switchedOut : undefined;
  if (!isObj(so) || !Array.isArray(so.keptPerWorker) || !so.keptPerWorker.every(isNum)) return null;
  const kept = so.keptPerWorker as number[];
  const samples = Array.isArray(record.samples) ? record.samples : [];
  kept.forEach((k, i) => {
    const w = samples[i];
    if (!isObj(w) || !Array.isArray(w.counterDeltas)) return;
    const out = Array.isArray(w.switchedOut) && w.switchedOut.every(isNum) ? (w.switchedOut as number[]) : undefined;
    const want = keptSamples(w.counterDeltas.length, out, isNum(so.cap) ? so.cap : SWITCHED_OUT_CAP).kept.length;
    if (k !== want)
      errors.push({
        pointer: `/sampling/switchedOut/keptPerWorker/${i}`,
        message: `is ${num(k)}, but worker ${i + 1}'s samples less those it was switched out in (samples/${i}/switchedOut) are ${want}${EDITED}`,
      });
  });
  return kept;
}

/**
 * The identities a timing record's figures obey whoever wrote it, checked without the runner's statistics:
 * `aggregates.n` = Σ trials' iterations, `aggregates.trials` = the number of trials, `meanNs` = Σ ns / n,
 * `meanCounter` = Σ counterDelta / n, `opsPerSecond` = 1e9 / meanNs, the smallest, median and largest trial means;
 * for a record sampled per call also `distribution.n` = Σ samples kept (less those a worker was switched out in;
 * of the uncontended workers when `contention.publishedFrom` is uncontended), `calls` = n × batch, `aggregates.n` = calls (every worker's) and
 * the central figure = the distribution's median or mean, inside its interval. Within IDENTITY_TOLERANCE (relative)
 * and the rounding of trial totals to whole units.
 * Fields that are missing or not numbers are left to the schema. Errors carry JSON pointers; never throws.
 */
export function timingIdentities(record: unknown): ValidationError[] {
  const errors: ValidationError[] = [];
  if (!isObj(record) || record.kind !== "timing") return errors;
  const a = record.aggregates;
  const trials = record.trials;
  if (isObj(a) && Array.isArray(trials) && trials.length > 0 && trials.every(isObj)) trialIdentities(a, trials, errors);
  if (isObj(a) && isNum(a.meanNs) && isNum(a.opsPerSecond)) {
    const want = a.meanNs > 0 ? 1e9 / a.meanNs : 0;
    if (!close(a.opsPerSecond, want))
      errors.push({
        pointer: "/aggregates/opsPerSecond",
        message: `is ${num(a.opsPerSecond)}, but 1e9 / meanNs = ${num(want)}${EDITED}`,
      });
  }
  const d = record.distribution;
  if (isObj(d)) {
    distributionIdentities(record, d, errors);
    centralIdentities(record.central, d, errors);
  }
  return errors;
}

/** The aggregates against the trials they come from: trials, n, meanNs, meanCounter and the trial means. */
function trialIdentities(a: Obj, trials: Obj[], errors: ValidationError[]): void {
  const its = trials.map((t) => t.iterations);
  const ns = trials.map((t) => t.ns);
  const counter = trials.map((t) => t.counterDelta);
  if (!its.every(isNum) || !ns.every(isNum)) return;
  const n = its.reduce((s, x) => s + x, 0);
  const totalNs = ns.reduce((s, x) => s + x, 0);
  if (isNum(a.trials) && a.trials !== trials.length)
    errors.push({
      pointer: "/aggregates/trials",
      message: `is ${num(a.trials)}, but the record holds ${trials.length} trials${EDITED}`,
    });
  if (isNum(a.n) && a.n !== n)
    errors.push({
      pointer: "/aggregates/n",
      message: `is ${num(a.n)}, but the trials' iterations add up to ${n}${EDITED}`,
    });
  // Trial totals are whole ns and ticks: half a unit per trial, spread over n operations.
  const slack = (0.5 * trials.length) / Math.max(n, 1);
  if (n > 0 && isNum(a.meanNs) && !close(a.meanNs, totalNs / n, slack))
    errors.push({
      pointer: "/aggregates/meanNs",
      message: `is ${num(a.meanNs)}, but Σ ns / n of the trials = ${num(totalNs / n)}${EDITED}`,
    });
  if (n > 0 && isNum(a.meanCounter) && counter.every(isNum)) {
    const c = counter.reduce((s, x) => s + x, 0) / n;
    if (!close(a.meanCounter, c, slack))
      errors.push({
        pointer: "/aggregates/meanCounter",
        message: `is ${num(a.meanCounter)}, but Σ counterDelta / n of the trials = ${num(c)}${EDITED}`,
      });
  }
  if (its.every((x) => x > 0)) trialMeanIdentities(a, its, ns, errors);
}

/** minTrialNs, medianTrialNs and maxTrialNs against the trials' own means (ns / iterations, every count > 0). */
function trialMeanIdentities(a: Obj, its: number[], ns: number[], errors: ValidationError[]): void {
  const means = its.map((it, i) => (ns[i] as number) / it).sort((x, y) => x - y);
  const figures: Array<[string, number]> = [
    ["minTrialNs", means[0] as number],
    ["medianTrialNs", quantile(means, 0.5)],
    ["maxTrialNs", means[means.length - 1] as number],
  ];
  for (const [field, want] of figures) {
    const got = a[field];
    if (isNum(got) && !close(got, want, 0.5 / Math.min(...its)))
      errors.push({
        pointer: `/aggregates/${field}`,
        message: `is ${num(got)}, but the trials give ${num(want)}${EDITED}`,
      });
  }
}

/**
 * A record sampled per call: distribution.n against the samples kept per worker, distribution.calls = n × batch,
 * and aggregates.n against the calls (every worker's when the distribution is of the uncontended workers only).
 */
function distributionIdentities(record: Obj, d: Obj, errors: ValidationError[]): void {
  const a = record.aggregates;
  const s = record.sampling;
  // With contention.publishedFrom uncontended, the distribution is of the uncontended workers only; the
  // aggregates (the trials) are of every worker.
  const ct = record.contention;
  const flags =
    isObj(ct) && ct.publishedFrom === "uncontended" && Array.isArray(ct.workers)
      ? ct.workers.map((w) => isObj(w) && w.contended === true)
      : null;
  let allCalls: number | null = null;
  const kept = keptPerWorkerOf(record, errors);
  if (isObj(s) && Array.isArray(s.samplesPerWorker) && s.samplesPerWorker.every(isNum) && isNum(d.n)) {
    // The samples each worker's figures used: all but those it was switched out in (sampling.switchedOut).
    const perWorker = kept && kept.length === s.samplesPerWorker.length ? kept : (s.samplesPerWorker as number[]);
    const all = perWorker.reduce((x, y) => x + y, 0);
    if (isNum(s.batch)) allCalls = all * s.batch;
    const total =
      flags && flags.length === perWorker.length ? perWorker.reduce((x, y, i) => x + (flags[i] ? 0 : y), 0) : all;
    if (total !== d.n)
      errors.push({
        pointer: "/distribution/n",
        message: `is ${num(d.n)}, but sampling.${kept ? "switchedOut.keptPerWorker" : "samplesPerWorker"} adds up to ${total}${flags ? " over the uncontended workers" : ""}${EDITED}`,
      });
  }
  if (isObj(s) && isNum(s.batch) && isNum(d.n) && isNum(d.calls) && d.calls !== d.n * s.batch)
    errors.push({
      pointer: "/distribution/calls",
      message: `is ${num(d.calls)}, but n × sampling.batch = ${num(d.n * s.batch)}${EDITED}`,
    });
  if (flags && isObj(a) && isNum(a.n) && allCalls !== null && a.n !== allCalls)
    errors.push({
      pointer: "/aggregates/n",
      message: `is ${num(a.n)}, but every worker's samples × sampling.batch = ${num(allCalls)}${EDITED}`,
    });
  if (!flags && isObj(a) && isNum(a.n) && isNum(d.calls) && a.n !== d.calls)
    errors.push({
      pointer: "/aggregates/n",
      message: `is ${num(a.n)}, but distribution.calls = ${num(d.calls)}${EDITED}`,
    });
}

/** The central figure of a record sampled per call: the distribution's median or mean, inside its own interval. */
function centralIdentities(c: unknown, d: Obj, errors: ValidationError[]): void {
  if (!isObj(c) || !isNum(c.valueNs)) return;
  const field = c.statistic === "mean" ? "meanNs" : c.statistic === "median" ? "medianNs" : null;
  const want = field ? d[field] : undefined;
  if (field && isNum(want) && !close(c.valueNs, want))
    errors.push({
      pointer: "/central/valueNs",
      message: `is ${num(c.valueNs)}, but the ${c.statistic} of the distribution (distribution.${field}) = ${num(want)}${EDITED}`,
    });
  const ci = c.ci95Ns;
  if (isObj(ci) && isNum(ci.low) && isNum(ci.high) && (c.valueNs < ci.low || c.valueNs > ci.high))
    errors.push({
      pointer: "/central/valueNs",
      message: `is ${num(c.valueNs)}, outside its own 95 % interval ${num(ci.low)} … ${num(ci.high)}${EDITED}`,
    });
}

/**
 * Reads a timing record and checks timingIdentities, with the line and column of each figure. A file that cannot be
 * read or parsed gives no error here (the schema check reports it).
 */
export function recordConsistency(file: string): ValidationError[] {
  let text: string;
  let value: unknown;
  try {
    text = readFileSync(file, "utf8");
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const errors = timingIdentities(value);
  if (errors.length === 0) return errors;
  try {
    const locator = jsonLocator(text);
    return errors.map((e) => ({ ...e, ...locator.locate(e.pointer) }));
  } catch {
    return errors; // a text too deeply nested to locate in: the errors without positions
  }
}
