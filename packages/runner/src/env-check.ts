// Is this machine fit to publish timings? The checks of `ngcc-perf env --check`, read from /proc and /sys.
// The checks themselves are pure: they see the machine only through `read(path)` and a sample of the
// processes taken by `sampleProcesses`, so tests can feed them any machine. Reading never throws: a file
// that cannot be read is null, and a check that has nothing to go on is "unknown".
import { readdirSync, readFileSync } from "node:fs";
import { type ContentionProbe, probeContention } from "./probe.ts";
import { addsPerCycle, CONTENDED_SHARE, X86_64_ALONE_ADDS_PER_CYCLE } from "./samples.ts";

export type CheckStatus = "ok" | "warn" | "unfit" | "unknown";

export interface EnvCheck {
  id: string;
  title: string;
  status: CheckStatus;
  /** What was found on this machine, with the files it came from. */
  finding: string;
  /** What to do about it; lines separated by "\n", commands in backticks. */
  advice: string;
}

/** Returns a file's text, or null when it is missing or unreadable. Must not throw. */
export type ReadText = (path: string) => string | null;

/** /proc/stat and /proc/<pid>/stat of every process at one moment. */
export interface ProcessSnapshot {
  /** Text of /proc/stat, or null. */
  cpuStat: string | null;
  /** pid → text of /proc/<pid>/stat. */
  processes: Map<number, string>;
}

/** Two snapshots some time apart: enough to tell which processes used the CPU in between. */
export interface ProcessSample {
  before: ProcessSnapshot;
  after: ProcessSnapshot;
  /** Wall time between the snapshots (used only when /proc/stat cannot be read). */
  intervalMs: number;
  /** The process that took the sample, left out of the busy list. */
  selfPid?: number;
}

export interface BusyProcess {
  pid: number;
  name: string;
  /** Share of one CPU used between the snapshots, in percent (can exceed 100 for threaded processes). */
  cpuPercent: number;
}

export interface CheckOptions {
  read: ReadText;
  /** Processes sampled twice (`sampleProcesses`); null or absent makes the busy-process check unknown. */
  sample?: ProcessSample | null;
  /** The counter that will time (rdtsc, perf-cycles, …); absent: what `auto` would take. */
  counter?: string;
  /** The contention probe's rounds (`probeContention`); null or absent makes the shared-core check unknown. */
  contention?: ContentionProbe | null;
}

// ---------------------------------------------------------------------------------------------------------
// Reading

/** The real machine: file contents, null on any error. */
export const readSystemFile: ReadText = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

/** The pids under /proc, or [] when /proc cannot be listed. */
export function listPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

export function snapshotProcesses(read: ReadText, pids: number[]): ProcessSnapshot {
  const processes = new Map<number, string>();
  for (const pid of pids) {
    const text = read(`/proc/${pid}/stat`);
    if (text !== null) processes.set(pid, text);
  }
  return { cpuStat: read("/proc/stat"), processes };
}

/** Reads every process's CPU time twice, `intervalMs` apart (default 500 ms). */
export async function sampleProcesses(
  o: { read?: ReadText; pids?: () => number[]; intervalMs?: number } = {},
): Promise<ProcessSample> {
  const read = o.read ?? readSystemFile;
  const pids = o.pids ?? listPids;
  const intervalMs = o.intervalMs ?? 500;
  const start = performance.now();
  const before = snapshotProcesses(read, pids());
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
  const after = snapshotProcesses(read, pids());
  return { before, after, intervalMs: performance.now() - start, selfPid: process.pid };
}

/** The checks on this machine, with a process sample and the contention probe (built with cc) taken now. */
export async function checkMachine(
  o: { counter?: string; intervalMs?: number; cc?: string } = {},
): Promise<EnvCheck[]> {
  const sample = await sampleProcesses(o.intervalMs === undefined ? {} : { intervalMs: o.intervalMs });
  const contention = await probeContention(o.cc ?? process.env.CC ?? "gcc", CONTENTION_ROUNDS).catch(() => null);
  return checkEnvironment({ read: readSystemFile, sample, contention, ...(o.counter ? { counter: o.counter } : {}) });
}

