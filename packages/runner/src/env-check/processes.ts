// Which processes use the CPU: /proc/stat and /proc/<pid>/stat read twice, some time apart.
import { readdirSync } from "node:fs";
import { readSystemFile } from "./helpers.ts";
import type { BusyProcess, ProcessSample, ProcessSnapshot, ReadText } from "./types.ts";

/** The pids under /proc, or [] when /proc cannot be listed. */
export function listPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

export function snapshotProcesses(read: ReadText, pids: number[]): ProcessSnapshot {
  const processes = new Map<number, string>();
  for (const pid of pids) {
    const text = read(`/proc/${pid}/stat`);
    if (text !== null) processes.set(pid, text);
  }
  return { cpuStat: read("/proc/stat"), processes };
}

/** Reads every process's CPU time twice, `intervalMs` apart (default 500 ms). */
export async function sampleProcesses(
  o: { read?: ReadText; pids?: () => number[]; intervalMs?: number } = {},
): Promise<ProcessSample> {
  const read = o.read ?? readSystemFile;
  const pids = o.pids ?? listPids;
  const intervalMs = o.intervalMs ?? 500;
  const start = performance.now();
  const before = snapshotProcesses(read, pids());
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
  const after = snapshotProcesses(read, pids());
  return { before, after, intervalMs: performance.now() - start, selfPid: process.pid };
}

interface CpuTimes {
  total: number;
  steal: number;
  cpus: number;
}

/** The aggregate "cpu" line of /proc/stat: total jiffies, steal jiffies, and the number of cpuN lines. */
export function cpuTimes(stat: string | null): CpuTimes | null {
  if (stat === null) return null;
  const m = /^cpu\s+([\d\s]+)$/m.exec(stat);
  if (!m?.[1]) return null;
  const v = m[1].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal [guest guest_nice]; guest time is already in user.
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const cpus = [...stat.matchAll(/^cpu\d+\s/gm)].length;
  return { total, steal: v[7] ?? 0, cpus: cpus || 1 };
}

interface ProcStat {
  name: string;
  ticks: number;
  start: string;
}

/** /proc/<pid>/stat → the command name, utime + stime (clock ticks) and the start time. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")"); // the name may itself contain ") "
  if (open < 0 || close < open) return null;
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15, starttime field 22.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return { name: text.slice(open + 1, close), ticks: utime + stime, start: rest[19] ?? "" };
}

/** Processes that used more than `thresholdPercent` of a CPU between the two snapshots, busiest first. */
export function busyProcesses(sample: ProcessSample, thresholdPercent = 5): BusyProcess[] {
  const a = cpuTimes(sample.before.cpuStat);
  const b = cpuTimes(sample.after.cpuStat);
  // Elapsed clock ticks of one CPU: from /proc/stat when it can be read, else wall time at USER_HZ = 100.
  const elapsed = a && b && b.total > a.total ? (b.total - a.total) / b.cpus : sample.intervalMs / 10;
  if (!(elapsed > 0)) return [];
  const out: BusyProcess[] = [];
  for (const [pid, text] of sample.after.processes) {
    if (pid === sample.selfPid) continue;
    const was = sample.before.processes.get(pid);
    if (was === undefined) continue;
    const p0 = parseProcStat(was);
    const p1 = parseProcStat(text);
    if (!p0 || !p1 || p0.start !== p1.start) continue; // gone, unreadable, or the pid was reused
    const cpuPercent = (100 * (p1.ticks - p0.ticks)) / elapsed;
    if (cpuPercent > thresholdPercent) out.push({ pid, name: p1.name, cpuPercent });
  }
  return out.sort((x, y) => y.cpuPercent - x.cpuPercent || x.pid - y.pid);
}
