// The process limit of a sandbox as a cgroup (docs/security.md). RLIMIT_NPROC counts the processes of a real
// user id, and the kernel does not apply it to root: when ngcc-perf runs as root the sandboxed code is uid 0 of
// the host (in a user namespace without capabilities), and a fork bomb would run until the time limit. Where this
// process may create cgroups of the pids controller (root, cgroup v1's `pids` hierarchy or the cgroup v2 root
// with `pids` enabled), each sandbox gets one of its own with `pids.max` = the campaign's `processes` limit:
// bubblewrap waits (`--block-fd`) until its first process is placed in it, so everything the sandbox ever forks
// is counted, whatever its user id.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "@ngcc-perf/schema";
import { namesIn } from "./sandbox.ts";

let base: string | null | undefined;
let counter = 0;

/** Where this process's sandboxes get their pids cgroups (created on first use), or null where it cannot. */
export function pidsCgroupRoot(): string | null {
  if (base !== undefined) return base;
  base = null;
  const candidates = [
    // cgroup v1: the pids hierarchy.
    "/sys/fs/cgroup/pids",
    // cgroup v2 mounted at /sys/fs/cgroup with pids enabled for the root's children.
    ...(readText("/sys/fs/cgroup/cgroup.subtree_control")?.split(/\s+/).includes("pids") ? ["/sys/fs/cgroup"] : []),
  ];
  for (const c of candidates) {
    if (!existsSync(join(c, "cgroup.procs"))) continue;
    const dir = join(c, "ngcc-perf");
    try {
      mkdirSync(dir, { recursive: true });
      if (!existsSync(join(dir, "pids.max"))) continue;
      base = dir;
      removeStale(dir);
      break;
    } catch {
      // not ours to create (not root, read-only cgroupfs)
    }
  }
  return base;
}

/** Empty cgroups left by an ngcc-perf process that is gone (a kill -9 gives it no time to remove its own). */
function removeStale(dir: string): void {
  for (const name of namesIn(dir)) {
    const m = /^(\d+)-\d+$/.exec(name);
    if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
    try {
      rmdirSync(join(dir, name)); // EBUSY while a process is still in it: left alone
    } catch {
      // in use, or gone meanwhile
    }
  }
}

function readText(p: string): string | null {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return null;
  }
}

export interface PidsCgroup {
  dir: string;
  /** Moves a process (bubblewrap's first child) into the cgroup; false when the kernel refused. */
  enter(pid: number): boolean;
  /** Removes the cgroup once its processes are gone (retried briefly: the kernel frees it after the reaping). */
  remove(): void;
}

/** A new pids cgroup with `pids.max` = `max`, or null where none can be made. */
export function newPidsCgroup(max: number): PidsCgroup | null {
  const root = pidsCgroupRoot();
  if (!root) return null;
  const dir = join(root, `${process.pid}-${++counter}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, "pids.max"), String(max));
  } catch {
    try {
      rmdirSync(dir);
    } catch {
      // never made
    }
    return null;
  }
  return {
    dir,
    enter(pid) {
      try {
        writeFileSync(join(dir, "cgroup.procs"), String(pid));
        return true;
      } catch {
        return false;
      }
    },
    remove() {
      const attempt = (left: number) => {
        try {
          rmdirSync(dir);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === "EBUSY" && left > 0) setTimeout(() => attempt(left - 1), 50).unref();
        }
      };
      attempt(40);
    },
  };
}
