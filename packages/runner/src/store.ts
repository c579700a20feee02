// Atomic writes and hashes for the record store: a store never holds half a record. Paths come from the
// layout module of @ngcc-perf/schema.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function writeFileAtomic(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function sha256File(path: string): string {
  return sha256(readFileSync(path));
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes what a killed run left behind: temporary record files (`*.tmp`) below the store's data folder and
 * temporary build folders (`*.tmp-<pid>`) of processes that no longer exist. Finished records and builds
 * are never touched. Returns how many were removed.
 */
export function removeStaleTemps(out: string): number {
  let removed = 0;
  const walk = (dir: string, depth: number) => {
    if (!existsSync(dir) || depth > 8) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const build = /\.tmp-(\d+)$/.exec(e.name);
      if (e.isDirectory() && build && !pidAlive(Number(build[1]))) {
        rmSync(p, { recursive: true, force: true });
        removed++;
      } else if (e.isDirectory()) {
        walk(p, depth + 1);
      } else if (e.name.endsWith(".tmp")) {
        const m = /\.(\d+)\.\d+\.tmp$/.exec(e.name);
        if (!m || !pidAlive(Number(m[1]))) {
          rmSync(p, { force: true });
          removed++;
        }
      }
    }
  };
  walk(join(out, "data"), 0);
  walk(join(out, "build"), 0);
  return removed;
}
