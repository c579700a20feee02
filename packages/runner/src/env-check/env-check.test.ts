// env --check on made-up machines: every check is fed /proc and /sys contents and a process sample.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ContentionProbe } from "../probe.ts";
import {
  busyProcesses,
  type CheckOptions,
  type CheckStatus,
  checkEnvironment,
  countStatuses,
  type EnvCheck,
  formatCpuList,
  type ProcessSample,
  parseCpuList,
  parseProcStat,
  sampleProcesses,
} from "./index.ts";

/** The contention probe as recorded on the project's VM (testdata/contention-probe.recorded.json). */
const RECORDED_PROBE = (
  JSON.parse(readFileSync(new URL("../testdata/contention-probe.recorded.json", import.meta.url), "utf8")) as {
    probe: ContentionProbe;
  }
).probe;

/**
 * A probe made by hand from the recorded one: the same clock probes, the independent chains at `perCycle(round)`
 * adds per cycle (delta = overhead + the round's cycles ÷ that, in counter units).
 */
function probeAt(perCycle: (round: number) => number, arch = "x86_64"): ContentionProbe {
  const p = RECORDED_PROBE;
  return {
    ...p,
    arch,
    throughputDeltas: p.clockDeltas.map(
      (d, i) => p.overhead + ((d - p.overhead) / p.adds) * (p.throughputAdds / perCycle(i)),
    ),
  };
}
const ALONE = probeAt(() => 3.85);

const CPU = "/sys/devices/system/cpu";
const X86_FLAGS = "fpu vme de pse tsc msr pae rdtscp lm constant_tsc nonstop_tsc tsc_known_freq avx2";

/** A quiet, tuned bare-metal x86 machine with 4 CPUs, CPU 3 isolated: every check is OK. */
function tunedMachine(): Record<string, string> {
  const files: Record<string, string> = {
    [`${CPU}/online`]: "0-3\n",
    [`${CPU}/intel_pstate/no_turbo`]: "1\n",
    [`${CPU}/smt/control`]: "off\n",
    [`${CPU}/smt/active`]: "0\n",
    [`${CPU}/isolated`]: "3\n",
    [`${CPU}/nohz_full`]: "3\n",
    "/proc/cmdline": "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=3 nohz_full=3 rcu_nocbs=3 quiet\n",
    "/proc/sys/kernel/randomize_va_space": "2\n",
    "/proc/sys/kernel/perf_event_paranoid": "2\n",
    "/proc/sys/kernel/nmi_watchdog": "0\n",
    "/sys/bus/event_source/devices/cpu/type": "4\n",
    "/proc/loadavg": "0.05 0.10 0.08 1/312 4242\n",
    "/proc/meminfo": "MemTotal:       32768000 kB\nMemFree:        20000000 kB\nMemAvailable:   30000000 kB\n",
    "/proc/pressure/memory":
      "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
    "/proc/cpuinfo": `processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7763 64-Core Processor\nflags\t\t: ${X86_FLAGS}\n`,
    "/sys/class/dmi/id/product_name": "PowerEdge R650\n",
    "/sys/class/dmi/id/sys_vendor": "Dell Inc.\n",
    "/proc/stat": procStat(100_000, 0),
    "/sys/devices/system/clocksource/clocksource0/current_clocksource": "tsc\n",
    "/sys/devices/system/clocksource/clocksource0/available_clocksource": "tsc hpet acpi_pm \n",
  };
  for (let c = 0; c < 4; c++) {
    files[`${CPU}/cpu${c}/cpufreq/scaling_governor`] = "performance\n";
    files[`${CPU}/cpu${c}/cpufreq/scaling_min_freq`] = "3000000\n";
    files[`${CPU}/cpu${c}/cpufreq/scaling_max_freq`] = "3000000\n";
    files[`${CPU}/cpu${c}/cpufreq/cpuinfo_min_freq`] = "800000\n";
    files[`${CPU}/cpu${c}/cpufreq/cpuinfo_max_freq`] = "4700000\n";
  }
  return files;
}

