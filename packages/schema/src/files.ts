// Validation of files and folders on disk (what `ngcc-perf validate` calls).
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { type RecordKind, type ValidationError, validateText } from "./validate.ts";

/** Files above this size are refused rather than read: no record comes near it. */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;

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

/** Reads and validates one file; never throws for what the file holds. */
export function validateFile(file: string, options: { kind?: RecordKind; maxBytes?: number } = {}): FileResult {
  const maxBytes = options.maxBytes ?? MAX_RECORD_BYTES;
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) return fail(file, "not a regular file");
    size = st.size;
  } catch (err) {
    return fail(file, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (size > maxBytes) {
    return fail(file, `file is ${size} bytes; records are at most ${maxBytes} bytes, so it was not read`);
  }
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
    return fail(file, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const nul = buf.indexOf(0);
  if (nul >= 0) return fail(file, `binary data (NUL byte at offset ${nul}): expected a UTF-8 JSON or YAML text`);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(buf);
  if (text.includes("\uFFFD") && !buf.includes(Buffer.from("\uFFFD"))) {
    return fail(file, "not UTF-8 text: expected a UTF-8 JSON or YAML text");
  }
  const { value: _value, ...result } = validateText(text, file, options.kind);
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
