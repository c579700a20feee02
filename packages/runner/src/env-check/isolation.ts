// Isolated CPUs: isolcpus=, nohz_full= and rcu_nocbs= (from /sys, else the kernel command line).
import { cpusLabel, formatCpuList, parseCpuList, trimmed } from "./helpers.ts";
import { CPU, check, type EnvCheck, type Machine } from "./types.ts";

/** The kernel command line parameter `name=value`, or null. */
function cmdlineParam(cmdline: string | null, name: string): string | null {
  if (cmdline === null) return null;
  const head = cmdline.split(/\s--\s/)[0] ?? ""; // words after " -- " go to init, not to the kernel
  for (const word of head.trim().split(/\s+/)) {
    if (word === name) return "";
    if (word.startsWith(`${name}=`)) return word.slice(name.length + 1);
  }
  return null;
}

/** The CPUs of an isolcpus= / nohz_full= value, skipping flags such as "domain," or "managed_irq,". */
function cmdlineCpus(value: string | null): number[] | null {
  if (value === null) return null;
  const cpuParts = value.split(",").filter((p) => /^\d+(-\d+)?$/.test(p.trim()));
  return parseCpuList(cpuParts.join(","));
}

export function isolationCheck(m: Machine): EnvCheck {
  const id = "cpu-isolation";
  const title = "Isolated CPUs";
  const cmdline = trimmed(m.read, "/proc/cmdline");
  const isolatedText = m.read(`${CPU}/isolated`);
  const nohzText = m.read(`${CPU}/nohz_full`);
  const isolated =
    (isolatedText !== null ? parseCpuList(isolatedText) : null) ?? cmdlineCpus(cmdlineParam(cmdline, "isolcpus"));
  const nohz = (nohzText !== null ? parseCpuList(nohzText) : null) ?? cmdlineCpus(cmdlineParam(cmdline, "nohz_full"));
  const rcu = cmdlineCpus(cmdlineParam(cmdline, "rcu_nocbs"));
  if (isolated === null && nohz === null && cmdline === null) {
    return check(
      id,
      title,
      "unknown",
      `neither ${CPU}/isolated nor /proc/cmdline can be read`,
      "Check the kernel command line for isolcpus=, nohz_full= and rcu_nocbs=.",
    );
  }
  const parts = [
    `isolated ${isolated && isolated.length > 0 ? formatCpuList(isolated) : "none"}`,
    `nohz_full ${nohz && nohz.length > 0 ? formatCpuList(nohz) : "none"}`,
    `rcu_nocbs ${rcu && rcu.length > 0 ? formatCpuList(rcu) : "none"}`,
  ];
  const finding = parts.join(", ");
  const cpus = m.cpus ?? [];
  const n = cpus.length > 1 ? String(cpus.at(-1)) : "N";
  const advice =
    "Reserve a CPU for measuring: add to the kernel command line\n" +
    `\`isolcpus=${n} nohz_full=${n} rcu_nocbs=${n}\`\n` +
    "(Debian/Ubuntu: append it to GRUB_CMDLINE_LINUX in /etc/default/grub, run `sudo update-grub`, reboot), " +
    `then set \`timing.pinCpu: ${n}\` in the campaign (and keep its SMT sibling idle or offline).`;
  if (!isolated || isolated.length === 0) {
    return check(id, title, "warn", `${finding}: every CPU runs other tasks, interrupts and the timer tick`, advice);
  }
  const ticking = isolated.filter((c) => !nohz?.includes(c));
  if (ticking.length > 0) {
    return check(
      id,
      title,
      "warn",
      `${finding}: ${cpusLabel(ticking)} isolated but not nohz_full, so the timer tick still interrupts them`,
      `Add \`nohz_full=${formatCpuList(isolated)} rcu_nocbs=${formatCpuList(isolated)}\` to the kernel command line, ` +
        `and pin the driver to an isolated CPU (\`timing.pinCpu: ${isolated[0]}\`).`,
    );
  }
  return check(
    id,
    title,
    "ok",
    finding,
    `Pin the driver to an isolated CPU: \`timing.pinCpu: ${isolated[0]}\` in the campaign.`,
  );
}