/** /proc/stat of 4 CPUs: `total` jiffies per CPU, `steal` of them stolen. */
function procStat(total: number, steal: number): string {
  const line = (name: string, t: number, s: number) => `${name} ${t - s} 0 0 0 0 0 0 ${s} 0 0`;
  const cpus = [0, 1, 2, 3].map((c) => line(`cpu${c}`, total, steal));
  return `${[line("cpu ", total * 4, steal * 4), ...cpus].join("\n")}\nintr 1 2 3\nctxt 99\n`;
}

/** /proc/<pid>/stat with the given CPU time (utime + stime) and start time. */
function pidStat(pid: number, name: string, ticks: number, start = 1000): string {
  return `${pid} (${name}) S 1 ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${ticks - 3} 3 0 0 20 0 1 0 ${start} 1000 100\n`;
}

/** A sample over which each CPU ran 50 clock ticks (0.5 s at USER_HZ 100). */
function sample(procs: Array<[number, string, number, number]>, o: { steal?: number; selfPid?: number } = {}) {
  const before = new Map<number, string>();
  const after = new Map<number, string>();
  for (const [pid, name, t0, t1] of procs) {
    before.set(pid, pidStat(pid, name, t0));
    after.set(pid, pidStat(pid, name, t1));
  }
  const s: ProcessSample = {
    before: { cpuStat: procStat(100_000, 0), processes: before },
    after: { cpuStat: procStat(100_050, o.steal ?? 0), processes: after },
    intervalMs: 500,
    ...(o.selfPid !== undefined ? { selfPid: o.selfPid } : {}),
  };
  return s;
}

const QUIET = sample([
  [1, "systemd", 500, 500],
  [77, "sshd", 20, 21],
]);

function run(files: Record<string, string>, o: Partial<CheckOptions> = {}): EnvCheck[] {
  return checkEnvironment({ read: (p) => files[p] ?? null, sample: QUIET, contention: ALONE, ...o });
}

function byId(checks: EnvCheck[], id: string): EnvCheck {
  const c = checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

function status(files: Record<string, string>, id: string, o: Partial<CheckOptions> = {}): CheckStatus {
  return byId(run(files, o), id).status;
}

function edit(changes: Record<string, string | null>): Record<string, string> {
  const files = tunedMachine();
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete files[k];
    else files[k] = v;
  }
  return files;
}

describe("env --check on a tuned bare-metal machine", () => {
  const checks = run(tunedMachine());

  it("finds every item OK, each with a finding and advice", () => {
    expect(checks.filter((c) => c.status !== "ok")).toEqual([]);
    expect(countStatuses(checks)).toEqual({ ok: checks.length, warn: 0, unfit: 0, unknown: 0 });
    for (const c of checks) {
      expect(c.finding.length).toBeGreaterThan(0);
      expect(c.advice.length).toBeGreaterThan(0);
    }
  });

  it("covers every item of the report once, in a fixed order", () => {
    expect(checks.map((c) => c.id)).toEqual([
      "cpu-governor",
      "cpu-frequency",
      "boost",
      "smt",
      "cpu-isolation",
      "aslr",
      "perf-counters",
      "nmi-watchdog",
      "load",
      "busy-processes",
      "memory",
      "hypervisor",
      "steal",
      "shared-core",
      "tsc",
      "clocksource",
    ]);
  });

  it("says what it read", () => {
    expect(byId(checks, "cpu-governor").finding).toBe("performance on CPUs 0-3");
    expect(byId(checks, "cpu-frequency").finding).toBe("CPUs 0-3: fixed at 3.00 GHz (hardware 800 MHz – 4.70 GHz)");
    expect(byId(checks, "cpu-isolation").finding).toBe("isolated 3, nohz_full 3, rcu_nocbs 3");
    expect(byId(checks, "cpu-isolation").advice).toContain("timing.pinCpu: 3");
    expect(byId(checks, "tsc").finding).toContain("perf-cycles"); // counter auto takes perf-cycles here
  });
});

