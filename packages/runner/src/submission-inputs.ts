// What a submission's instance is built from, beyond its listed sources: its API header (any name), the
// randomness ngcc-perf links in (the ICCS library's, or a plain NIST randombytes), and the submitter's own
// randombytes.c, which is always left out.
import { existsSync, lstatSync, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { isInside, readSubmissionText, shortText } from "@ngcc-perf/schema";
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
export function isOwnRandombytes(path: string, root: string = dirname(path)): boolean {
  if (basename(path) === "randombytes.c") return true;
  // Read as every submission file is (inside `root`, a regular file, capped); one that cannot be read is not
  // the submitter's randombytes here: resolveAlgorithms has refused it already, or its build says why.
  const read = readSubmissionText(root, path, MAX_SOURCE_BYTES);
  return read.text !== undefined && RANDOMBYTES_DEFINITION.test(read.text);
}

/**
 * The most the harness reads or hashes of one submission file, per kind: a C source or a header of an include
 * folder (each hashed whole into the build's inputs) up to 64 MiB; the API header up to 1 MiB (it is read for its
 * names too). Larger files are bad input, refused before anything is built.
 */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;
export const MAX_API_HEADER_BYTES = 1024 * 1024;

/** What a non-regular file is, in words. */
function kindOf(st: Stats): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isDirectory()) return "a folder";
  if (st.isFile()) return "a regular file";
  return "not a regular file";
}

/**
 * Why `path` (relative to the submission folder `root`, or absolute) is not what the harness may read — a regular
 * file (want "file", at most maxBytes) or a folder (want "folder") whose real path, every symbolic link resolved,
 * is inside `root` — or null when it is. Looks with stat only: it never opens the path, so a FIFO cannot block it,
 * and it names nothing of a target's contents. `missing` is returned for a path that does not resolve.
 */
export function submissionPathProblem(
  root: string,
  path: string,
  want: "file" | "folder",
  maxBytes = Number.POSITIVE_INFINITY,
): string | null | "missing" {
  const abs = resolve(root, path);
  if (!isInside(abs, resolve(root))) return "is outside the submission folder";
  let top: string;
  let real: string;
  try {
    top = realpathSync(resolve(root));
    real = realpathSync(abs);
  } catch {
    return "missing";
  }
  if (!isInside(real, top)) return "leads out of the submission folder through a symbolic link (it is not read)";
  let st: Stats;
  try {
    st = lstatSync(real);
  } catch {
    return "missing";
  }
  if (want === "folder") return st.isDirectory() ? null : `is ${kindOf(st)}, not a folder`;
  if (!st.isFile()) return `is ${kindOf(st)}, not a regular file`;
  if (st.size > maxBytes) return `is ${st.size} bytes; at most ${maxBytes} bytes are read of it`;
  return null;
}

/** Entries looked at by specialFileIn, and how deep: a submission is a source package, not a file system. */
const MAX_SCAN_ENTRIES = 200_000;
const MAX_SCAN_DEPTH = 32;

/**
 * The first FIFO, socket or device in the submission folder (its path relative to `root`, and what it is), or null;
 * with `linksOut`, also the first symbolic link whose target leaves the folder (init, which reads the whole tree).
 * Links are not followed (each file the harness uses is resolved where it is used); .git is skipped.
 * A source package holds none of these: a FIFO blocks whoever opens it — the harness, the compiler, the driver.
 */
export function specialFileIn(root: string, o: { linksOut?: boolean } = {}): { path: string; what: string } | null {
  let seen = 0;
  let top: string;
  try {
    top = realpathSync(root);
  } catch {
    return null;
  }
  const walk = (dir: string, depth: number): { path: string; what: string } | null => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return null;
    }
    for (const name of names) {
      if (++seen > MAX_SCAN_ENTRIES) return null;
      if (name === ".git") continue;
      const p = join(dir, name);
      let st: Stats;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (depth < MAX_SCAN_DEPTH) {
          const found = walk(p, depth + 1);
          if (found) return found;
        }
      } else if (st.isSymbolicLink()) {
        if (!o.linksOut) continue;
        let real: string;
        try {
          real = realpathSync(p);
        } catch {
          continue; // a link to nothing opens nothing
        }
        if (!isInside(real, top)) {
          return { path: relative(root, p), what: "a symbolic link that leaves the submission folder" };
        }
      } else if (!st.isFile()) return { path: relative(root, p), what: kindOf(st) };
    }
    return null;
  };
  return walk(root, 0);
}

