// Small helpers shared by init's modules: reading submission files (regular files only, size-capped), folder
// walks, the first error line of a compiler, paths as meta.json writes them.
import { createHash } from "node:crypto";
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { join, relative, sep } from "node:path";
import type { RunResult } from "../proc.ts";

/** Submission files read for matching are read up to this size. */
export const MAX_READ = 8 * 1024 * 1024;
/** Folders never searched for sources or parameter sets. */
export const SKIP_DIRS = new Set(["kat", "kats", ".git", "build", "bin", "obj", "doc", "docs"]);
/** Folders never searched for parameter-set folders in the folder fallback (test programs live there). */
export const TEST_DIRS = new Set(["test", "tests"]);

/** A source's text with comments removed (string literals kept). */
export function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
}

let root: string | null = null;

/** The submission folder: a symlink is followed only when its target stays inside it. */
export function setSubmissionRoot(dir: string | null): void {
  try {
    root = dir ? realpathSync(dir) : null;
  } catch {
    root = dir;
  }
}

/** What a path is — a symlink's target when it stays inside the submission folder, else the link itself. */
export function statInside(p: string): Stats | undefined {
  const st = lstatSync(p, { throwIfNoEntry: false });
  if (!st?.isSymbolicLink() || !root) return st;
  try {
    const real = realpathSync(p);
    if (real !== root && !real.startsWith(`${root}/`)) return st;
    return statSync(real);
  } catch {
    return st;
  }
}

/** A regular file's text (a symlink only to a file inside the submission), at most `limit` bytes; else "". */
export function readSome(file: string, limit = MAX_READ): string {
  const st = statInside(file);
  if (!st?.isFile()) return "";
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(Math.min(limit, st.size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

export const posix = (p: string) => p.split(sep).join("/");
/** A folder (a symlink only when it stays inside the submission). */
export const isDir = (p: string) => statInside(p)?.isDirectory() ?? false;
/** A regular file (a symlink only when it stays inside the submission). */
export const isFile = (p: string) => statInside(p)?.isFile() ?? false;

export function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Folders under root (root included), depth-first, skipping KAT/build folders, hidden ones and `skip`. */
export function foldersUnder(root: string, depth = 4, skip: ReadonlySet<string> = TEST_DIRS): string[] {
  const out = [root];
  if (depth === 0) return out;
  for (const e of entries(root)) {
    const p = join(root, e);
    const low = e.toLowerCase();
    if (e.startsWith(".") || SKIP_DIRS.has(low) || skip.has(low) || !isDir(p)) continue;
    out.push(...foldersUnder(p, depth - 1, skip));
  }
  return out;
}

export const filesIn = (dir: string, ext: string) =>
  entries(dir)
    .filter((f) => f.endsWith(ext) && isFile(join(dir, f)))
    .map((f) => join(dir, f));

/** How a process that printed nothing ended. */
export function processEnd(r: RunResult): string {
  if (r.timedOut) return `timed out after ${r.timeLimitMs} ms`;
  return r.signal ? `killed by ${r.signal}` : `exit ${r.exitCode}`;
}

/** The compiler's first error line (else its first line), whole. */
export function firstErrorLine(stderr: string): string {
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  return (lines.find((l) => /\berror\b/.test(l)) ?? lines[0] ?? "").trim();
}

/** A process's failure in one line: its first error line, else how it ended. */
export const failureOf = (r: RunResult) => firstErrorLine(r.stderr || r.spawnError || "") || processEnd(r);

export const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** A path as meta.json and init's messages write it: relative to the submission folder, "/"-separated. */
export const relTo = (dir: string) => (p: string) => posix(relative(dir, p)) || ".";

/** `scratch` paths shown as the submission's: every occurrence of the copy's root replaced by the real one. */
export function unscratch(text: string, copy: string, real: string): string {
  return text.split(copy).join(real);
}

export const unique = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];
