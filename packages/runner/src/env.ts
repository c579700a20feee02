// Capturing the environment of a system (section 2 of every page) from /proc, /sys and the toolchain.
import { existsSync, readFileSync } from "node:fs";
import { arch, cpus, hostname, release, totalmem } from "node:os";
import type { EnvironmentRecord } from "@ngcc-perf/schema";
import { runProcess } from "./proc.ts";
import { HOST_CONTEXT } from "./run-context.ts";
import { emulated, HOST_TOOLCHAIN, type TargetToolchain } from "./target.ts";
import { TOOL } from "./tool.ts";

function read(path: string): string | null {
  try {
    return existsSync(path) ? readFileSync(path, "utf8").trim() : null;
  } catch {
    return null;
  }
}

function cpuinfoField(cpuinfo: string, names: string[]): string | null {
  for (const line of cpuinfo.split("\n")) {
    const [k, ...v] = line.split(":");
    if (k && names.includes(k.trim())) return v.join(":").trim();
  }
  return null;
}

/** Processor model: /proc/cpuinfo's model name (x86) or the implementer/part (aarch64), else os.cpus(). */
export function processorModel(cpuinfo: string): string {
  const name = cpuinfoField(cpuinfo, ["model name", "Model", "Hardware", "cpu model"]);
  if (name) return name;
  const impl = cpuinfoField(cpuinfo, ["CPU implementer"]);
  const part = cpuinfoField(cpuinfo, ["CPU part"]);
  if (impl && part) return `ARM implementer ${impl} part ${part}`;
  return cpus()[0]?.model ?? "unknown";
}

function khzToHz(s: string | null): number | null {
  return s && /^\d+$/.test(s) ? Number(s) * 1000 : null;
}

function boost(): "on" | "off" | "unknown" {
  const cpufreqBoost = read("/sys/devices/system/cpu/cpufreq/boost");
  if (cpufreqBoost === "1") return "on";
  if (cpufreqBoost === "0") return "off";
  const noTurbo = read("/sys/devices/system/cpu/intel_pstate/no_turbo");
  if (noTurbo === "1") return "off";
  if (noTurbo === "0") return "on";
  return "unknown";
}

function osName(): string {
  const text = read("/etc/os-release") ?? "";
  const m = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text);
  return m?.[1] ?? "unknown";
}

/** The first line a program prints, unsandboxed (it runs no submission code), with the toolchain's flags. */
async function firstLine(argv: string[], target: TargetToolchain): Promise<string | null> {
  const r = await runProcess(argv, { timeoutMs: 15_000, sandbox: false, context: { ...HOST_CONTEXT, target } });
  if (r.spawnError || r.exitCode !== 0) return null;
  return (r.stdout || r.stderr).split("\n")[0]?.trim() || null;
}

export interface EnvironmentOptions {
  system: string;
  cc: string;
  counter: EnvironmentRecord["counter"];
  campaign: { name?: string; start: string; end: string | null };
  pinnedCpu?: number | null;
  machine?: string | null;
  clockNote?: string;
  fixedFrequencyHz?: number | null;
  /** The campaign's toolchain: with an emulator the record says emulated, the emulator and its architecture. */
  target?: TargetToolchain;
}

/** The architecture a toolchain builds for: compiler.arch, else the first part of `cc -dumpmachine`. */
export async function targetArchitecture(t: TargetToolchain): Promise<string | null> {
  if (t.arch) return t.arch;
  const machine = await firstLine([t.cc, "-dumpmachine"], t);
  return machine?.split("-")[0] ?? null;
}

export async function captureEnvironment(o: EnvironmentOptions): Promise<EnvironmentRecord> {
  const cpuinfo = read("/proc/cpuinfo") ?? "";
  const cpufreq = "/sys/devices/system/cpu/cpu0/cpufreq";
  const smtControl = read("/sys/devices/system/cpu/smt/control");
  const hypervisorFlag = /\bhypervisor\b/.test(cpuinfoField(cpuinfo, ["flags", "Features"]) ?? "");
  const machineName =
    o.machine ?? read("/sys/class/dmi/id/product_name") ?? read("/proc/device-tree/model")?.replace(/\0/g, "") ?? null;
  const t = o.target;
  const compiler = (await firstLine([o.cc, "--version"], t ?? HOST_TOOLCHAIN)) ?? o.cc;
  const hostArchitecture = (await firstLine(["uname", "-m"], HOST_TOOLCHAIN)) ?? arch();
  const emulation =
    t && emulated(t)
      ? {
          emulated: true,
          emulator: {
            argv: t.emulator,
            version: (await firstLine([t.emulator[0] as string, "--version"], t)) ?? (t.emulator[0] as string),
            architecture: (await targetArchitecture(t)) ?? "unknown",
          },
        }
      : {};
  // Under an emulator the processor is still the host's (its architecture too); emulator.architecture is the target's.
  const architecture = hostArchitecture;
  return {
    kind: "environment",
    schemaVersion: 1,
    provenance: { origin: "measured", tool: TOOL, createdAt: new Date().toISOString() },
    system: o.system,
    processor: {
      model: processorModel(cpuinfo),
      architecture,
      logicalCpus: cpus().length,
      pinnedCpu: o.pinnedCpu ?? null,
      hypervisor: cpuinfo ? hypervisorFlag : null,
    },
    machine: machineName,
    clock: {
      fixedFrequencyHz: o.fixedFrequencyHz ?? null,
      governor: read(`${cpufreq}/scaling_governor`),
      minFrequencyHz: khzToHz(read(`${cpufreq}/scaling_min_freq`)),
      maxFrequencyHz: khzToHz(read(`${cpufreq}/scaling_max_freq`)),
      boost: boost(),
      smt: smtControl ?? "unknown",
      ...(o.clockNote ? { note: o.clockNote } : {}),
    },
    memory: { totalMiB: Math.round(totalmem() / 1024 / 1024) },
    os: { name: osName(), kernel: release() },
    toolchain: { compiler, buildTool: `${TOOL.name} ${TOOL.version} (direct ${o.cc} invocations)` },
    counter: o.counter,
    campaign: { ...(o.campaign.name ? { name: o.campaign.name } : {}), start: o.campaign.start, end: o.campaign.end },
    hostname: hostname(),
    runtime: { node: process.version, ngccPerf: TOOL.version },
    ...emulation,
  };
}