/**
 * Refuses, before anything is built or hashed, an instance input that is not a regular file (or folder) of the
 * submission: every source, the API header, the folder and include folders, and every header directly in the
 * API header's folder and the include folders (the build's inputs hash reads each). A FIFO, socket or device, a
 * symbolic link that leaves the submission, or a file above its size cap is named with its JSON pointer; nothing
 * of it is read. Folders that do not exist are left to the build (the compiler ignores a missing -I).
 */
export function checkInstanceInputs(
  dir: string,
  m: { sources: readonly string[]; folder?: string; apiHeader?: string; includeDirs?: readonly string[] },
  o: { metaPath: string; index: number; apiDir: string; apiHeader?: string },
): void {
  const at = `${o.metaPath}: /instances/${o.index}`;
  const shown = (p: string) => shortText(relative(dir, resolve(dir, p)) || ".");
  const refuse = (pointer: string, path: string, problem: string, expected: string): never => {
    throw new InputError(`${at}${pointer ? `/${pointer}` : ""}: ${shown(path)} ${problem}; expected ${expected}`);
  };
  const folders: Array<[string, string]> = [];
  if (m.folder !== undefined) folders.push(["folder", m.folder]);
  for (const [j, d] of (m.includeDirs ?? []).entries()) folders.push([`includeDirs/${j}`, d]);
  for (const [pointer, d] of folders) {
    const problem = submissionPathProblem(dir, d, "folder");
    if (problem !== null && problem !== "missing") refuse(pointer, d, problem, "a folder inside the submission");
  }
  for (const [j, src] of m.sources.entries()) {
    const problem = submissionPathProblem(dir, src, "file", MAX_SOURCE_BYTES);
    if (problem === "missing") refuse(`sources/${j}`, src, "does not exist", "a C file of the submission");
    else if (problem !== null) refuse(`sources/${j}`, src, problem, "a C file inside the submission (a regular file)");
  }
  const header = o.apiHeader ?? join(o.apiDir, "api.h");
  const headerPointer = m.apiHeader !== undefined ? "apiHeader" : m.folder !== undefined ? "folder" : "";
  const problem = submissionPathProblem(dir, header, "file", MAX_API_HEADER_BYTES);
  if (problem !== null && (problem !== "missing" || m.apiHeader !== undefined)) {
    refuse(
      headerPointer,
      header,
      problem === "missing" ? "does not exist" : problem,
      "the API header, a regular file inside the submission",
    );
  }
  // The headers every build step hashes (headersIn / buildInputsHash: each .h directly in these folders).
  const headerDirs: Array<[string, string]> = [[headerPointer, o.apiDir], ...folders.filter(([p]) => p !== "folder")];
  for (const [pointer, d] of headerDirs) {
    const abs = resolve(dir, d);
    if (submissionPathProblem(dir, abs, "folder") !== null) continue;
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.endsWith(".h"))) {
      const h = join(abs, name);
      const p = submissionPathProblem(dir, h, "file", MAX_SOURCE_BYTES);
      if (p === null) continue;
      refuse(
        pointer,
        h,
        `(a header in ${shown(abs)}, hashed with the build's inputs) ${p === "missing" ? "is a symbolic link to nothing" : p}`,
        "only regular files inside the submission among its headers",
      );
    }
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
    if (isOwnRandombytes(s, dir)) notes.push(leftOutNote(relative(dir, s)));
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
  // A FIFO, a device, a link out of the submission or a huge file: named before anything reads it.
  const problem = submissionPathProblem(dir, file, "file", MAX_API_HEADER_BYTES);
  if (problem !== null) {
    throw new InputError(
      `${at}: ${shown} ${problem === "missing" ? "does not exist" : problem}; expected the API header, a regular file inside the submission`,
    );
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
