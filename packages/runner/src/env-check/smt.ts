// SMT (hyper-threading): /sys/devices/system/cpu/smt.
import { trimmed } from "./helpers.ts";
import { CPU, check, type EnvCheck, type Machine } from "./types.ts";

export function smtCheck(m: Machine): EnvCheck {
  const id = "smt";
  const title = "SMT (hyper-threading)";
  const control = trimmed(m.read, `${CPU}/smt/control`);
  const active = trimmed(m.read, `${CPU}/smt/active`);
  const found = [control !== null ? `control = ${control}` : null, active !== null ? `active = ${active}` : null]
    .filter(Boolean)
    .join(", ");
  const last = m.cpus?.at(-1) ?? 1;
  const advice =
    "Turn SMT off (until the next reboot): `echo off | sudo tee /sys/devices/system/cpu/smt/control`\n" +
    "or for good with `nosmt` on the kernel command line; or take only the measuring CPU's sibling offline:\n" +
    `\`cat ${CPU}/cpu${last}/topology/thread_siblings_list\`, then \`echo 0 | sudo tee ${CPU}/cpu<sibling>/online\``;
  if (control === "on" || active === "1") {
    return check(
      id,
      title,
      "warn",
      `SMT is on (${found}): a sibling thread shares the measuring core's caches and execution units`,
      advice,
    );
  }
  if (control === "off" || control === "forceoff") {
    return check(id, title, "ok", `SMT is off (${found})`, "Nothing to do.");
  }
  if (control === "notsupported") {
    return check(
      id,
      title,
      "ok",
      `no SMT (${found})${m.vm ? "; in a VM the host's threads may still share cores with this one's" : ""}`,
      m.vm
        ? "Nothing to do here; on the host, dedicated cores (no shared siblings) make VM figures steadier."
        : "Nothing to do.",
    );
  }
  if (active === "0") return check(id, title, "ok", `SMT is not active (${found})`, "Nothing to do.");
  return check(
    id,
    title,
    "unknown",
    found ? `SMT state unclear (${found})` : `SMT state not visible (${CPU}/smt/control missing)`,
    `Check \`lscpu\` (Thread(s) per core); if it is 2 or more:\n${advice}`,
  );
}
