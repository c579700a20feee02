// Steal time: the steal column of /proc/stat, over the process sample and since boot.
import { cpuTimes } from "./processes.ts";
import { check, type EnvCheck, type Machine, type ProcessSample } from "./types.ts";

export function stealCheck(m: Machine, sample: ProcessSample | null | undefined): EnvCheck {
  const id = "steal";
  const title = "Steal time";
  const now = cpuTimes(sample?.after.cpuStat ?? m.read("/proc/stat"));
  if (!now) return check(id, title, "unknown", "/proc/stat cannot be read", "Check the st column of `vmstat 1`.");
  const sinceBoot = now.total > 0 ? (100 * now.steal) / now.total : 0;
  const was = cpuTimes(sample?.before.cpuStat ?? null);
  const during = was && now.total > was.total ? (100 * (now.steal - was.steal)) / (now.total - was.total) : null;
  const finding =
    (during !== null ? `${during.toFixed(1)} % of CPU time stolen by the host over the sample, ` : "") +
    `${sinceBoot.toFixed(1)} % since boot (/proc/stat)`;
  const advice =
    "The host runs other work on this VM's CPUs: ask for dedicated (pinned) host cores, or measure when the host is quiet.";
  if (during !== null && during > 10) return check(id, title, "unfit", finding, advice);
  if ((during ?? 0) > 0.5 || sinceBoot > 1) return check(id, title, "warn", finding, advice);
  return check(id, title, "ok", finding, "Nothing to do.");
}
