// The types every check shares: what a check reports, how it sees the machine, and the machine as read once.
import type { ContentionProbe } from "../probe.ts";

export type CheckStatus = "ok" | "warn" | "unfit" | "unknown";

export interface EnvCheck {
  id: string;
  title: string;
  status: CheckStatus;
  /** What was found on this machine, with the files it came from. */
  finding: string;
  /** What to do about it; lines separated by "\n", commands in backticks. */
  advice: string;
}

/** Returns a file's text, or null when it is missing or unreadable. Must not throw. */
export type ReadText = (path: string) => string | null;

/** /proc/stat and /proc/<pid>/stat of every process at one moment. */
export interface ProcessSnapshot {
  /** Text of /proc/stat, or null. */
  cpuStat: string | null;
  /** pid → text of /proc/<pid>/stat. */
  processes: Map<number, string>;
}

/** Two snapshots some time apart: enough to tell which processes used the CPU in between. */
export interface ProcessSample {
  before: ProcessSnapshot;
  after: ProcessSnapshot;
  /** Wall time between the snapshots (used only when /proc/stat cannot be read). */
  intervalMs: number;
  /** The process that took the sample, left out of the busy list. */
  selfPid?: number;
}

export interface BusyProcess {
  pid: number;
  name: string;
  /** Share of one CPU used between the snapshots, in percent (can exceed 100 for threaded processes). */
  cpuPercent: number;
}

export interface CheckOptions {
  read: ReadText;
  /** Processes sampled twice (`sampleProcesses`); null or absent makes the busy-process check unknown. */
  sample?: ProcessSample | null;
  /** The counter that will time (rdtsc, perf-cycles, …); absent: what `auto` would take. */
  counter?: string;
  /** The contention probe's rounds (`probeContention`); null or absent makes the shared-core check unknown. */
  contention?: ContentionProbe | null;
}

/** Where the kernel shows the CPUs (cpufreq, SMT, isolation). */
export const CPU = "/sys/devices/system/cpu";

/** /proc/cpuinfo with its flags line parsed. */
export interface CpuInfo {
  text: string;
  flags: Set<string>;
  /** True when the flags line is x86's ("flags"), false for aarch64's "Features", null when neither. */
  x86: boolean | null;
}

/** The machine as every check sees it: the reader, and what checkEnvironment read once for all of them. */
export interface Machine {
  read: ReadText;
  cpus: number[] | null;
  cpuinfo: CpuInfo | null;
  vm: boolean;
}

/** One check's result. */
export function check(id: string, title: string, status: CheckStatus, finding: string, advice: string): EnvCheck {
  return { id, title, status, finding, advice };
}
