// The load average: /proc/loadavg against the number of online CPUs.
import { plural, trimmed } from "./helpers.ts";
import { check, type EnvCheck, type Machine } from "./types.ts";

export function loadCheck(m: Machine): EnvCheck {
  const id = "load";
  const title = "Load average";
  const text = trimmed(m.read, "/proc/loadavg");
  const f = text?.split(/\s+/) ?? [];
  const l1 = Number(f[0]);
  const l5 = Number(f[1]);
  const l15 = Number(f[2]);
  const n = m.cpus?.length ?? null;
  if (!text || !Number.isFinite(l1)) {
    return check(id, title, "unknown", "/proc/loadavg cannot be read", "Check `uptime` before measuring.");
  }
  const cpus = n !== null ? ` on ${plural(n, "CPU")}` : "";
  const finding = `${l1.toFixed(2)} / ${l5.toFixed(2)} / ${l15.toFixed(2)} (1 / 5 / 15 min)${cpus}`;
  const advice =
    "Wait until the machine is quiet (a 1-minute load average below 0.5 in `uptime`), stop other jobs (`top` shows them), " +
    "and on a shared host measure when no one else uses it.";
  if (n !== null && l1 > n) {
    return check(
      id,
      title,
      "unfit",
      `${finding}: more runnable tasks than CPUs, so the timed process waits its turn`,
      advice,
    );
  }
  if (l1 > 0.5) return check(id, title, "warn", `${finding}: other work is running`, advice);
  return check(id, title, "ok", finding, "Nothing to do.");
}
