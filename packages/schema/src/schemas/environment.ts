// The environment record: the machine and toolchain a system's measurements ran on (section 2 of every page).
import { recordSchema, ref } from "./builders.ts";
import { arr, bool, dateTime, int, nat, nonneg, nullable, obj, oneOfEnum, pickDefs, str } from "./common.ts";
import { recordHeader } from "./header.ts";

export const environment = recordSchema(
  "environment",
  "ngcc-perf environment record",
  "The machine and toolchain a system's measurements ran on (section 2 of every page).",
  {
    ...recordHeader,
    processor: obj(
      "The processor.",
      {
        model: str("Processor model name (e.g. from /proc/cpuinfo), e.g. Qualcomm Oryon."),
        architecture: str("Machine architecture as uname -m prints it, e.g. x86_64 or aarch64."),
        logicalCpus: nullable(int("Logical CPUs online; null when not known.", { minimum: 1 })),
      },
      {
        pinnedCpu: nullable(nat("CPU the driver was pinned to, or null when not pinned.")),
        hypervisor: nullable(bool("True when running under a hypervisor (cpuinfo hypervisor flag); null if unknown.")),
      },
    ),
    machine: nullable(str("Machine name (DMI product name or the campaign's machine), e.g. ASUS Vivobook S 15.")),
    clock: obj(
      "Processor clock settings.",
      {},
      {
        fixedFrequencyHz: nullable(nonneg("Fixed clock frequency in Hz when the clock was pinned, else null.")),
        governor: nullable(str("cpufreq scaling governor, e.g. performance.")),
        minFrequencyHz: nullable(nonneg("cpufreq minimum frequency in Hz.")),
        maxFrequencyHz: nullable(nonneg("cpufreq maximum frequency in Hz.")),
        boost: oneOfEnum("Turbo/boost state.", ["on", "off", "unknown"]),
        smt: str("Simultaneous multithreading state (on, off, none, unknown)."),
        note: str("Free text on how the clock was set."),
      },
    ),
    memory: obj("Installed memory.", { totalMiB: nat("MemTotal in MiB.") }),
    os: obj("Operating system.", {
      name: str("PRETTY_NAME from /etc/os-release, e.g. Ubuntu 26.04.1 LTS."),
      kernel: str("Kernel release (uname -r), e.g. 7.0.0-34-generic."),
    }),
    toolchain: obj("Compiler and build tool.", {
      compiler: str("First line of the compiler's --version, e.g. gcc (Ubuntu 15.2.0-16ubuntu1) 15.2.0."),
      buildTool: nullable(str("First line of the build tool's --version, e.g. cmake version 4.2.3, or null.")),
    }),
    counter: ref("counter", "Counter used for the timing records of this system."),
    campaign: obj(
      "The campaign run.",
      {
        start: dateTime("Campaign start (UTC, RFC 3339)."),
        end: nullable(dateTime("Campaign end (UTC, RFC 3339), or null while running.")),
      },
      { name: str("Campaign name.") },
    ),
  },
  {
    hostname: str("Host name of the machine."),
    runtime: obj(
      "Harness runtime.",
      {},
      {
        node: str("Node.js version."),
        ngccPerf: str("ngcc-perf version."),
      },
    ),
    emulated: bool(
      "True when the campaign's programs ran through an emulator (compiler.emulator): KAT, functional check, sizes and calls per operation are the target's; no time, cycle count or time share is a measurement of it. Absent or false: native.",
    ),
    emulator: obj("The emulator the programs ran through (with emulated: true).", {
      argv: arr("The argument vector prefix, as the campaign gives it.", { type: "string" }, { minItems: 1 }),
      version: str("First line of the emulator's --version output, e.g. qemu-aarch64 version 7.2.17."),
      architecture: str("The emulated architecture (compiler.arch, else what uname -m prints under the emulator)."),
    }),
  },
  pickDefs("provenance", "counter"),
);
