// Whether a process is running: for leftovers named by the pid of the ngcc-perf process that made them (temporary
// site folders, sandbox cgroups), which a later process removes once their maker is gone.

/** Whether a process is running (EPERM: it is, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
