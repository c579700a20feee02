// What a submission's instance is built from, beyond its listed sources: its API header (any name), the
// randomness ngcc-perf links in (the ICCS library's, or a plain NIST randombytes), and the submitter's own
// randombytes.c, which is always left out.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { readSubmissionText, shortText } from "@ngcc-perf/schema";
import { InputError } from "./errors.ts";
import { nativeDir } from "./native.ts";

/** ngcc-perf's plain randombytes over the system RNG (native/randombytes): a submission without ICCS links it. */
export function plainRandombytesSources(): string[] {
  return [join(nativeDir(), "randombytes", "ngcc_randombytes.c")];
}

/** Whether a support file is ngcc-perf's plain randombytes: harness code, not counted in libinstance.so. */
export function isPlainRandombytes(path: string): boolean {
  return basename(path) === "ngcc_randombytes.c";
}

/** The note a build gives for a randombytes source it leaves out. */
export function leftOutNote(shown: string): string {
  return `left out ${shown}: ngcc-perf provides randombytes (the KAT DRBG or the system RNG)`;
}

/**
 * A definition of `randombytes` in C text: `randombytes(` after a return type at the start of a line, its
 * parameter list (over several lines too) closed and followed by `{` — not a declaration (`;`) nor a call.
 */
const RANDOMBYTES_DEFINITION = /^[ \t]*(?:[A-Za-z_][\w \t*]*[\s*])?randombytes[ \t]*\([^;{}()]*\)\s*\{/m;

/**
 * Whether a source is the submitter's own randombytes: named randombytes.c, or defining the function
 * `randombytes` (the textual rule above; comments are not parsed). NIST's rng.c is caught by the second rule.
 */
export function isOwnRandombytes(path: string): boolean {
  if (basename(path) === "randombytes.c") return true;
  try {
    return RANDOMBYTES_DEFINITION.test(readFileSync(path, "utf8"));
  } catch {
    return false; // a source that cannot be read fails its build, with the compiler's message
  }
}

/**
 * An instance's sources without the submitter's randombytes, and the notes that say what was left out (the
 * meta's randombytesSource too, when it is not among the sources). Refuses an instance left with no source.
 */
export function withoutOwnRandombytes(
  sources: readonly string[],
  dir: string,
  o: { metaPath: string; pointer: string; randombytesSource?: string },
): { sources: string[]; notes: string[] } {
  const kept: string[] = [];
  const notes: string[] = [];
  for (const s of sources) {
    if (isOwnRandombytes(s)) notes.push(leftOutNote(relative(dir, s)));
    else kept.push(s);
  }
  if (o.randombytesSource !== undefined) {
    const abs = resolve(dir, o.randombytesSource);
    if (!sources.includes(abs)) notes.push(leftOutNote(relative(dir, abs)));
  }
  if (kept.length === 0) {
    throw new InputError(
      `${o.metaPath}: ${o.pointer}: lists only the submitter's randombytes, which ngcc-perf leaves out; expected the instance's C files`,
    );
  }
  return { sources: kept, notes };
}

/**
 * The API header of an instance: meta.json's apiHeader names the file (api.h, kem.h, sign.h …), relative to the
 * submission; without it, api.h in the instance's folder. Refuses a header that is missing, a folder, or not an
 * API header (it names no CRYPTO_ macro and no crypto_ function), naming the file and the pointer.
 */
/** Headers read for an API header's closure: at most this many, each up to HEADER_BYTES. */
const MAX_HEADERS = 64;
const HEADER_BYTES = 1024 * 1024;

/**
 * A header's text and the texts of the headers it includes (`"…"` and `<…>`), transitively, found beside the
 * including file or in `dirs` (the instance's include folders) — the files the preprocessor would read from the
 * submission, not the system's. Only regular files whose real path is inside `root` are read (a link within the
 * package is followed, one leaving it skipped), each up to 1 MiB, at most 64 of them.
 */
export function headerClosure(header: string, dirs: readonly string[], root: string): string[] {
  const texts: string[] = [];
  const seen = new Set<string>();
  const queue = [header];
  while (queue.length > 0 && seen.size < MAX_HEADERS) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const read = readSubmissionText(root, file, HEADER_BYTES);
    if (read.text === undefined) continue;
    const text = read.text;
    texts.push(text);
    const plain = text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
    for (const inc of plain.matchAll(/^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]/gm)) {
      const name = inc[1] as string;
      const found = [dirname(file), ...dirs].map((d) => join(d, name)).find((p) => existsSync(p));
      if (found) queue.push(found);
    }
  }
  return texts;
}

export function apiHeaderOf(
  dir: string,
  m: { apiHeader?: string; folder?: string; includeDirs?: string[] },
  o: { metaPath: string; pointer: string },
): { apiDir: string; apiHeader?: string } {
  if (m.apiHeader === undefined) return { apiDir: resolve(dir, m.folder ?? ".") };
  const file = resolve(dir, m.apiHeader);
  const at = `${o.metaPath}: ${o.pointer}`;
  const shown = shortText(m.apiHeader);
  if (!existsSync(file)) {
    throw new InputError(`${at}: ${shown} does not exist; expected the API header file (api.h, kem.h, sign.h …)`);
  }
  if (statSync(file).isDirectory()) {
    throw new InputError(`${at}: ${shown} is a folder; expected the API header file in it (e.g. ${shown}/api.h)`);
  }
  // The header, or a header it includes from the submission (api.h with #include "sign.h" and sizes in params.h),
  // must name the API; the compilers of the build steps then decide whether it compiles to it.
  const dirs = [dirname(file), ...(m.includeDirs ?? []).map((d) => resolve(dir, d))];
  if (!headerClosure(file, dirs, dir).some((t) => /CRYPTO_|crypto_/.test(t))) {
    throw new InputError(
      `${at}: ${shown} is not an API header: neither it nor a header it includes from the submission names a CRYPTO_* macro or a crypto_* function; expected the header that declares crypto_kem_*/crypto_sign*/crypto_kex_*`,
    );
  }
  if (/["\\\n]/.test(file)) {
    throw new InputError(`${at}: ${shown}: a header path with a quote, backslash or newline cannot be included`);
  }
  return basename(file) === "api.h" ? { apiDir: dirname(file) } : { apiDir: dirname(file), apiHeader: file };
}
