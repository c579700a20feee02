// Busy processes: the processes that used the CPU between the two snapshots of a process sample.
import { formatCpuList } from "./helpers.ts";
import { busyProcesses } from "./processes.ts";
import { check, type EnvCheck, type Machine, type ProcessSample } from "./types.ts";

export function busyCheck(m: Machine, sample: ProcessSample | null | undefined): EnvCheck {
  const id = "busy-processes";
  const title = "Busy processes";
  if (!sample || sample.after.processes.size === 0) {
    return check(
      id,
      title,
      "unknown",
      "the processes could not be sampled (/proc/<pid>/stat)",
      "Look at `top` for processes using the CPU before measuring.",
    );
  }
  const busy = busyProcesses(sample, 5);
  const ms = Math.round(sample.intervalMs);
  if (busy.length === 0) {
    return check(id, title, "ok", `no other process used more than 5 % of a CPU over ${ms} ms`, "Nothing to do.");
  }
  const shown = busy.slice(0, 8).map((p) => `${p.name} (pid ${p.pid}) ${Math.round(p.cpuPercent)} %`);
  const more = busy.length > shown.length ? `, and ${busy.length - shown.length} more` : "";
  const heavy = busy.some((p) => p.cpuPercent > 50);
  const others = m.cpus && m.cpus.length > 1 ? formatCpuList(m.cpus.slice(0, -1)) : "0";
  return check(
    id,
    title,
    heavy ? "unfit" : "warn",
    `over ${ms} ms: ${shown.join(", ")}${more}` +
      (heavy ? " — more than 50 % of a CPU, enough to preempt the timed process" : ""),
    "Stop them before measuring, or keep them off the measuring CPU " +
      `(\`sudo taskset -apc ${others} <pid>\` and pin the driver elsewhere with \`timing.pinCpu\`).`,
  );
}
