// The clocksource CLOCK_MONOTONIC is read through.
import { trimmed } from "./helpers.ts";
import { check, type EnvCheck, type Machine } from "./types.ts";

export function clocksourceCheck(m: Machine): EnvCheck {
  const id = "clocksource";
  const title = "Clocksource";
  const cs = "/sys/devices/system/clocksource/clocksource0";
  const current = trimmed(m.read, `${cs}/current_clocksource`);
  const available = trimmed(m.read, `${cs}/available_clocksource`)?.split(/\s+/) ?? [];
  if (!current) {
    return check(id, title, "unknown", `${cs}/current_clocksource cannot be read`, "Nothing to do.");
  }
  if (current === "tsc" || current === "arch_sys_counter") {
    return check(id, title, "ok", `${current}: CLOCK_MONOTONIC is read in user space, cheaply`, "Nothing to do.");
  }
  const slow = current === "hpet" || current === "acpi_pm" || current === "jiffies";
  return check(
    id,
    title,
    "warn",
    `${current}${available.length > 0 ? ` (available: ${available.join(", ")})` : ""}: CLOCK_MONOTONIC, ` +
      "the time of every figure and the reference for the TSC rate, is read through it" +
      (slow ? ", and each read is a system call costing about a microsecond" : ", more slowly than through tsc"),
    available.includes("tsc")
      ? `Switch to tsc: \`echo tsc | sudo tee ${cs}/current_clocksource\` (or \`clocksource=tsc\` on the kernel command line).`
      : "Nothing can be switched here: tsc is not offered (often because the kernel judged it unstable).",
  );
}
