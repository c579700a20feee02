// Progress on stderr: a live line on a terminal, plain log lines otherwise (CI, files).
import type { ProgressEvent } from "@ngcc-perf/runner";
import { visibleLines, visibleText } from "@ngcc-perf/schema";
import type { Io } from "./io.ts";

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
    const line = visibleText(
      `${e.step} [${e.done}/${total}] ${e.status.padEnd(7)} ${what} ${e.operation} [${e.profile}]${eta(e.done)}`,
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
