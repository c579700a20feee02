// perf counters: perf_event_paranoid and a core PMU (which also decide what `counter: auto` takes).
import { intFile, trimmed } from "./helpers.ts";
import { check, type EnvCheck, type Machine } from "./types.ts";

/** Whether a core PMU is registered (x86: cpu or cpu_core); null when not x86. */
function corePmu(m: Machine): boolean | null {
  if (m.cpuinfo?.x86 !== true) return null;
  const pmus = ["cpu", "cpu_core", "cpu_atom"];
  return pmus.some((p) => trimmed(m.read, `/sys/bus/event_source/devices/${p}/type`) !== null);
}

export function perfUsable(m: Machine): boolean {
  const p = intFile(m.read, "/proc/sys/kernel/perf_event_paranoid");
  return p !== null && p <= 2 && corePmu(m) === true;
}

export function perfCheck(m: Machine): EnvCheck {
  const id = "perf-counters";
  const title = "perf counters";
  const p = intFile(m.read, "/proc/sys/kernel/perf_event_paranoid");
  if (p === null) {
    return check(
      id,
      title,
      "unknown",
      "/proc/sys/kernel/perf_event_paranoid cannot be read",
      "Run `ngcc-perf env` to see which counters this machine offers.",
    );
  }
  if (p > 2) {
    return check(
      id,
      title,
      "warn",
      `perf_event_paranoid = ${p}: perf_event_open is closed to unprivileged users, so core cycles and instructions cannot be counted; figures will be TSC ticks or nanoseconds`,
      "Allow user-mode counting of one's own processes (until the next reboot):\n" +
        "`echo 2 | sudo tee /proc/sys/kernel/perf_event_paranoid`\n" +
        "for good: `kernel.perf_event_paranoid = 2` in /etc/sysctl.d/90-perf.conf.",
    );
  }
  const pmu = corePmu(m);
  if (pmu === false) {
    return check(
      id,
      title,
      "warn",
      `perf_event_paranoid = ${p} allows counting, but no core PMU is registered (/sys/bus/event_source/devices/cpu missing)` +
        (m.vm ? ": this VM has no virtual PMU" : "") +
        ", so core cycles cannot be counted; figures will be TSC ticks or nanoseconds",
      m.vm
        ? "Give the VM a virtual PMU on the host (QEMU/KVM: `-cpu host,pmu=on`; libvirt: `<pmu state='on'/>`), or publish at a fixed clock (`counter: { kind: fixed-clock }`)."
        : "Check that the kernel has perf events for this CPU (`perf stat -e cycles true`).",
    );
  }
  return check(
    id,
    title,
    "ok",
    `perf_event_paranoid = ${p}: user-mode counting allowed${pmu ? ", core PMU present" : ""}`,
    pmu
      ? "Nothing to do: `counter: auto` takes perf-cycles."
      : "Run `ngcc-perf env` to see whether perf-cycles works here.",
  );
}