describe("env --check never throws", () => {
  it("makes every item unknown when nothing can be read", () => {
    const checks = checkEnvironment({ read: () => null });
    expect(checks.map((c) => [c.id, c.status]).filter(([, s]) => s !== "unknown")).toEqual([]);
    expect(checks).toHaveLength(16);
  });

  it("treats a reader that throws as missing files", () => {
    const checks = checkEnvironment({
      read: () => {
        throw new Error("EACCES");
      },
      sample: null,
    });
    expect(new Set(checks.map((c) => c.status))).toEqual(new Set(["unknown"]));
  });

  it("treats garbage as unknown rather than failing", () => {
    const files = edit({
      "/proc/loadavg": "banana",
      "/proc/sys/kernel/randomize_va_space": "7",
      "/proc/sys/kernel/nmi_watchdog": "",
      "/proc/meminfo": "nothing here",
      [`${CPU}/smt/control`]: "notimplemented",
      [`${CPU}/smt/active`]: "",
    });
    const checks = run(files);
    for (const id of ["load", "aslr", "nmi-watchdog", "memory", "smt"]) expect(byId(checks, id).status).toBe("unknown");
  });
});

describe("frequency scaling", () => {
  it("warns about a governor other than performance, naming the CPUs and the command", () => {
    const files = edit({
      [`${CPU}/cpu2/cpufreq/scaling_governor`]: "powersave\n",
      [`${CPU}/cpu3/cpufreq/scaling_governor`]: "powersave\n",
    });
    const c = byId(run(files), "cpu-governor");
    expect(c.status).toBe("warn");
    expect(c.finding).toMatch(/^performance on CPUs 0-1; powersave on CPUs 2-3/);
    expect(c.advice).toContain("cpupower frequency-set --governor performance");
  });

  it("is unknown without cpufreq, and says why in a VM", () => {
    const files = tunedMachine();
    for (const k of Object.keys(files)) if (k.includes("/cpufreq/")) delete files[k];
    files["/proc/cpuinfo"] = `flags\t\t: ${X86_FLAGS} hypervisor\n`;
    const checks = run(files);
    expect(byId(checks, "cpu-governor").status).toBe("unknown");
    expect(byId(checks, "cpu-governor").finding).toContain("in a VM the host sets the frequency");
    expect(byId(checks, "cpu-frequency").status).toBe("unknown");
  });

  it("warns when the limits differ and proposes the base frequency", () => {
    const files = edit({ [`${CPU}/cpu0/cpufreq/base_frequency`]: "2100000\n" });
    for (let c = 0; c < 4; c++) files[`${CPU}/cpu${c}/cpufreq/scaling_min_freq`] = "800000\n";
    const c = byId(run(files), "cpu-frequency");
    expect(c.status).toBe("warn");
    expect(c.finding).toContain("CPUs 0-3: 800 MHz – 3.00 GHz");
    expect(c.advice).toContain("cpupower frequency-set --min 2100MHz --max 2100MHz");
  });

  it("reads boost from intel_pstate's no_turbo or cpufreq's boost", () => {
    const turbo = byId(run(edit({ [`${CPU}/intel_pstate/no_turbo`]: "0\n" })), "boost");
    expect(turbo.status).toBe("warn");
    expect(turbo.advice).toContain("echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo");
    const amd = edit({ [`${CPU}/intel_pstate/no_turbo`]: null, [`${CPU}/cpufreq/boost`]: "1\n" });
    expect(byId(run(amd), "boost").status).toBe("warn");
    expect(byId(run(amd), "boost").advice).toContain("echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost");
    expect(status(edit({ [`${CPU}/intel_pstate/no_turbo`]: null, [`${CPU}/cpufreq/boost`]: "0" }), "boost")).toBe("ok");
    expect(status(edit({ [`${CPU}/intel_pstate/no_turbo`]: null }), "boost")).toBe("unknown");
  });
});

