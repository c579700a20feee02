// ASLR: /proc/sys/kernel/randomize_va_space.
import { trimmed } from "./helpers.ts";
import { check, type EnvCheck, type Machine } from "./types.ts";

export function aslrCheck(m: Machine): EnvCheck {
  const id = "aslr";
  const title = "ASLR";
  const v = trimmed(m.read, "/proc/sys/kernel/randomize_va_space");
  const fix = "`echo 2 | sudo tee /proc/sys/kernel/randomize_va_space`";
  if (v === "2") {
    return check(
      id,
      title,
      "ok",
      "full randomisation (randomize_va_space = 2): each worker process gets its own layout, so the spread between workers includes layout effects",
      "Nothing to do.",
    );
  }
  if (v === "0" || v === "1") {
    return check(
      id,
      title,
      "warn",
      `${v === "0" ? "ASLR is off" : "partial randomisation (the heap is not randomised)"} (randomize_va_space = ${v}): ` +
        "every worker process gets the same layout, so one lucky or unlucky alignment repeats in every worker instead of showing in their spread",
      `Restore full randomisation: ${fix}`,
    );
  }
  return check(
    id,
    title,
    "unknown",
    v === null ? "/proc/sys/kernel/randomize_va_space cannot be read" : `randomize_va_space = ${v}`,
    `Full randomisation (2) is what ngcc-perf expects: ${fix}`,
  );
}
