// The submission's kat.sha256 (sha256sum format): parsing with line numbers and checking the .rsp files it
// lists. A mismatch means a corrupt or altered KAT file, which is reported apart from implementation failures.
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { sha256 } from "@ngcc-perf/runner";
import { type KatProblem, problemText } from "./rsp-check.ts";
import { readShipped } from "./shipped.ts";

export interface ManifestLine {
  digest: string;
  path: string;
  line: number;
}

export interface ParsedManifest {
  lines: ManifestLine[];
  /** Lines that are not "<64 hex>  <path>" (1-based line number and text). */
  malformed: { line: number; text: string }[];
}

export function parseManifest(text: string): ParsedManifest {
  const lines: ManifestLine[] = [];
  const malformed: { line: number; text: string }[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "" || line.startsWith("#")) return;
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line);
    if (!m?.[1] || !m[2]) malformed.push({ line: i + 1, text: line.slice(0, 120) });
    else lines.push({ digest: m[1].toLowerCase(), path: m[2], line: i + 1 });
  });
  return { lines, malformed };
}

export interface ManifestCheck {
  status: "ok" | "mismatch" | "missing";
  /** Shown in the report: the algorithm id and the path in the submission, e.g. kem-90/KAT/kat.sha256. */
  display: string;
  /** The instance's file as the manifest names it. */
  listedAs?: string;
  expected?: string;
  actual?: string | null;
  /** Problems in words (file:line …), for the log and the record's messages. */
  problems: string[];
  /** The same problems with their file (absolute) and line, for the record's corruption. */
  corruption: KatProblem[];
  /** .rsp files the manifest lists (as it names them) that no instance of the submission uses as its KAT file. */
  unused: string[];
  warnings: string[];
}

/** Why a listed path may not be followed: absolute, or leaving the manifest's folder (null when fine). */
function pathProblem(path: string): string | null {
  if (isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path)) return `absolute path ${JSON.stringify(path)}`;
  if (path.split(/[\\/]/).includes("..")) return `path ${JSON.stringify(path)} leaves the manifest's folder`;
  if ([...path].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    return `path ${JSON.stringify(path)} holds a control character`;
  }
  return null;
}

/** The problems of the manifest as a whole: not text, malformed lines, bad paths, listed-but-missing files. */
function manifestProblems(manifestPath: string, data: Buffer, parsed: ParsedManifest): KatProblem[] {
  const at = (line: number | undefined, message: string): KatProblem => ({
    file: manifestPath,
    ...(line ? { line } : {}),
    message,
  });
  const nul = data.indexOf(0);
  if (nul >= 0) {
    const line = data.subarray(0, nul).toString("latin1").split("\n").length;
    return [at(line, `byte 0x00 at offset ${nul}: not a text file; expected "<64 hex digits>  <path>" lines`)];
  }
  const out = parsed.malformed.map((m) =>
    at(m.line, `expected "<64 hex digits>  <path>", found ${JSON.stringify(m.text.slice(0, 80))}`),
  );
  const first = new Map<string, ManifestLine>();
  for (const l of parsed.lines) {
    const bad = pathProblem(l.path);
    if (bad) {
      out.push(at(l.line, `${bad}: a manifest lists files below its own folder`));
      continue;
    }
    const key = l.path.replace(/^\.\//, "");
    const seen = first.get(key);
    if (seen) {
      out.push(at(l.line, `lists ${key} again (first on line ${seen.line})`));
      continue;
    }
    first.set(key, l);
    if (!existsSync(join(dirname(manifestPath), key))) out.push(at(l.line, `lists ${key}, which does not exist`));
  }
  return out;
}

/**
 * Checks the manifest for one .rsp file. `missing` when there is no manifest (a warning, the comparison still
 * runs); `mismatch` when the file's digest differs, the file is not there, the manifest does not list it, or the
 * manifest itself is corrupt (not text, a malformed line, an absolute path or one with `..`, a file listed twice
 * or listed but missing). Paths that leave the manifest's folder are never followed.
 */
export function checkManifestFor(
  manifestPath: string,
  rspPath: string,
  display: string,
  used?: readonly string[],
  root?: string,
): ManifestCheck {
  const read = readShipped(manifestPath, root);
  if (read.missing) {
    return {
      status: "missing",
      display,
      problems: [],
      corruption: [],
      unused: [],
      warnings: [`no KAT manifest at ${display}`],
    };
  }
  if (read.error !== undefined) {
    // A link out of the submission (to /etc/shadow, a key) or a FIFO: refused unread, nothing of it quoted.
    const corruption: KatProblem[] = [{ file: manifestPath, message: read.error }];
    return { status: "mismatch", display, problems: corruption.map(problemText), corruption, unused: [], warnings: [] };
  }
  const data = read.bytes;
  const parsed = parseManifest(data.toString("utf8"));
  const corruption = manifestProblems(manifestPath, data, parsed);
  const unused = used ? unusedFiles(manifestPath, parsed, used) : [];
  const done = (
    rest: Omit<ManifestCheck, "status" | "display" | "problems" | "corruption" | "unused" | "warnings">,
  ) => ({
    status: corruption.length ? ("mismatch" as const) : ("ok" as const),
    display,
    ...rest,
    problems: corruption.map(problemText),
    corruption,
    unused,
    warnings: unused.length ? [unusedWarning(display, unused)] : [],
  });
  const rel = relative(dirname(manifestPath), rspPath).split(sep).join("/");
  const entry = parsed.lines.find((l) => l.path.replace(/^\.\//, "") === rel);
  if (!entry) {
    corruption.push({ file: manifestPath, message: `does not list ${rel}, the instance's KAT file` });
    return done({ listedAs: rel });
  }
  const shipped = readShipped(rspPath, root);
  if (shipped.error !== undefined && !shipped.missing) {
    corruption.push({ file: manifestPath, line: entry.line, message: `${rel} ${shipped.error}` });
    return done({ listedAs: rel, expected: entry.digest, actual: null });
  }
  const actual = shipped.bytes ? sha256(shipped.bytes) : null;
  if (actual !== null && actual !== entry.digest) {
    corruption.push({
      file: manifestPath,
      line: entry.line,
      message: `${rel} has SHA-256 ${actual}, the manifest says ${entry.digest} (corrupt or altered KAT file)`,
    });
  }
  return done({ listedAs: rel, expected: entry.digest, actual });
}

/**
 * The .rsp files a manifest lists that none of `used` (the KAT files, absolute, of every instance of the
 * submission) is: as the manifest names them, in its order. Paths that may not be followed are left to the checks.
 */
export function unusedFiles(manifestPath: string, parsed: ParsedManifest, used: readonly string[]): string[] {
  const usedSet = new Set(used.map((u) => resolve(u)));
  const out: string[] = [];
  for (const l of parsed.lines) {
    const key = l.path.replace(/^\.\//, "");
    if (pathProblem(l.path) || !/\.rsp$/i.test(key) || out.includes(key)) continue;
    if (!usedSet.has(resolve(dirname(manifestPath), key))) out.push(key);
  }
  return out;
}

/** The warning for listed .rsp files no instance uses (the record, the log, the console and section 3 say it). */
export function unusedWarning(display: string, unused: readonly string[]): string {
  if (unused.length === 1)
    return `${display} lists ${unused[0]}, not used by any instance (no instance's kat.file in meta.json names it)`;
  return `${display} lists ${unused.length} .rsp files not used by any instance (no instance's kat.file in meta.json names them): ${unused.join(", ")}`;
}

export function manifestPathOf(submissionDir: string, manifest: string): string {
  return join(submissionDir, manifest);
}