describe("SMT and isolation", () => {
  it("warns when SMT is on and accepts off, forceoff and notsupported", () => {
    expect(status(edit({ [`${CPU}/smt/control`]: "on", [`${CPU}/smt/active`]: "1" }), "smt")).toBe("warn");
    expect(status(edit({ [`${CPU}/smt/control`]: null, [`${CPU}/smt/active`]: "1" }), "smt")).toBe("warn");
    expect(status(edit({ [`${CPU}/smt/control`]: "forceoff" }), "smt")).toBe("ok");
    expect(status(edit({ [`${CPU}/smt/control`]: "notsupported" }), "smt")).toBe("ok");
  });

  it("warns without isolated CPUs and proposes the kernel parameters for the last CPU", () => {
    const files = edit({ [`${CPU}/isolated`]: "\n", [`${CPU}/nohz_full`]: "(null)\n", "/proc/cmdline": "quiet\n" });
    const c = byId(run(files), "cpu-isolation");
    expect(c.status).toBe("warn");
    expect(c.finding).toMatch(/^isolated none, nohz_full none, rcu_nocbs none/);
    expect(c.advice).toContain("`isolcpus=3 nohz_full=3 rcu_nocbs=3`");
  });

  it("warns when isolated CPUs still get the timer tick", () => {
    const files = edit({ [`${CPU}/isolated`]: "2-3", [`${CPU}/nohz_full`]: null, "/proc/cmdline": "isolcpus=2-3" });
    const c = byId(run(files), "cpu-isolation");
    expect(c.status).toBe("warn");
    expect(c.finding).toContain("CPUs 2-3 isolated but not nohz_full");
  });

  it("reads isolcpus= with flags from the kernel command line, ignoring what goes to init", () => {
    const files = edit({
      [`${CPU}/isolated`]: null,
      [`${CPU}/nohz_full`]: null,
      "/proc/cmdline": "ro isolcpus=managed_irq,domain,2-3 nohz_full=2-3 rcu_nocbs=2-3 -- isolcpus=0\n",
    });
    const c = byId(run(files), "cpu-isolation");
    expect(c.status).toBe("ok");
    expect(c.finding).toBe("isolated 2-3, nohz_full 2-3, rcu_nocbs 2-3");
    const initOnly = edit({
      [`${CPU}/isolated`]: null,
      [`${CPU}/nohz_full`]: null,
      "/proc/cmdline": "ro -- isolcpus=3",
    });
    expect(status(initOnly, "cpu-isolation")).toBe("warn");
  });
});

describe("kernel settings", () => {
  it("wants full ASLR", () => {
    expect(status(edit({ "/proc/sys/kernel/randomize_va_space": "0\n" }), "aslr")).toBe("warn");
    expect(status(edit({ "/proc/sys/kernel/randomize_va_space": "1\n" }), "aslr")).toBe("warn");
  });

  it("warns when perf counters are closed or there is no PMU", () => {
    const closed = byId(run(edit({ "/proc/sys/kernel/perf_event_paranoid": "4\n" })), "perf-counters");
    expect(closed.status).toBe("warn");
    expect(closed.advice).toContain("echo 2 | sudo tee /proc/sys/kernel/perf_event_paranoid");
    const noPmu = byId(run(edit({ "/sys/bus/event_source/devices/cpu/type": null })), "perf-counters");
    expect(noPmu.status).toBe("warn");
    expect(noPmu.finding).toContain("no core PMU");
    expect(
      status(
        edit({ "/sys/bus/event_source/devices/cpu/type": null, "/sys/bus/event_source/devices/cpu_core/type": "4" }),
        "perf-counters",
      ),
    ).toBe("ok");
  });

  it("warns about the NMI watchdog", () => {
    const c = byId(run(edit({ "/proc/sys/kernel/nmi_watchdog": "1\n" })), "nmi-watchdog");
    expect(c.status).toBe("warn");
    expect(c.advice).toContain("echo 0 | sudo tee /proc/sys/kernel/nmi_watchdog");
  });
});

