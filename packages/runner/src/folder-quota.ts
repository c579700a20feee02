// What a sandboxed process may add to its writable folders (docs/security.md): RLIMIT_FSIZE bounds one file, not
// their number, so a build could fill the disk with many. While the process runs, its writable folders are
// walked every 200 ms (links not followed); the bytes they hold beyond what they held when it started — each
// file and folder counted at 4 KiB at least, so a flood of empty files counts too — above the limit stop it.
// This is a check, not a quota: a process can exceed the limit by what it writes in one interval.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { namesIn } from "./sandbox.ts";

/** The unit every file and folder is counted at least at (a block), so that empty files count. */
export const ENTRY_BYTES = 4096;
const INTERVAL_MS = 200;

/** Bytes the folders hold, each entry counted at ENTRY_BYTES at least; stops counting above `stopAbove`. */
export function folderBytes(dirs: readonly string[], stopAbove = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const walk = (dir: string) => {
    for (const name of namesIn(dir)) {
      if (total > stopAbove) return;
      const p = join(dir, name);
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(p);
      } catch {
        continue; // removed meanwhile
      }
      total += Math.max(ENTRY_BYTES, st.size);
      if (st.isDirectory()) walk(p);
    }
  };
  for (const d of dirs) walk(d);
  return total;
}

/**
 * Watches `dirs` while a process runs: calls `exceeded` once when they hold more than `limit` bytes beyond what they
 * held at the start. Returns the function that stops watching.
 */
export function watchFolders(dirs: readonly string[], limit: number, exceeded: (added: number) => void): () => void {
  const start = folderBytes(dirs);
  const timer = setInterval(() => {
    const added = folderBytes(dirs, start + limit) - start;
    if (added > limit) {
      clearInterval(timer);
      exceeded(added);
    }
  }, INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