/** Rounds of the contention probe `env --check` takes: 5 ms apart, half a second. */
export const CONTENTION_ROUNDS = 100;

// ---------------------------------------------------------------------------------------------------------
// Parsing helpers

const CPU = "/sys/devices/system/cpu";

function trimmed(read: ReadText, path: string): string | null {
  const t = read(path);
  return t === null ? null : t.trim();
}

/** "0-3,8,10-11" → [0, 1, 2, 3, 8, 10, 11]; "" or "(null)" → []; garbage → null. */
export function parseCpuList(text: string): number[] | null {
  const t = text.trim();
  if (t === "" || t === "(null)") return [];
  const out: number[] = [];
  for (const part of t.split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return null;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    for (let c = lo; c <= hi; c++) out.push(c);
  }
  return out;
}

/** [0, 1, 2, 3, 8, 10, 11] → "0-3,8,10-11". */
export function formatCpuList(cpus: number[]): string {
  const s = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === (s[j] as number) + 1) j++;
    parts.push(i === j ? String(s[i]) : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function cpusLabel(cpus: number[]): string {
  return `${cpus.length === 1 ? "CPU" : "CPUs"} ${formatCpuList(cpus)}`;
}

/** The online CPUs: /sys/devices/system/cpu/online, else the cpuN lines of /proc/stat, else cpuinfo. */
function onlineCpus(read: ReadText): number[] | null {
  for (const f of [`${CPU}/online`, `${CPU}/present`]) {
    const t = read(f);
    const list = t === null ? null : parseCpuList(t);
    if (list && list.length > 0) return list;
  }
  const stat = read("/proc/stat");
  if (stat) {
    const list = [...stat.matchAll(/^cpu(\d+)\s/gm)].map((m) => Number(m[1]));
    if (list.length > 0) return list;
  }
  const cpuinfo = read("/proc/cpuinfo");
  if (cpuinfo) {
    const list = [...cpuinfo.matchAll(/^processor\s*:\s*(\d+)/gm)].map((m) => Number(m[1]));
    if (list.length > 0) return list;
  }
  return null;
}

interface CpuInfo {
  text: string;
  flags: Set<string>;
  /** True when the flags line is x86's ("flags"), false for aarch64's "Features", null when neither. */
  x86: boolean | null;
}

function cpuInfo(read: ReadText): CpuInfo | null {
  const text = read("/proc/cpuinfo");
  if (text === null) return null;
  const flagsLine = /^flags\s*:(.*)$/m.exec(text);
  const featuresLine = /^Features\s*:(.*)$/m.exec(text);
  const line = flagsLine?.[1] ?? featuresLine?.[1] ?? "";
  return {
    text,
    flags: new Set(line.trim().split(/\s+/).filter(Boolean)),
    x86: flagsLine ? true : featuresLine || /^CPU implementer/m.test(text) ? false : null,
  };
}

/** kHz (as cpufreq writes it) → "2.10 GHz" or "800 MHz". */
function khz(v: number): string {
  return v >= 1_000_000 ? `${(v / 1_000_000).toFixed(2)} GHz` : `${Math.round(v / 1000)} MHz`;
}

function intFile(read: ReadText, path: string): number | null {
  const t = trimmed(read, path);
  return t !== null && /^-?\d+$/.test(t) ? Number(t) : null;
}

/** Groups CPUs by a per-CPU value: [["performance", [0, 1]], ["powersave", [2, 3]]]. */
function byValue(values: Array<[number, string]>): Array<[string, number[]]> {
  const groups = new Map<string, number[]>();
  for (const [cpu, v] of values) groups.set(v, [...(groups.get(v) ?? []), cpu]);
  return [...groups.entries()];
}

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

interface CpuTimes {
  total: number;
  steal: number;
  cpus: number;
}

/** The aggregate "cpu" line of /proc/stat: total jiffies, steal jiffies, and the number of cpuN lines. */
export function cpuTimes(stat: string | null): CpuTimes | null {
  if (stat === null) return null;
  const m = /^cpu\s+([\d\s]+)$/m.exec(stat);
  if (!m?.[1]) return null;
  const v = m[1].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal [guest guest_nice]; guest time is already in user.
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const cpus = [...stat.matchAll(/^cpu\d+\s/gm)].length;
  return { total, steal: v[7] ?? 0, cpus: cpus || 1 };
}

interface ProcStat {
  name: string;
  ticks: number;
  start: string;
}

/** /proc/<pid>/stat → the command name, utime + stime (clock ticks) and the start time. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")"); // the name may itself contain ") "
  if (open < 0 || close < open) return null;
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15, starttime field 22.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return { name: text.slice(open + 1, close), ticks: utime + stime, start: rest[19] ?? "" };
}

/** Processes that used more than `thresholdPercent` of a CPU between the two snapshots, busiest first. */
export function busyProcesses(sample: ProcessSample, thresholdPercent = 5): BusyProcess[] {
  const a = cpuTimes(sample.before.cpuStat);
  const b = cpuTimes(sample.after.cpuStat);
  // Elapsed clock ticks of one CPU: from /proc/stat when it can be read, else wall time at USER_HZ = 100.
  const elapsed = a && b && b.total > a.total ? (b.total - a.total) / b.cpus : sample.intervalMs / 10;
  if (!(elapsed > 0)) return [];
  const out: BusyProcess[] = [];
  for (const [pid, text] of sample.after.processes) {
    if (pid === sample.selfPid) continue;
    const was = sample.before.processes.get(pid);
    if (was === undefined) continue;
    const p0 = parseProcStat(was);
    const p1 = parseProcStat(text);
    if (!p0 || !p1 || p0.start !== p1.start) continue; // gone, unreadable, or the pid was reused
    const cpuPercent = (100 * (p1.ticks - p0.ticks)) / elapsed;
    if (cpuPercent > thresholdPercent) out.push({ pid, name: p1.name, cpuPercent });
  }
  return out.sort((x, y) => y.cpuPercent - x.cpuPercent || x.pid - y.pid);
}

// ---------------------------------------------------------------------------------------------------------
// The checks

interface Machine {
  read: ReadText;
  cpus: number[] | null;
  cpuinfo: CpuInfo | null;
  vm: boolean;
}

function check(id: string, title: string, status: CheckStatus, finding: string, advice: string): EnvCheck {
  return { id, title, status, finding, advice };
}

const FIX_GOVERNOR =
  "Set the performance governor on every CPU:\n" +
  "`sudo cpupower frequency-set --governor performance`\n" +
  "or, without cpupower: `echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor`";

function governorCheck(m: Machine): EnvCheck {
  const id = "cpu-governor";
  const title = "Frequency governor";
  const cpus = m.cpus ?? [0];
  const values: Array<[number, string]> = [];
  for (const c of cpus) {
    const g = trimmed(m.read, `${CPU}/cpu${c}/cpufreq/scaling_governor`);
    if (g) values.push([c, g]);
  }
  if (values.length === 0) {
    return check(
      id,
      title,
      "unknown",
      `no cpufreq governor (${CPU}/cpu*/cpufreq/scaling_governor missing)` +
        (m.vm ? ": in a VM the host sets the frequency, and this kernel cannot see it" : ""),
      m.vm
        ? "Ask the host's operator to run the host's CPUs with the performance governor (or a fixed frequency)."
        : "Load a cpufreq driver (intel_pstate, amd-pstate or acpi-cpufreq), then set the performance governor:\n" +
            "`sudo cpupower frequency-set --governor performance`",
    );
  }
  const groups = byValue(values);
  const finding = groups.map(([g, cs]) => `${g} on ${cpusLabel(cs)}`).join("; ");
  const missing = cpus.filter((c) => !values.some(([v]) => v === c));
  const tail = missing.length > 0 ? `; no governor on ${cpusLabel(missing)}` : "";
  if (groups.every(([g]) => g === "performance")) {
    return check(id, title, "ok", finding + tail, "Nothing to do.");
  }
  return check(
    id,
    title,
    "warn",
    `${finding}${tail}: the frequency follows the load, so the first samples of every run (and any after a pause) run slower`,
    FIX_GOVERNOR,
  );
}

function frequencyCheck(m: Machine): EnvCheck {
  const id = "cpu-frequency";
  const title = "Frequency limits";
  const cpus = m.cpus ?? [0];
  const ranges: Array<[number, string]> = [];
  let fixed = true;
  for (const c of cpus) {
    const dir = `${CPU}/cpu${c}/cpufreq`;
    const lo = intFile(m.read, `${dir}/scaling_min_freq`);
    const hi = intFile(m.read, `${dir}/scaling_max_freq`);
    if (lo === null || hi === null) continue;
    const hwLo = intFile(m.read, `${dir}/cpuinfo_min_freq`);
    const hwHi = intFile(m.read, `${dir}/cpuinfo_max_freq`);
    const hw = hwLo !== null && hwHi !== null ? ` (hardware ${khz(hwLo)} – ${khz(hwHi)})` : "";
    ranges.push([c, lo === hi ? `fixed at ${khz(lo)}${hw}` : `${khz(lo)} – ${khz(hi)}${hw}`]);
    if (lo !== hi) fixed = false;
  }
  if (ranges.length === 0) {
    return check(
      id,
      title,
      "unknown",
      `no cpufreq limits (${CPU}/cpu*/cpufreq/scaling_{min,max}_freq missing)` +
        (m.vm ? ": the frequency is the host's" : ""),
      m.vm
        ? "Ask the host's operator for a fixed frequency on the host's CPUs."
        : "Load a cpufreq driver so the frequency can be fixed (`sudo cpupower frequency-set --min F --max F`).",
    );
  }
  const finding = byValue(ranges)
    .map(([r, cs]) => `${cpusLabel(cs)}: ${r}`)
    .join("; ");
  if (fixed) {
    return check(
      id,
      title,
      "ok",
      finding,
      "Nothing to do. To publish core cycles without perf counters, time with " +
        "`counter: { kind: fixed-clock, fixedClockHz: <that frequency in Hz> }` in the campaign.",
    );
  }
  const base = intFile(m.read, `${CPU}/cpu${cpus[0] ?? 0}/cpufreq/base_frequency`);
  const f = base !== null ? `${Math.round(base / 1000)}MHz` : "F";
  return check(
    id,
    title,
    "warn",
    `${finding}: the clock is not fixed, so a figure in time or TSC ticks depends on the frequency the CPU chose`,
    `Fix the frequency at one the CPU sustains without boost${base !== null ? ` (its base frequency, ${khz(base)})` : " (e.g. its nominal one)"}:\n` +
      `\`sudo cpupower frequency-set --min ${f} --max ${f}\`\n` +
      "then, to publish core cycles without perf counters, time with " +
      "`counter: { kind: fixed-clock, fixedClockHz: <that frequency in Hz> }` in the campaign.",
  );
}

function boostCheck(m: Machine): EnvCheck {
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

function smtCheck(m: Machine): EnvCheck {
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

function isolationCheck(m: Machine): EnvCheck {
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

function aslrCheck(m: Machine): EnvCheck {
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

/** Whether a core PMU is registered (x86: cpu or cpu_core); null when not x86. */
function corePmu(m: Machine): boolean | null {
  if (m.cpuinfo?.x86 !== true) return null;
  const pmus = ["cpu", "cpu_core", "cpu_atom"];
  return pmus.some((p) => trimmed(m.read, `/sys/bus/event_source/devices/${p}/type`) !== null);
}

function perfUsable(m: Machine): boolean {
  const p = intFile(m.read, "/proc/sys/kernel/perf_event_paranoid");
  return p !== null && p <= 2 && corePmu(m) === true;
}

function perfCheck(m: Machine): EnvCheck {
  const id = "perf-counters";
  const title = "perf counters";
  const p = intFile(m.read, "/proc/sys/kernel/perf_event_paranoid");
  if (p === null) {
    return check(
      id,
      title,
      "unknown",
      "/proc/sys/kernel/perf_event_paranoid cannot be read",
      "Run `ngcc-perf env` to see which counters this machine offers.",
    );
  }
  if (p > 2) {
    return check(
      id,
      title,
      "warn",
      `perf_event_paranoid = ${p}: perf_event_open is closed to unprivileged users, so core cycles and instructions cannot be counted; figures will be TSC ticks or nanoseconds`,
      "Allow user-mode counting of one's own processes (until the next reboot):\n" +
        "`echo 2 | sudo tee /proc/sys/kernel/perf_event_paranoid`\n" +
        "for good: `kernel.perf_event_paranoid = 2` in /etc/sysctl.d/90-perf.conf.",
    );
  }
  const pmu = corePmu(m);
  if (pmu === false) {
    return check(
      id,
      title,
      "warn",
      `perf_event_paranoid = ${p} allows counting, but no core PMU is registered (/sys/bus/event_source/devices/cpu missing)` +
        (m.vm ? ": this VM has no virtual PMU" : "") +
        ", so core cycles cannot be counted; figures will be TSC ticks or nanoseconds",
      m.vm
        ? "Give the VM a virtual PMU on the host (QEMU/KVM: `-cpu host,pmu=on`; libvirt: `<pmu state='on'/>`), or publish at a fixed clock (`counter: { kind: fixed-clock }`)."
        : "Check that the kernel has perf events for this CPU (`perf stat -e cycles true`).",
    );
  }
  return check(
    id,
    title,
    "ok",
    `perf_event_paranoid = ${p}: user-mode counting allowed${pmu ? ", core PMU present" : ""}`,
    pmu
      ? "Nothing to do: `counter: auto` takes perf-cycles."
      : "Run `ngcc-perf env` to see whether perf-cycles works here.",
  );
}

function watchdogCheck(m: Machine): EnvCheck {
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

function loadCheck(m: Machine): EnvCheck {
  const id = "load";
  const title = "Load average";
  const text = trimmed(m.read, "/proc/loadavg");
  const f = text?.split(/\s+/) ?? [];
  const l1 = Number(f[0]);
  const l5 = Number(f[1]);
  const l15 = Number(f[2]);
  const n = m.cpus?.length ?? null;
  if (!text || !Number.isFinite(l1)) {
    return check(id, title, "unknown", "/proc/loadavg cannot be read", "Check `uptime` before measuring.");
  }
  const cpus = n !== null ? ` on ${plural(n, "CPU")}` : "";
  const finding = `${l1.toFixed(2)} / ${l5.toFixed(2)} / ${l15.toFixed(2)} (1 / 5 / 15 min)${cpus}`;
  const advice =
    "Wait until the machine is quiet (a 1-minute load average below 0.5 in `uptime`), stop other jobs (`top` shows them), " +
    "and on a shared host measure when no one else uses it.";
  if (n !== null && l1 > n) {
    return check(
      id,
      title,
      "unfit",
      `${finding}: more runnable tasks than CPUs, so the timed process waits its turn`,
      advice,
    );
  }
  if (l1 > 0.5) return check(id, title, "warn", `${finding}: other work is running`, advice);
  return check(id, title, "ok", finding, "Nothing to do.");
}

function busyCheck(m: Machine, sample: ProcessSample | null | undefined): EnvCheck {
  const id = "busy-processes";
  const title = "Busy processes";
  if (!sample || sample.after.processes.size === 0) {
    return check(
      id,
      title,
      "unknown",
      "the processes could not be sampled (/proc/<pid>/stat)",
      "Look at `top` for processes using the CPU before measuring.",
    );
  }
  const busy = busyProcesses(sample, 5);
  const ms = Math.round(sample.intervalMs);
  if (busy.length === 0) {
    return check(id, title, "ok", `no other process used more than 5 % of a CPU over ${ms} ms`, "Nothing to do.");
  }
  const shown = busy.slice(0, 8).map((p) => `${p.name} (pid ${p.pid}) ${Math.round(p.cpuPercent)} %`);
  const more = busy.length > shown.length ? `, and ${busy.length - shown.length} more` : "";
  const heavy = busy.some((p) => p.cpuPercent > 50);
  const others = m.cpus && m.cpus.length > 1 ? formatCpuList(m.cpus.slice(0, -1)) : "0";
  return check(
    id,
    title,
    heavy ? "unfit" : "warn",
    `over ${ms} ms: ${shown.join(", ")}${more}` +
      (heavy ? " — more than 50 % of a CPU, enough to preempt the timed process" : ""),
    "Stop them before measuring, or keep them off the measuring CPU " +
      `(\`sudo taskset -apc ${others} <pid>\` and pin the driver elsewhere with \`timing.pinCpu\`).`,
  );
}

function meminfoKiB(text: string, key: string): number | null {
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s*kB`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

function psiAvg10(text: string | null, kind: "some" | "full"): number | null {
  if (text === null) return null;
  const m = new RegExp(`^${kind}\\s+avg10=([\\d.]+)`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

function memoryCheck(m: Machine): EnvCheck {
  const id = "memory";
  const title = "Memory pressure";
  const meminfo = m.read("/proc/meminfo");
  const total = meminfo ? meminfoKiB(meminfo, "MemTotal") : null;
  const avail = meminfo ? meminfoKiB(meminfo, "MemAvailable") : null;
  const psi = m.read("/proc/pressure/memory");
  const some = psiAvg10(psi, "some");
  const full = psiAvg10(psi, "full");
  if (total === null || avail === null || total === 0) {
    return check(id, title, "unknown", "/proc/meminfo cannot be read", "Check `free -m` before measuring.");
  }
  const share = avail / total;
  const psiText =
    some !== null
      ? `; stalled on memory ${some.toFixed(2)} % (some) / ${(full ?? 0).toFixed(2)} % (full) over 10 s`
      : "";
  const finding = `${Math.round(avail / 1024)} of ${Math.round(total / 1024)} MiB available (${Math.round(share * 100)} %)${psiText}`;
  const advice =
    "Free memory before measuring (stop memory-hungry processes): a timing run needs little, but must not wait for paging.";
  if (share < 0.05 || (full ?? 0) > 1) {
    return check(id, title, "unfit", `${finding}: the machine is short of memory and tasks stall on paging`, advice);
  }
  if (share < 0.2 || (some ?? 0) > 0.5) {
    return check(id, title, "warn", `${finding}: memory is tight`, advice);
  }
  return check(id, title, "ok", finding, "Nothing to do.");
}

const VM_NAMES =
  /KVM|QEMU|VMware|VirtualBox|Virtual Machine|Xen|HVM domU|Bochs|Amazon EC2|Google Compute Engine|OpenStack|Parallels|BHYVE|Cloud Hypervisor|Firecracker/i;

interface VmSigns {
  signs: string[];
  /** Whether the absence of signs means something (an x86 flags line, or a DMI name that was read). */
  conclusive: boolean;
}

function vmSigns(read: ReadText, cpuinfo: CpuInfo | null): VmSigns {
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

/** Consecutive rounds judged together by the shared-core check: one round alone is too noisy (an interrupt). */
const CONTENTION_WINDOW = 10;

/**
 * Is the core shared with a busy sibling thread? The contention probe's adds per cycle (independent chains over
 * the dependent chain, the figure the time step records per worker) over windows of consecutive rounds. On x86-64
 * (four ALUs) a window below CONTENDED_SHARE × X86_64_ALONE_ADDS_PER_CYCLE is a shared core: unfit when the whole
 * probe is (the sibling is busy throughout), warn when only some windows are (it comes and goes). Elsewhere there is
 * no absolute figure: windows that differ by more than the share warn, steady ones are unknown.
 */
function contentionCheck(_m: Machine, probe: ContentionProbe | null | undefined): EnvCheck {
  const id = "shared-core";
  const title = "Core shared with a busy sibling thread";
  const advice =
    "Another thread (on a VM: possibly another tenant's) runs on this core's sibling hyperthread and takes its issue slots: " +
    "the same code runs 10–40 % slower. The time step sets such workers aside (the record's contention block); " +
    "ask for dedicated host cores (no shared siblings), or measure when the host is quiet.";
  if (!probe) {
    return check(
      id,
      title,
      "unknown",
      "the contention probe could not run (no compiler, or no counter with a core-clock chain here)",
      "Check that gcc works (`ngcc-perf env` builds the probe with it).",
    );
  }
  const n = Math.min(probe.clockDeltas.length, probe.throughputDeltas.length);
  const windows: number[] = [];
  for (let at = 0; at + CONTENTION_WINDOW <= n; at += CONTENTION_WINDOW) {
    const f = addsPerCycle(
      { adds: probe.adds, deltas: probe.clockDeltas.slice(at, at + CONTENTION_WINDOW) },
      {
        adds: probe.throughputAdds,
        chains: probe.chains,
        deltas: probe.throughputDeltas.slice(at, at + CONTENTION_WINDOW),
      },
      { overhead: probe.overhead },
    );
    if (f !== null) windows.push(f);
  }
  const all = addsPerCycle(
    { adds: probe.adds, deltas: probe.clockDeltas },
    { adds: probe.throughputAdds, chains: probe.chains, deltas: probe.throughputDeltas },
    { overhead: probe.overhead },
  );
  if (all === null || windows.length === 0) {
    return check(
      id,
      title,
      "unknown",
      `the contention probe gave no figure (${n} rounds)`,
      "Run `ngcc-perf env --check` again.",
    );
  }
  const lo = Math.min(...windows);
  const hi = Math.max(...windows);
  const finding = (verdict: string) =>
    `${all.toFixed(2)} adds per cycle on ${probe.chains} independent chains over ${n} rounds ` +
    `(windows of ${CONTENTION_WINDOW}: ${lo.toFixed(2)}–${hi.toFixed(2)}; ${probe.arch}): ${verdict}`;
  if (probe.arch === "x86_64") {
    const threshold = CONTENDED_SHARE * X86_64_ALONE_ADDS_PER_CYCLE;
    const below = windows.filter((w) => w < threshold).length;
    if (all < threshold)
      return check(id, title, "unfit", finding(`below ${threshold.toFixed(2)}: the core is shared throughout`), advice);
    if (below > 0)
      return check(
        id,
        title,
        "warn",
        finding(`${below} of ${windows.length} windows below ${threshold.toFixed(2)}: a sibling thread comes and goes`),
        advice,
      );
    return check(
      id,
      title,
      "ok",
      finding(`at least ${threshold.toFixed(2)} throughout: no busy sibling thread seen`),
      "Nothing to do.",
    );
  }
  if (lo < CONTENDED_SHARE * hi)
    return check(
      id,
      title,
      "warn",
      finding(
        `windows differ by more than ${Math.round((1 - CONTENDED_SHARE) * 100)} %: a sibling thread comes and goes`,
      ),
      advice,
    );
  return check(
    id,
    title,
    "unknown",
    finding(
      "steady, but this architecture has no fixed figure for a core alone, so a sibling busy throughout cannot be told",
    ),
    "Compare with `lscpu` (Thread(s) per core) and the host's core assignment.",
  );
}

function hypervisorCheck(m: Machine, v: VmSigns): EnvCheck {
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

function stealCheck(m: Machine, sample: ProcessSample | null | undefined): EnvCheck {
  const id = "steal";
  const title = "Steal time";
  const now = cpuTimes(sample?.after.cpuStat ?? m.read("/proc/stat"));
  if (!now) return check(id, title, "unknown", "/proc/stat cannot be read", "Check the st column of `vmstat 1`.");
  const sinceBoot = now.total > 0 ? (100 * now.steal) / now.total : 0;
  const was = cpuTimes(sample?.before.cpuStat ?? null);
  const during = was && now.total > was.total ? (100 * (now.steal - was.steal)) / (now.total - was.total) : null;
  const finding =
    (during !== null ? `${during.toFixed(1)} % of CPU time stolen by the host over the sample, ` : "") +
    `${sinceBoot.toFixed(1)} % since boot (/proc/stat)`;
  const advice =
    "The host runs other work on this VM's CPUs: ask for dedicated (pinned) host cores, or measure when the host is quiet.";
  if (during !== null && during > 10) return check(id, title, "unfit", finding, advice);
  if ((during ?? 0) > 0.5 || sinceBoot > 1) return check(id, title, "warn", finding, advice);
  return check(id, title, "ok", finding, "Nothing to do.");
}

function tscCheck(m: Machine, counter: string): EnvCheck {
  const id = "tsc";
  const title = "TSC (rdtsc)";
  const ci = m.cpuinfo;
  if (ci === null) return check(id, title, "unknown", "/proc/cpuinfo cannot be read", "Nothing to do.");
  if (ci.x86 === false) {
    return check(
      id,
      title,
      "ok",
      "not x86: the generic timer (cntvct) counts at a constant rate by design",
      "Nothing to do; for core cycles use perf-cycles or a fixed clock.",
    );
  }
  if (ci.x86 === null || !ci.flags.has("tsc")) {
    return check(id, title, "unknown", "no TSC flags in /proc/cpuinfo", "Use `counter: clock_gettime` or perf-cycles.");
  }
  const constant = ci.flags.has("constant_tsc");
  const nonstop = ci.flags.has("nonstop_tsc");
  const flags = `constant_tsc ${constant ? "yes" : "no"}, nonstop_tsc ${nonstop ? "yes" : "no"}`;
  const uses = counter === "rdtsc" ? "rdtsc is the counter" : `the counter is ${counter}`;
  if (!constant) {
    return check(
      id,
      title,
      counter === "rdtsc" ? "unfit" : "warn",
      `${flags}: the TSC follows the core clock, so its ticks are neither time nor a constant rate (${uses})`,
      "Time with another counter: `counter: { kind: perf-cycles }` or `counter: { kind: clock_gettime }` in the campaign.",
    );
  }
  if (!nonstop) {
    return check(
      id,
      title,
      "warn",
      `${flags}: the TSC may stop in deep idle states; harmless while a CPU is busy timing, but the rate measurement can drift`,
      "Keep the measuring CPU out of deep idle states (`cpupower idle-set -D 0`), or time with perf-cycles.",
    );
  }
  return check(
    id,
    title,
    "ok",
    `${flags}: ticks at a constant reference rate (not core cycles; ${uses})`,
    "Nothing to do; remember that TSC ticks are not core cycles.",
  );
}

function clocksourceCheck(m: Machine): EnvCheck {
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

/** Every check, in the order the report prints them. Pure: the machine is seen only through `read` and `sample`. */
export function checkEnvironment(o: CheckOptions): EnvCheck[] {
  const read: ReadText = (path) => {
    try {
      return o.read(path);
    } catch {
      return null;
    }
  };
  const cpuinfo = cpuInfo(read);
  const signs = vmSigns(read, cpuinfo);
  const m: Machine = { read, cpus: onlineCpus(read), cpuinfo, vm: signs.signs.length > 0 };
  const counter =
    o.counter ??
    (perfUsable(m) ? "perf-cycles" : cpuinfo?.x86 === true ? "rdtsc" : cpuinfo?.x86 === false ? "cntvct" : "unknown");
  return [
    governorCheck(m),
    frequencyCheck(m),
    boostCheck(m),
    smtCheck(m),
    isolationCheck(m),
    aslrCheck(m),
    perfCheck(m),
    watchdogCheck(m),
    loadCheck(m),
    busyCheck(m, o.sample),
    memoryCheck(m),
    hypervisorCheck(m, signs),
    stealCheck(m, o.sample),
    contentionCheck(m, o.contention),
    tscCheck(m, counter),
    clocksourceCheck(m),
  ];
}

/** How many checks have each status. */
export function countStatuses(checks: EnvCheck[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { ok: 0, warn: 0, unfit: 0, unknown: 0 };
  for (const c of checks) counts[c.status]++;
  return counts;
}
