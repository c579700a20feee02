// Atomic writes and hashes for the record store: a store never holds half a record. Paths come from the
// layout module of @ngcc-perf/schema. While a run writes into a system folder its write journal is open: every
// file of the layout written there is journaled before and after its rename (docs/record-schema.md, "Integrity").
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import {
  JOURNAL_FILE,
  JOURNAL_FORMAT,
  type JournalHeader,
  type JournalWrite,
  parseRecordPath,
} from "@ngcc-perf/schema";

/** The system folders whose write journal is open in this process (absolute path → journal file). */
const journals = new Map<string, string>();

/** The open journal a path of the store layout belongs to, and its path relative to the system folder. */
function journalOf(path: string): { file: string; rel: string } | null {
  if (journals.size === 0) return null;
  const abs = resolve(path);
  for (const [dir, file] of journals) {
    if (!abs.startsWith(`${dir}${sep}`)) continue;
    const rel = relative(dir, abs).split(sep).join("/");
    const entry = parseRecordPath(basename(dir), rel);
    return entry && entry.kind !== "store-index" ? { file, rel } : null;
  }
  return null;
}

/** Appends one line to a journal and flushes it to disk before returning. */
function appendLine(file: string, line: JournalWrite): void {
  writeJsonLine(file, "a", line);
}

/** Writes a value as one JSON line to a file opened with `flags` ("a": appended, "w": the whole file), flushed to disk. */
function writeJsonLine(file: string, flags: "a" | "w", value: unknown): void {
  const fd = openSync(file, flags);
  try {
    writeSync(fd, `${JSON.stringify(value)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function writeFileAtomic(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  const journal = journalOf(path);
  if (!journal) {
    renameSync(tmp, path);
    return;
  }
  // Journaled before the rename (a run killed here leaves the old content, which the journal still allows) and after
  // (from then on only the new content is allowed).
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const line = { path: journal.rel, sha256: sha256(bytes), bytes: bytes.length };
  appendLine(journal.file, { op: "write", ...line });
  renameSync(tmp, path);
  appendLine(journal.file, { op: "done", ...line });
}

/**
 * Opens the write journal of a system folder for this process: continues the journal of an interrupted run that
 * extends the current index (`continueJournal`), or starts a new one (written to a temporary name, flushed and
 * renamed) naming the index it extends. Until closeWriteJournal, every file of the layout written into the folder
 * through writeFileAtomic is journaled.
 */
export function openWriteJournal(
  dir: string,
  o: { system: string; indexSha256: string | null; continueJournal: boolean; by: string },
): void {
  const abs = resolve(dir);
  const file = join(abs, JOURNAL_FILE);
  if (!o.continueJournal) {
    mkdirSync(abs, { recursive: true });
    const header: JournalHeader = {
      journal: JOURNAL_FORMAT,
      version: 1,
      system: o.system,
      index: o.indexSha256,
      createdAt: new Date().toISOString(),
      by: o.by,
    };
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeJsonLine(tmp, "w", header);
    renameSync(tmp, file);
  }
  journals.set(abs, file);
}

/** Stops journaling writes into a system folder; `remove` also deletes the journal (its index now lists all). */
export function closeWriteJournal(dir: string, o: { remove: boolean }): void {
  const abs = resolve(dir);
  journals.delete(abs);
  if (o.remove) rmSync(join(abs, JOURNAL_FILE), { force: true });
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** A JSON file of the store as written, or null when it is absent or unreadable (the validator reports those). */
export function readJsonOrNull<T>(path: string): T | null {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return null;
  }
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function sha256File(path: string): string {
  return sha256(readFileSync(path));
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes what a killed run left behind: temporary record files (`*.tmp`) below the store's data folder and
 * temporary build folders (`*.tmp-<pid>`) of processes that no longer exist. Finished records and builds
 * are never touched. Returns how many were removed.
 */
export function removeStaleTemps(out: string): number {
  let removed = 0;
  const walk = (dir: string, depth: number) => {
    if (!existsSync(dir) || depth > 8) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const build = /\.tmp-(\d+)$/.exec(e.name);
      if (e.isDirectory() && build && !pidAlive(Number(build[1]))) {
        rmSync(p, { recursive: true, force: true });
        removed++;
      } else if (e.isDirectory()) {
        walk(p, depth + 1);
      } else if (e.name.endsWith(".tmp")) {
        const m = /\.(\d+)\.\d+\.tmp$/.exec(e.name);
        if (!m || !pidAlive(Number(m[1]))) {
          rmSync(p, { force: true });
          removed++;
        }
      }
    }
  };
  walk(join(out, "data"), 0);
  walk(join(out, "build"), 0);
  return removed;
}
