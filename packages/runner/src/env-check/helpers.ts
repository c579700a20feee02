// Reading the machine and the text helpers the checks share. Reading never throws: a file that cannot be read is null.
import { readFileSync } from "node:fs";
import { CPU, type CpuInfo, type ReadText } from "./types.ts";

/** The real machine: file contents, null on any error. */
export const readSystemFile: ReadText = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

export function trimmed(read: ReadText, path: string): string | null {
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

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function cpusLabel(cpus: number[]): string {
  return `${cpus.length === 1 ? "CPU" : "CPUs"} ${formatCpuList(cpus)}`;
}

/** The online CPUs: /sys/devices/system/cpu/online, else the cpuN lines of /proc/stat, else cpuinfo. */
export function onlineCpus(read: ReadText): number[] | null {
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

export function cpuInfo(read: ReadText): CpuInfo | null {
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
export function khz(v: number): string {
  return v >= 1_000_000 ? `${(v / 1_000_000).toFixed(2)} GHz` : `${Math.round(v / 1000)} MHz`;
}

export function intFile(read: ReadText, path: string): number | null {
  const t = trimmed(read, path);
  return t !== null && /^-?\d+$/.test(t) ? Number(t) : null;
}

/** Groups CPUs by a per-CPU value: [["performance", [0, 1]], ["powersave", [2, 3]]]. */
export function byValue(values: Array<[number, string]>): Array<[string, number[]]> {
  const groups = new Map<string, number[]>();
  for (const [cpu, v] of values) groups.set(v, [...(groups.get(v) ?? []), cpu]);
  return [...groups.entries()];
}
