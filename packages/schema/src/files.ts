// Validation of files and folders on disk (what `ngcc-perf validate` calls).
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatOf, type RecordKind, type ValidationError, validateText } from "./validate.ts";

/** Files above this size are refused rather than read: no record comes near it. */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;

/** Campaign files (YAML) above this size are refused rather than read: a campaign is a page of settings. */
export const MAX_CAMPAIGN_BYTES = 1024 * 1024;

export interface FileResult {
  file: string;
  kind: RecordKind | null;
  valid: boolean;
  errors: ValidationError[];
}

const RECORD_FILE = /\.(json|ya?ml)$/i;

function fail(file: string, message: string): FileResult {
  return { file, kind: null, valid: false, errors: [{ pointer: "", message, line: 1, column: 1 }] };
}

/** A file's text, or why it is not read: too big, not a regular file, binary, not UTF-8 (one message). */
export type TextRead = { text: string; error?: undefined } | { text?: undefined; error: string };

/**
 * Reads a UTF-8 text file (a record, a campaign, a meta.json) the one way validate and every command read them, so
 * they agree on what is refused: a file that is not a regular file, is above `maxBytes`, holds a NUL byte
 * (binary) or is not valid UTF-8. Never throws.
 */
export function readTextFile(file: string, maxBytes: number = MAX_RECORD_BYTES, what = "records"): TextRead {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) return { error: st.isDirectory() ? "a folder, not a file" : "not a regular file" };
    size = st.size;
  } catch (err) {
    return { error: cannotRead(err) };
  }
  if (size > maxBytes)
    return { error: `file is ${size} bytes; ${what} are at most ${maxBytes} bytes, so it was not read` };
  let buf: Buffer;
  try {
    buf = Buffer.alloc(size);
    const fd = openSync(file, "r");
    try {
      let off = 0;
      while (off < size) {
        const n = readSync(fd, buf, off, size - off, off);
        if (n === 0) break;
        off += n;
      }
      buf = buf.subarray(0, off);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return { error: cannotRead(err) };
  }
  const nul = buf.indexOf(0);
  if (nul >= 0) return { error: `binary data (NUL byte at offset ${nul}): expected a UTF-8 JSON or YAML text` };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(buf) };
  } catch {
    const at = firstInvalidUtf8(buf);
    return { error: `not UTF-8 text (invalid byte at offset ${at}): expected a UTF-8 JSON or YAML text` };
  }
}

function cannotRead(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "cannot read: ENOENT (no such file)";
  if (code === "EACCES" || code === "EPERM") return `cannot read: ${code} (permission denied)`;
  return `cannot read: ${code ?? (err as Error).message}`;
}

/** Byte offset of the first invalid UTF-8 sequence: where the lenient decoding puts its first U+FFFD of its own. */
function firstInvalidUtf8(buf: Buffer): number {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(buf);
  let bytes = 0;
  let from = 0;
  for (let i = text.indexOf("\uFFFD"); i >= 0; i = text.indexOf("\uFFFD", i + 1)) {
    bytes += Buffer.byteLength(text.slice(from, i));
    from = i;
    // A U+FFFD written in the file is the three bytes EF BF BD; any other is an invalid sequence.
    if (!(buf[bytes] === 0xef && buf[bytes + 1] === 0xbf && buf[bytes + 2] === 0xbd)) return bytes;
  }
  return 0;
}

/** Reads and validates one file; never throws for what the file holds. */
export function validateFile(file: string, options: { kind?: RecordKind; maxBytes?: number } = {}): FileResult {
  // A .yaml/.yml file is a campaign (records are JSON): read with the campaigns' limit, as loadCampaign reads it.
  const yaml = formatOf(file) === "yaml" && (options.kind ?? "campaign") === "campaign";
  const read = yaml
    ? readTextFile(file, options.maxBytes ?? MAX_CAMPAIGN_BYTES, "campaigns")
    : readTextFile(file, options.maxBytes ?? MAX_RECORD_BYTES);
  if (read.error !== undefined) return fail(file, read.error);
  const { value: _value, ...result } = validateText(read.text, file, options.kind);
  return { file, ...result };
}

/**
 * Expands files and folders into the record files to check: a folder contributes every .json,
 * .yaml and .yml file below it (sorted; dot-folders and node_modules skipped); a named file is
 * always checked.
 */
export function collectRecordFiles(paths: ReadonlyArray<string>): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && RECORD_FILE.test(e.name)) files.push(p);
    }
  };
  for (const p of paths) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(p);
    } catch {
      missing.push(p);
      continue;
    }
    if (st.isDirectory()) walk(p);
    else files.push(p);
  }
  return { files, missing };
}
