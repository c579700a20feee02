// Small helpers shared by init's modules: reading submission files (regular files only, size-capped), folder
// walks, the first error line of a compiler, paths as meta.json writes them.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
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
/** Folders read like the submission: init's scratch copy of it (its regular files, copied by init). */
let alsoRoots: string[] = [];

const realOr = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * The submission folder: a symlink is followed only when its target stays inside it, and nothing outside it is read.
 * `also`: folders read under the same rule (the scratch copy, which the build systems run in the sandbox can write).
 */
export function setSubmissionRoot(dir: string | null, also: readonly string[] = []): void {
  root = dir ? realOr(dir) : null;
  alsoRoots = also.map(realOr);
}

const inRoot = (real: string) => !root || [root, ...alsoRoots].some((r) => real === r || real.startsWith(`${r}/`));

/**
 * What a path is — a symlink's target when it stays inside the submission folder, else the link itself; a path
 * whose real path is outside the submission (a make or CMake source /etc/shadow, a folder reached through a link
 * out) is nothing (undefined), so nothing outside the submission is ever read by init.
 */
export function statInside(p: string): Stats | undefined {
  const st = lstatSync(p, { throwIfNoEntry: false });
  if (!st || !root) return st;
  let real: string;
  try {
    real = realpathSync(p);
  } catch {
    return st; // a link to nothing
  }
  if (!inRoot(real)) return st.isSymbolicLink() ? st : undefined;
  return st.isSymbolicLink() ? statSync(real) : st;
}

/**
 * A regular file's text (a symlink only to a file inside the submission), at most `limit` bytes; else "". Opened
 * by its real path without following a link swapped in since, and without blocking (a FIFO is not read).
 */
export function readSome(file: string, limit = MAX_READ): string {
  const st = statInside(file);
  if (!st?.isFile()) return "";
  let fd: number;
  try {
    fd = openSync(realpathSync(file), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return "";
  }
  try {
    const now = fstatSync(fd);
    if (!now.isFile()) return "";
    const buf = Buffer.alloc(Math.min(limit, now.size));
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

/** Is `p` the folder `root` or inside it (both absolute, normalised)? */
export const isWithin = (root: string, p: string) => p === root || p.startsWith(`${root}/`);

/** A path as meta.json and init's messages write it: relative to the submission folder, "/"-separated. */
export const relTo = (dir: string) => (p: string) => posix(relative(dir, p)) || ".";

/** `scratch` paths shown as the submission's: every occurrence of the copy's root replaced by the real one. */
export function unscratch(text: string, copy: string, real: string): string {
  return text.split(copy).join(real);
}

export const unique = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];
