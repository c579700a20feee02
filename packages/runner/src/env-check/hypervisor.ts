// Is this a virtual machine? The cpuinfo hypervisor flag, /sys/hypervisor and the DMI names.
import { trimmed } from "./helpers.ts";
import { type CpuInfo, check, type EnvCheck, type Machine, type ReadText } from "./types.ts";

const VM_NAMES =
  /KVM|QEMU|VMware|VirtualBox|Virtual Machine|Xen|HVM domU|Bochs|Amazon EC2|Google Compute Engine|OpenStack|Parallels|BHYVE|Cloud Hypervisor|Firecracker/i;

export interface VmSigns {
  signs: string[];
  /** Whether the absence of signs means something (an x86 flags line, or a DMI name that was read). */
  conclusive: boolean;
}

export function vmSigns(read: ReadText, cpuinfo: CpuInfo | null): VmSigns {
  const signs: string[] = [];
  if (cpuinfo?.flags.has("hypervisor")) signs.push("cpuinfo flag hypervisor");
  const hvType = trimmed(read, "/sys/hypervisor/type");
  if (hvType) signs.push(`/sys/hypervisor/type = ${hvType}`);
  const dmi: string[] = [];
  for (const f of ["product_name", "sys_vendor"]) {
    const v = trimmed(read, `/sys/class/dmi/id/${f}`);
    if (v) {
      dmi.push(v);
      if (VM_NAMES.test(v)) signs.push(`DMI ${f} "${v}"`);
    }
  }
  return { signs, conclusive: cpuinfo?.x86 === true || dmi.length > 0 };
}

export function hypervisorCheck(m: Machine, v: VmSigns): EnvCheck {
  const id = "hypervisor";
  const title = "Hypervisor";
  if (v.signs.length > 0) {
    return check(
      id,
      title,
      "warn",
      `a virtual machine (${v.signs.join(", ")}): the host can take the CPU away (steal time), and the clock, boost and SMT are the host's`,
      "Publish from bare metal where you can. Otherwise ask for dedicated (pinned) host cores for this VM; " +
        "the environment record notes that it is a VM.",
    );
  }
  if (!v.conclusive) {
    return check(
      id,
      title,
      "unknown",
      m.cpuinfo === null ? "/proc/cpuinfo cannot be read" : "no hypervisor flag on this architecture, and no DMI name",
      "Check `systemd-detect-virt`; a VM's figures are weaker than bare metal's.",
    );
  }
  return check(id, title, "ok", "bare metal: no hypervisor flag, no VM name in DMI", "Nothing to do.");
}
