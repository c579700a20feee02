// Memory pressure: /proc/meminfo's available share and /proc/pressure/memory's stall figures.
import { check, type EnvCheck, type Machine } from "./types.ts";

function meminfoKiB(text: string, key: string): number | null {
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s*kB`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

function psiAvg10(text: string | null, kind: "some" | "full"): number | null {
  if (text === null) return null;
  const m = new RegExp(`^${kind}\\s+avg10=([\\d.]+)`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

export function memoryCheck(m: Machine): EnvCheck {
  const id = "memory";
  const title = "Memory pressure";
  const meminfo = m.read("/proc/meminfo");
  const total = meminfo ? meminfoKiB(meminfo, "MemTotal") : null;
  const avail = meminfo ? meminfoKiB(meminfo, "MemAvailable") : null;
  const psi = m.read("/proc/pressure/memory");
  const some = psiAvg10(psi, "some");
  const full = psiAvg10(psi, "full");
  if (total === null || avail === null || total === 0) {
    return check(id, title, "unknown", "/proc/meminfo cannot be read", "Check `free -m` before measuring.");
  }
  const share = avail / total;
  const psiText =
    some !== null
      ? `; stalled on memory ${some.toFixed(2)} % (some) / ${(full ?? 0).toFixed(2)} % (full) over 10 s`
      : "";
  const finding = `${Math.round(avail / 1024)} of ${Math.round(total / 1024)} MiB available (${Math.round(share * 100)} %)${psiText}`;
  const advice =
    "Free memory before measuring (stop memory-hungry processes): a timing run needs little, but must not wait for paging.";
  if (share < 0.05 || (full ?? 0) > 1) {
    return check(id, title, "unfit", `${finding}: the machine is short of memory and tasks stall on paging`, advice);
  }
  if (share < 0.2 || (some ?? 0) > 0.5) {
    return check(id, title, "warn", `${finding}: memory is tight`, advice);
  }
  return check(id, title, "ok", finding, "Nothing to do.");
}
