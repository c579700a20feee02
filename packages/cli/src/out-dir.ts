// The folder a command writes to (--out, or the store a report is written into): checked before anything is
// written, so that a file in its place, a folder that cannot be written or a path the file system refuses is one
// clear message (exit 2) and not an ENOTDIR or a misleading ENOENT from deep inside a step.
import { mkdtempSync, rmdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { InputError, shortText } from "@ngcc-perf/schema";

/** What an errno of the file system means for the user. */
export function fsReason(code: string | undefined): string {
  switch (code) {
    case "ENOTDIR":
      return "a part of the path is a file, not a folder";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "read-only file system";
    case "ENOSPC":
      return "no space left on the device";
    case "EDQUOT":
      return "disk quota exceeded";
    case "ENAMETOOLONG":
      return "a name in the path is too long";
    case "EISDIR":
      return "a folder where a file was expected";
    case "ENOENT":
      return "the file system does not let folders be created there";
    case "EEXIST":
      return "a file is in the way";
    default:
      return code ?? "cannot be written";
  }
}

function statOrNull(p: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

/**
 * Throws InputError unless `out` is a non-empty path (not blank) naming a folder this process can create files in,
 * or a path whose nearest existing ancestor is such a folder. Writes nothing that stays: the check creates and removes an empty folder.
 */
export function checkOutDir(out: string, flag = "--out"): string {
  // resolve("") is the current folder: an empty --out (an unset shell variable) would write the store there.
  if (out.trim() === "") {
    throw new InputError(
      `${flag} ${JSON.stringify(shortText(out, 40))}: expected a non-empty path (the folder to write)`,
    );
  }
  const path = resolve(out);
  const shown = `${flag} ${shortText(out, 160)}`;
  let existing = path;
  let st = statOrNull(existing);
  try {
    while (!st) {
      const parent = dirname(existing);
      if (parent === existing) break;
      existing = parent;
      st = statOrNull(existing);
    }
  } catch (err) {
    throw new InputError(`${shown}: ${fsReason((err as NodeJS.ErrnoException).code)}`);
  }
  if (!st) throw new InputError(`${shown}: no folder of the path exists`);
  if (!st.isDirectory()) {
    const what = existing === path ? "is a file, not a folder" : `${shortText(existing, 160)} is a file, not a folder`;
    throw new InputError(`${shown}: ${what}; expected a folder (or a path to create one)`);
  }
  try {
    rmdirSync(mkdtempSync(join(existing, ".ngcc-perf-write-check-")));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      `${shown}: cannot write in ${shortText(existing, 160)} (${fsReason(code)}); expected a folder that can be written`,
    );
  }
  return path;
}

/** An error of the file system on a path (an fs call's error): one line for the user, or null for anything else. */
export function fsErrorLine(err: unknown): string | null {
  const e = err as NodeJS.ErrnoException;
  const codes = ["ENOTDIR", "EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENAMETOOLONG", "EISDIR"];
  if (!(err instanceof Error) || typeof e.code !== "string" || !codes.includes(e.code) || !e.path) return null;
  const verb = /mkdir|open|write|rename|copy|symlink|link|utime|chmod/.test(e.syscall ?? "") ? "write" : "read";
  return `cannot ${verb} ${shortText(e.path, 160)}: ${fsReason(e.code)}`;
}
