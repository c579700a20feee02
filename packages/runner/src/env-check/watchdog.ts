// The NMI watchdog: /proc/sys/kernel/nmi_watchdog.
import { trimmed } from "./helpers.ts";
import { check, type EnvCheck, type Machine } from "./types.ts";

export function watchdogCheck(m: Machine): EnvCheck {
  const id = "nmi-watchdog";
  const title = "NMI watchdog";
  const v = trimmed(m.read, "/proc/sys/kernel/nmi_watchdog");
  if (v === "0") return check(id, title, "ok", "off (nmi_watchdog = 0)", "Nothing to do.");
  if (v === "1") {
    return check(
      id,
      title,
      "warn",
      "on (nmi_watchdog = 1): a periodic non-maskable interrupt on every CPU, and it holds one hardware counter",
      "Turn it off while measuring: `echo 0 | sudo tee /proc/sys/kernel/nmi_watchdog` (or `nmi_watchdog=0` on the kernel command line).",
    );
  }
  return check(
    id,
    title,
    "unknown",
    v === null ? "/proc/sys/kernel/nmi_watchdog cannot be read" : `nmi_watchdog = ${v}`,
    "Nothing to do unless it is on (`cat /proc/sys/kernel/nmi_watchdog` prints 1).",
  );
}