describe("load", () => {
  it("is unfit when the load average exceeds the CPU count, a warning above 0.5", () => {
    const over = byId(run(edit({ "/proc/loadavg": "4.50 3.00 2.00 6/300 1\n" })), "load");
    expect(over.status).toBe("unfit");
    expect(over.finding).toMatch(/^4\.50 \/ 3\.00 \/ 2\.00 \(1 \/ 5 \/ 15 min\) on 4 CPUs/);
    expect(status(edit({ "/proc/loadavg": "1.20 1.00 1.00 2/300 1\n" }), "load")).toBe("warn");
    expect(status(edit({ "/proc/loadavg": "0.50 1.00 1.00 2/300 1\n" }), "load")).toBe("ok");
  });

  it("counts CPUs from /proc/stat when the online list is missing", () => {
    expect(status(edit({ [`${CPU}/online`]: null, "/proc/loadavg": "4.50 1 1 1/1 1" }), "load")).toBe("unfit");
    expect(status(edit({ [`${CPU}/online`]: null, "/proc/loadavg": "3.50 1 1 1/1 1" }), "load")).toBe("warn");
  });

  it("names the processes above 5 % of a CPU, unfit above 50 %", () => {
    const s = sample([
      [1, "systemd", 500, 501], // 2 %
      [4242, "cc1", 1000, 1040], // 80 %
      [4343, "Web Content) (x", 10, 20], // 20 %, a name with ") " in it
    ]);
    const c = byId(run(tunedMachine(), { sample: s }), "busy-processes");
    expect(c.status).toBe("unfit");
    expect(c.finding).toContain("cc1 (pid 4242) 80 %, Web Content) (x (pid 4343) 20 %");
    expect(c.finding).not.toContain("systemd");
    const mild = sample([[4343, "make", 10, 20]]);
    expect(status(tunedMachine(), "busy-processes", { sample: mild })).toBe("warn");
    expect(status(tunedMachine(), "busy-processes", { sample: null })).toBe("unknown");
  });

  it("leaves out itself, processes that appeared or went, and reused pids", () => {
    const s = sample([[10, "ngcc-perf", 0, 50]], { selfPid: 10 });
    s.after.processes.set(11, pidStat(11, "new", 40)); // not in the first snapshot
    s.before.processes.set(12, pidStat(12, "gone", 40)); // not in the second
    s.before.processes.set(13, pidStat(13, "old", 0, 500));
    s.after.processes.set(13, pidStat(13, "reused", 45, 999)); // another process with the same pid
    expect(busyProcesses(s)).toEqual([]);
  });

  it("measures a process's share against the CPU time that passed, or the wall time without /proc/stat", () => {
    const s = sample([[5, "spin", 0, 100]]); // 100 ticks while each CPU ran 50: two threads
    expect(busyProcesses(s)).toEqual([{ pid: 5, name: "spin", cpuPercent: 200 }]);
    s.before.cpuStat = null;
    s.intervalMs = 1000; // 100 ticks at USER_HZ 100
    expect(busyProcesses(s)).toEqual([{ pid: 5, name: "spin", cpuPercent: 100 }]);
  });

  it("is unfit when memory is short, a warning under pressure", () => {
    const short = "MemTotal: 1000000 kB\nMemAvailable: 30000 kB\n";
    expect(status(edit({ "/proc/meminfo": short }), "memory")).toBe("unfit");
    const tight = "MemTotal: 1000000 kB\nMemAvailable: 150000 kB\n";
    expect(status(edit({ "/proc/meminfo": tight }), "memory")).toBe("warn");
    const psi = "some avg10=2.50 avg60=1.00 avg300=0.10 total=9\nfull avg10=0.20 avg60=0.00 avg300=0.00 total=1\n";
    expect(status(edit({ "/proc/pressure/memory": psi }), "memory")).toBe("warn");
    const stalled = psi.replace("full avg10=0.20", "full avg10=4.00");
    expect(status(edit({ "/proc/pressure/memory": stalled }), "memory")).toBe("unfit");
    expect(status(edit({ "/proc/pressure/memory": null }), "memory")).toBe("ok");
  });
});

