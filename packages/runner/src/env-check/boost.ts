// Turbo / boost: intel_pstate's no_turbo, else cpufreq's boost.
import { trimmed } from "./helpers.ts";
import { CPU, check, type EnvCheck, type Machine } from "./types.ts";

export function boostCheck(m: Machine): EnvCheck {
  const id = "boost";
  const title = "Turbo / boost";
  const noTurbo = trimmed(m.read, `${CPU}/intel_pstate/no_turbo`);
  const candidates = [`${CPU}/cpufreq/boost`, `${CPU}/cpufreq/policy0/boost`];
  const boostFile = candidates.find((f) => trimmed(m.read, f) !== null);
  const boost = boostFile ? trimmed(m.read, boostFile) : null;
  let state: "on" | "off" | null = null;
  let source = "";
  let fix = "";
  if (noTurbo === "0" || noTurbo === "1") {
    state = noTurbo === "1" ? "off" : "on";
    source = `intel_pstate no_turbo = ${noTurbo}`;
    fix = `\`echo 1 | sudo tee ${CPU}/intel_pstate/no_turbo\``;
  } else if (boostFile && (boost === "0" || boost === "1")) {
    state = boost === "1" ? "on" : "off";
    source = `${boostFile.replace(`${CPU}/`, "")} = ${boost}`;
    fix = `\`echo 0 | sudo tee ${boostFile.replace("policy0", "policy*")}\``;
  }
  if (state === null) {
    return check(
      id,
      title,
      "unknown",
      `boost is not visible (${CPU}/intel_pstate/no_turbo and ${CPU}/cpufreq/boost missing)` +
        (m.vm ? ": in a VM it is the host's" : ""),
      m.vm
        ? "Ask the host's operator to disable turbo/boost on the host."
        : "Disable turbo/boost in the firmware (BIOS/UEFI) setup, or load a cpufreq driver that exposes it.",
    );
  }
  if (state === "off") return check(id, title, "ok", `boost is off (${source})`, "Nothing to do.");
  return check(
    id,
    title,
    "warn",
    `boost is on (${source}): the clock rises and falls with temperature and with the load of the other cores`,
    `Disable boost (until the next reboot):\n${fix}`,
  );
}
