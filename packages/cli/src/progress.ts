// Progress on stderr: a live line on a terminal, plain log lines otherwise (CI, files).
import type { ProgressEvent } from "@ngcc-perf/runner";
import { visibleLines, visibleText } from "@ngcc-perf/schema";
import type { Io } from "./io.ts";

/** `41.2 µs`: three significant digits in the unit that puts the number in [1, 1000) (as the pages print times). */
export function timeText(ns: number): string {
  if (!Number.isFinite(ns) || ns <= 0) return `${ns} ns`;
  const units = ["ns", "µs", "ms", "s"];
  let v = ns;
  let i = 0;
  while (i < units.length - 1 && Number(v.toPrecision(3)) >= 1000) {
    v /= 1000;
    i++;
  }
  return `${Number(v.toPrecision(3))} ${units[i]}`;
}

/** `±0.6 %`: a relative half-width, one decimal (two below 0.1 %). */
function halfWidthText(fraction: number): string {
  const pct = fraction * 100;
  return `±${pct < 0.1 ? pct.toFixed(2) : pct.toFixed(1)} %`;
}

/**
 * The figure a job's record publishes, for its progress line: a timing's central figure per call with the
 * half-width of the interval the page shows (`41.2 µs ±0.6 %`, `mean 1.2 ms ±0.9 %`; the estimated cycles' when the
 * precision target was on them, marked `cycles`); a timing of the trials method its mean; an instruction count's
 * instructions per call; a memory record's stack and heap peak; a code-size record's text and data bytes; a
 * constant-time record's verdict (with its open
 * findings). null for other records, failures and steps.
 */
export function figureOf(record: unknown): string | null {
  const r = record as {
    kind?: string;
    status?: string;
    central?: {
      statistic: string;
      valueNs: number;
      relativeHalfWidth: number;
      cycles?: { relativeHalfWidth: number };
    };
    sampling?: { target?: { figure?: string } };
    aggregates?: { meanNs: number };
    instructionsPerCall?: number;
    stackBytes?: number;
    heapPeakBytes?: number;
    sections?: { textBytes: number; rodataBytes: number; dataBytes: number; bssBytes: number };
    verdict?: string;
    levels?: Array<{ findings?: Array<{ status?: string }> }>;
    statistical?: { status?: string; maxT?: number; measurements?: number };
  } | null;
  if (r?.status !== "ok") return null;
  if (r.kind === "timing") {
    const c = r.central;
    if (c) {
      const value = `${c.statistic === "mean" ? "mean " : ""}${timeText(c.valueNs)}`;
      const onCycles = r.sampling?.target?.figure === "cycles" && c.cycles;
      const half = onCycles && c.cycles ? c.cycles.relativeHalfWidth : c.relativeHalfWidth;
      return `${value} ${halfWidthText(half)}${onCycles ? " (cycles)" : ""}`;
    }
    return r.aggregates ? `mean ${timeText(r.aggregates.meanNs)}` : null;
  }
  if (r.kind === "instructions" && typeof r.instructionsPerCall === "number")
    return `${Math.round(r.instructionsPerCall)} instructions`;
  if (r.kind === "memory" && (r.stackBytes !== undefined || r.heapPeakBytes !== undefined))
    return [
      ...(r.stackBytes !== undefined ? [`stack ${r.stackBytes} B`] : []),
      ...(r.heapPeakBytes !== undefined ? [`heap ${r.heapPeakBytes} B`] : []),
    ].join(", ");
  if (r.kind === "code-size" && r.sections) {
    const s = r.sections;
    return `text ${s.textBytes} B, data ${s.rodataBytes + s.dataBytes + s.bssBytes} B`;
  }
  if (r.kind === "constant-time" && r.verdict) {
    const open = (r.levels ?? []).flatMap((l) => l.findings ?? []).filter((f) => f.status === "open").length;
    const st = r.statistical;
    const timing =
      st && st.status !== "not run" && st.maxT !== undefined
        ? `; statistical test: ${st.status === "leak" ? "LEAK" : st.status} (|t| ${st.maxT.toFixed(1)} at ${st.measurements} measurements)`
        : "";
    return r.verdict === "leaks found"
      ? `LEAKS FOUND (${open} open finding(s) over the levels${timing})`
      : `${r.verdict}${timing ? ` (${timing.slice(2)})` : ""}`;
  }
  return null;
}

export function progressPrinter(io: Io, stream: NodeJS.WriteStream = process.stderr) {
  const live = Boolean(stream.isTTY) && !process.env.CI;
  let started = Date.now();
  let step = "";
  let total = 0;
  let failures = 0;
  const noted = new Set<string>();
  const eta = (done: number) => {
    if (done === 0 || total === 0) return "";
    const per = (Date.now() - started) / done;
    const s = Math.round((per * (total - done)) / 1000);
    return ` ETA ${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  };
  return (e: ProgressEvent) => {
    if (e.type === "plan") {
      if (e.step !== step) {
        step = e.step;
        total = 0;
        failures = 0;
        started = Date.now();
      }
      if (total === 0) io.err(`${e.step}: ${e.total} job(s) in ${e.units} unit(s)`);
      total = e.total;
      return;
    }
    if (e.type === "note") {
      // Each note once per run, whichever step builds first (build, time …).
      for (const n of e.notes.map((x) => visibleText(`${e.algorithmId}/${e.instance}: ${x}`))) {
        if (noted.has(n)) continue;
        noted.add(n);
        if (live) stream.write(`\r\x1b[2K${n}\n`);
        else io.err(n);
      }
      return;
    }
    if (e.type === "build") {
      if (!live) io.err(`${e.step}: build ${e.algorithmId}/${e.instance} [${e.profile}]${e.cached ? " (cached)" : ""}`);
      return;
    }
    if (e.status === "failed") failures++;
    const what = e.instance ? `${e.algorithmId}/${e.instance}` : e.algorithmId;
    // Names and failure messages come from submissions: shown through visibleText (no bidi or control characters).
    const figure = e.record === undefined ? null : figureOf(e.record);
    const line = visibleText(
      `${e.step} [${e.done}/${total}] ${e.status.padEnd(7)} ${what} ${e.operation} [${e.profile}]${figure ? ` ${figure}` : ""}${eta(e.done)}`,
    );
    const message = e.message ? visibleLines(e.message) : "";
    if (live) {
      stream.write(`\r\x1b[2K${line}${failures ? ` — ${failures} failed` : ""}`);
      if (e.status === "failed" && message) stream.write(`\n  ${message.split("\n")[0]}\n`);
      if (e.done === total) stream.write("\n");
    } else {
      io.err(line);
      if (e.status === "failed" && message) io.err(`  ${message.split("\n").slice(0, 6).join("\n  ")}`);
    }
  };
}
