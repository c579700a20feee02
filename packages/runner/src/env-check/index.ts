// Is this machine fit to publish timings? The checks of `ngcc-perf env --check`, read from /proc and /sys.
// The checks themselves are pure: they see the machine only through `read(path)` and a sample of the
// processes taken by `sampleProcesses`, so tests can feed them any machine. Reading never throws: a file
// that cannot be read is null, and a check that has nothing to go on is "unknown".
//
// One file per check (governor.ts … clocksource.ts); types.ts and helpers.ts hold what they share, processes.ts the
// process sample. This file assembles them in the order the report prints them.
import { probeContention } from "../probe.ts";
import { aslrCheck } from "./aslr.ts";
import { boostCheck } from "./boost.ts";
import { busyCheck } from "./busy.ts";
import { clocksourceCheck } from "./clocksource.ts";
import { contentionCheck } from "./contention.ts";
import { frequencyCheck } from "./frequency.ts";
import { governorCheck } from "./governor.ts";
import { cpuInfo, onlineCpus, readSystemFile } from "./helpers.ts";
import { hypervisorCheck, vmSigns } from "./hypervisor.ts";
import { isolationCheck } from "./isolation.ts";
import { loadCheck } from "./load.ts";
import { memoryCheck } from "./memory.ts";
import { perfCheck, perfUsable } from "./perf.ts";
import { sampleProcesses } from "./processes.ts";
import { smtCheck } from "./smt.ts";
import { stealCheck } from "./steal.ts";
import { tscCheck } from "./tsc.ts";
import type { CheckOptions, CheckStatus, EnvCheck, Machine, ReadText } from "./types.ts";
import { watchdogCheck } from "./watchdog.ts";

export { formatCpuList, parseCpuList, readSystemFile } from "./helpers.ts";
export { busyProcesses, cpuTimes, listPids, parseProcStat, sampleProcesses, snapshotProcesses } from "./processes.ts";
export type {
  BusyProcess,
  CheckOptions,
  CheckStatus,
  EnvCheck,
  ProcessSample,
  ProcessSnapshot,
  ReadText,
} from "./types.ts";

/** The checks on this machine, with a process sample and the contention probe (built with cc) taken now. */
export async function checkMachine(
  o: { counter?: string; intervalMs?: number; cc?: string } = {},
): Promise<EnvCheck[]> {
  const sample = await sampleProcesses(o.intervalMs === undefined ? {} : { intervalMs: o.intervalMs });
  const contention = await probeContention(o.cc ?? process.env.CC ?? "gcc", CONTENTION_ROUNDS).catch(() => null);
  return checkEnvironment({ read: readSystemFile, sample, contention, ...(o.counter ? { counter: o.counter } : {}) });
}

/** Rounds of the contention probe `env --check` takes: 5 ms apart, half a second. */
export const CONTENTION_ROUNDS = 100;

/** Every check, in the order the report prints them. Pure: the machine is seen only through `read` and `sample`. */
export function checkEnvironment(o: CheckOptions): EnvCheck[] {
  const read: ReadText = (path) => {
    try {
      return o.read(path);
    } catch {
      return null;
    }
  };
  const cpuinfo = cpuInfo(read);
  const signs = vmSigns(read, cpuinfo);
  const m: Machine = { read, cpus: onlineCpus(read), cpuinfo, vm: signs.signs.length > 0 };
  const counter =
    o.counter ??
    (perfUsable(m) ? "perf-cycles" : cpuinfo?.x86 === true ? "rdtsc" : cpuinfo?.x86 === false ? "cntvct" : "unknown");
  return [
    governorCheck(m),
    frequencyCheck(m),
    boostCheck(m),
    smtCheck(m),
    isolationCheck(m),
    aslrCheck(m),
    perfCheck(m),
    watchdogCheck(m),
    loadCheck(m),
    busyCheck(m, o.sample),
    memoryCheck(m),
    hypervisorCheck(m, signs),
    stealCheck(m, o.sample),
    contentionCheck(m, o.contention),
    tscCheck(m, counter),
    clocksourceCheck(m),
  ];
}

/** How many checks have each status. */
export function countStatuses(checks: EnvCheck[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { ok: 0, warn: 0, unfit: 0, unknown: 0 };
  for (const c of checks) counts[c.status]++;
  return counts;
}
