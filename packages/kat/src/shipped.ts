// The submission's KAT files (.rsp, kat.sha256) as the harness reads them with its own rights: a regular file whose
// real path stays inside the submission folder, at most MAX_SHIPPED_BYTES. A .rsp or manifest that is a link to
// /etc/shadow or a private key is refused unread, so none of its lines can reach a log, a record or a page.
import { existsSync, readFileSync } from "node:fs";
import { readSubmissionBytes } from "@ngcc-perf/schema";

/** KAT files above this size are not read (a 100-entry .rsp of the largest NIST keys is a few tens of MB). */
export const MAX_SHIPPED_BYTES = 256 * 1024 * 1024;

export type Shipped =
  | { bytes: Buffer; error?: undefined; missing?: undefined }
  | { bytes?: undefined; error: string; missing: boolean };

/**
 * A KAT file of the submission `root` (absolute path `file`): its bytes, or why not (missing, a link out, not a
 * regular file, too large). Without `root` (a library caller that has no submission folder) the file is read as
 * it is.
 */
export function readShipped(file: string, root?: string): Shipped {
  if (!existsSync(file)) return { error: "does not exist", missing: true };
  if (root === undefined) {
    try {
      return { bytes: readFileSync(file) };
    } catch (err) {
      return { error: `cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`, missing: false };
    }
  }
  const r = readSubmissionBytes(root, file, MAX_SHIPPED_BYTES);
  return r.error !== undefined ? { error: r.error, missing: false } : { bytes: r.bytes };
}