describe("virtual machines", () => {
  it("warns on the cpuinfo hypervisor flag, /sys/hypervisor or a VM's DMI name", () => {
    const flag = edit({ "/proc/cpuinfo": `flags\t: ${X86_FLAGS} hypervisor\n` });
    expect(byId(run(flag), "hypervisor").status).toBe("warn");
    expect(byId(run(flag), "hypervisor").finding).toContain("cpuinfo flag hypervisor");
    expect(status(edit({ "/sys/hypervisor/type": "xen\n" }), "hypervisor")).toBe("warn");
    const dmi = byId(
      run(
        edit({
          "/sys/class/dmi/id/product_name": "Standard PC (Q35 + ICH9, 2009)",
          "/sys/class/dmi/id/sys_vendor": "QEMU",
        }),
      ),
      "hypervisor",
    );
    expect(dmi.status).toBe("warn");
    expect(dmi.finding).toContain('DMI sys_vendor "QEMU"');
  });

  it("cannot tell on aarch64 without DMI, and believes DMI there", () => {
    const arm = edit({
      "/proc/cpuinfo": "processor\t: 0\nFeatures\t: fp asimd evtstrm aes\nCPU implementer\t: 0x51\n",
      "/sys/class/dmi/id/product_name": null,
      "/sys/class/dmi/id/sys_vendor": null,
    });
    expect(status(arm, "hypervisor")).toBe("unknown");
    expect(status({ ...arm, "/sys/class/dmi/id/product_name": "ASUS Vivobook S 15" }, "hypervisor")).toBe("ok");
    expect(status({ ...arm, "/sys/class/dmi/id/sys_vendor": "Amazon EC2" }, "hypervisor")).toBe("warn");
    expect(status(arm, "tsc")).toBe("ok"); // the generic timer is constant by design
  });

  it("reads steal time over the sample: unfit above 10 %, a warning above 0.5 %", () => {
    expect(status(tunedMachine(), "steal", { sample: sample([], { steal: 10 }) })).toBe("unfit"); // 20 %
    expect(byId(run(tunedMachine(), { sample: sample([], { steal: 10 }) }), "steal").finding).toMatch(/^20\.0 % /);
    expect(status(tunedMachine(), "steal", { sample: sample([], { steal: 1 }) })).toBe("warn"); // 2 %
    expect(status(edit({ "/proc/stat": procStat(100_000, 5_000) }), "steal", { sample: null })).toBe("warn"); // since boot
  });
});

describe("the counter", () => {
  const variable = () =>
    edit({
      "/proc/cpuinfo": "flags\t: fpu tsc msr\n",
      "/sys/bus/event_source/devices/cpu/type": null,
    });

  it("is unfit when rdtsc would count and the TSC is not constant", () => {
    const c = byId(run(variable()), "tsc");
    expect(c.status).toBe("unfit");
    expect(c.finding).toContain("rdtsc is the counter");
    expect(status(variable(), "tsc", { counter: "rdtsc" })).toBe("unfit");
  });

  it("only warns about a variable TSC when another counter times", () => {
    expect(status(variable(), "tsc", { counter: "clock_gettime" })).toBe("warn");
    const withPmu = { ...variable(), "/sys/bus/event_source/devices/cpu/type": "4" };
    expect(status(withPmu, "tsc")).toBe("warn"); // counter auto takes perf-cycles
  });

  it("warns when the TSC may stop in idle states", () => {
    expect(status(edit({ "/proc/cpuinfo": "flags\t: tsc constant_tsc\n" }), "tsc")).toBe("warn");
  });

  it("warns about a slow clocksource and says how to switch", () => {
    const c = byId(
      run(edit({ "/sys/devices/system/clocksource/clocksource0/current_clocksource": "hpet\n" })),
      "clocksource",
    );
    expect(c.status).toBe("warn");
    expect(c.finding).toContain("system call");
    expect(c.advice).toContain("echo tsc | sudo tee /sys/devices/system/clocksource/clocksource0/current_clocksource");
    const kvm = edit({
      "/sys/devices/system/clocksource/clocksource0/current_clocksource": "kvm-clock",
      "/sys/devices/system/clocksource/clocksource0/available_clocksource": "kvm-clock acpi_pm",
    });
    expect(byId(run(kvm), "clocksource").advice).toContain("tsc is not offered");
  });
});

