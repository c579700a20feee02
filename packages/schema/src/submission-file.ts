// Reading a file of a submission with the harness's own rights (meta.json, kat.sha256, .rsp files, headers init
// reads): the submission is hostile, so a file is read only when it is what it claims to be — a regular file whose
// real path (every symbolic link resolved) is inside the submission folder, below a size cap. A link to
// /etc/shadow or to a private key, a FIFO that would block, a device, or a file that leaves the folder is refused
// with one line naming it; nothing of the target is read or echoed.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** A submission file's bytes, or why they were not read (one line, naming nothing of the target's contents). */
export type BytesRead = { bytes: Buffer; error?: undefined } | { bytes?: undefined; error: string };

/** Whether `path` is `dir` or below it (both absolute, resolved). */
export function isInside(path: string, dir: string): boolean {
  const back = relative(dir, path);
  return back === "" || (!isAbsolute(back) && back !== ".." && !back.startsWith(`..${sep}`));
}

function realOf(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * Reads `file` of the submission folder `root`: refused when its real path leaves `root` (a symbolic link out,
 * `..`), when it is not a regular file (a folder, a FIFO, a device, a socket) or when it holds more than `maxBytes`.
 * Symbolic links that stay inside the folder (a package's shared folder linked into each parameter set) are
 * followed. Never throws.
 */
export function readSubmissionBytes(root: string, file: string, maxBytes: number): BytesRead {
  const top = realOf(resolve(root));
  if (top === null) return { error: `the submission folder ${root} does not exist` };
  const abs = resolve(root, file);
  if (!isInside(abs, resolve(root))) return { error: "is outside the submission folder" };
  const real = realOf(abs);
  if (real === null) return { error: "does not exist" };
  if (!isInside(real, top)) {
    return { error: "is a symbolic link that leaves the submission folder; it is not read" };
  }
  let fd: number;
  try {
    // O_NOFOLLOW: the real path was resolved above; a link swapped in since is refused, not followed.
    // O_NONBLOCK: a FIFO does not block the open.
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { error: code === "ELOOP" ? "is a symbolic link; it is not read" : `cannot be read (${code ?? "error"})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { error: st.isDirectory() ? "is a folder, not a file" : "is not a regular file" };
    if (st.size > maxBytes) return { error: `is ${st.size} bytes; at most ${maxBytes} bytes are read` };
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return { bytes: buf.subarray(0, off) };
  } catch (err) {
    return { error: `cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})` };
  } finally {
    closeSync(fd);
  }
}

/** A submission file as UTF-8 text (readSubmissionBytes' rules, then NUL bytes and invalid UTF-8 refused). */
export function readSubmissionText(
  root: string,
  file: string,
  maxBytes: number,
): { text: string; error?: undefined } | { text?: undefined; error: string } {
  const r = readSubmissionBytes(root, file, maxBytes);
  if (r.error !== undefined) return { error: r.error };
  const nul = r.bytes.indexOf(0);
  if (nul >= 0) return { error: `holds binary data (a NUL byte at offset ${nul}); expected text` };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(r.bytes) };
  } catch {
    return { error: "is not UTF-8 text" };
  }
}