describe("parsing", () => {
  it("reads and writes CPU lists", () => {
    expect(parseCpuList("0-3,8,10-11\n")).toEqual([0, 1, 2, 3, 8, 10, 11]);
    expect(parseCpuList("")).toEqual([]);
    expect(parseCpuList("(null)\n")).toEqual([]);
    expect(parseCpuList("zero")).toBeNull();
    expect(formatCpuList([11, 0, 2, 1, 3, 8, 10])).toBe("0-3,8,10-11");
    expect(formatCpuList([])).toBe("");
  });

  it("reads /proc/<pid>/stat whatever the command name holds", () => {
    expect(parseProcStat(pidStat(7, "a) b (c", 42, 77))).toEqual({ name: "a) b (c", ticks: 42, start: "77" });
    expect(parseProcStat("garbage")).toBeNull();
  });

  it("samples through the reader it is given", async () => {
    let ticks = 0;
    const read = (p: string) => {
      if (p === "/proc/stat") return procStat(100_000 + ticks, 0);
      if (p !== "/proc/9/stat") return null;
      ticks += 50;
      return pidStat(9, "busy", ticks);
    };
    const s = await sampleProcesses({ read, pids: () => [9, 10], intervalMs: 1 });
    expect([...s.before.processes.keys()]).toEqual([9]);
    expect(busyProcesses(s)).toEqual([{ pid: 9, name: "busy", cpuPercent: 100 }]);
  });
});

describe("env --check: a core shared with a busy sibling thread (the contention probe)", () => {
  const check = (contention: ContentionProbe | null) => byId(run(tunedMachine(), { contention }), "shared-core");

  it("reads the probe recorded on the project's VM as a core shared now and then", () => {
    const c = check(RECORDED_PROBE);
    expect(c.status).toBe("warn");
    expect(c.finding).toMatch(/3 of 10 windows below 3\.56: a sibling thread comes and goes$/);
    expect(c.finding).toMatch(
      /^3\.77 adds per cycle on 4 independent chains over 100 rounds \(windows of 10: 3\.26–3\.88; x86_64\)/,
    );
  });

  it("is unfit when the sibling is busy throughout, warns when it comes and goes", () => {
    expect(check(ALONE).status).toBe("ok");
    const busy = check(probeAt(() => 2.9));
    expect(busy.status).toBe("unfit");
    expect(busy.finding).toMatch(/^2\.90 adds per cycle .*below 3\.56: the core is shared throughout/);
    expect(busy.advice).toMatch(/sibling hyperthread/);
    const now = check(probeAt((i) => (i >= 30 && i < 50 ? 2.9 : 3.85)));
    expect(now.status).toBe("warn");
    expect(now.finding).toMatch(/2 of 10 windows below 3\.56: a sibling thread comes and goes/);
    // One slow round in a window is an interrupt, not a sibling: the window's median stays.
    expect(check(probeAt((i) => (i % 10 === 3 ? 2 : 3.85))).status).toBe("ok");
  });

  it("on Intel x86-64, whose cores alone read no one figure, judges only the change between windows", () => {
    const intel = edit({
      "/proc/cpuinfo": `processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Processor\nflags\t\t: ${X86_FLAGS}\n`,
    });
    const onIntel = (contention: ContentionProbe) => byId(run(intel, { contention }), "shared-core");
    // An Intel Xeon VM alone read 3.26–3.43 on the four chains: steady there is not a shared core.
    const steady = onIntel(probeAt(() => 3.32));
    expect(steady.status).toBe("unknown");
    expect(steady.finding).toMatch(
      /^3\.32 adds per cycle .*steady, but no fixed figure for a core alone is known here/,
    );
    expect(onIntel(probeAt((i) => (i >= 30 && i < 50 ? 2.4 : 3.32))).status).toBe("warn");
  });

  it("off x86-64 judges only the change between windows", () => {
    expect(check(probeAt(() => 2.9, "aarch64")).status).toBe("unknown");
    expect(check(probeAt((i) => (i < 50 ? 2.9 : 2.2), "aarch64")).status).toBe("warn");
  });

  it("is unknown without a probe", () => {
    expect(check(null).status).toBe("unknown");
    expect(check({ ...ALONE, clockDeltas: [], throughputDeltas: [] }).status).toBe("unknown");
  });
});
