// The counter probe (native/probe, with the driver's counters and the shared helpers of native/common): which
// counters this machine offers, their rate and read overhead, without building any instance. Built once per
// compiler and sources into a cache folder.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commonSources, toolchain } from "./build.ts";
import { type DriverCounter, driverRun } from "./driver.ts";
import { InputError } from "./errors.ts";
import { nativeDir } from "./native.ts";
import { runProcess, tail } from "./proc.ts";
import { HOST_CONTEXT, type RunContext } from "./run-context.ts";

export interface ProbeResult {
  available: string[];
  default: string;
  counter: DriverCounter;
}

export async function buildProbe(
  cc: string,
  context: RunContext,
  cacheDir = join(tmpdir(), "ngcc-perf-cache"),
): Promise<string> {
  const tc = await toolchain({ ...context, target: { ...context.target, cc } });
  const nd = nativeDir();
  const sources = [join(nd, "probe", "ngcc_probe.c"), join(nd, "driver", "ngcc_counter.c"), ...commonSources()];
  const headers = [
    join(nd, "driver", "ngcc_counter.h"),
    join(nd, "driver", "ngcc_driver.h"),
    join(nd, "common", "ngcc_common.h"),
  ];
  const h = createHash("sha256").update(tc.version);
  for (const f of [...sources, ...headers]) h.update(readFileSync(f));
  const exe = join(cacheDir, `ngcc-probe-${h.digest("hex").slice(0, 16)}`);
  if (existsSync(exe)) return exe;
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${exe}.${process.pid}.tmp`;
  const r = await runProcess(
    [cc, "-std=c99", "-O2", "-D_GNU_SOURCE", "-I", join(nd, "driver"), ...sources, "-o", tmp, "-lm"],
    { timeoutMs: 120_000, writable: [cacheDir], context },
  );
  if (r.spawnError) throw new InputError(`cannot run the compiler ${cc}: ${r.spawnError}`);
  if (r.exitCode !== 0) throw new Error(`building the counter probe failed:\n${tail(r.stderr)}`);
  renameSync(tmp, exe);
  return exe;
}

/** The counters the machine offers (the probe built with `cc`); outside a campaign, the host's run context. */
export async function probeCounter(
  cc: string,
  context: RunContext = HOST_CONTEXT,
  kind?: string,
  fixedClockHz?: number,
): Promise<ProbeResult> {
  const exe = await buildProbe(cc, context);
  const args = [
    ...(kind ? ["--counter", kind] : []),
    ...(fixedClockHz ? ["--fixed-clock-hz", String(fixedClockHz)] : []),
  ];
  try {
    return (await driverRun<ProbeResult>(context, exe, args, 60_000, "counter probe", "driver-probe")).value;
  } catch (err) {
    throw new InputError((err as Error).message);
  }
}

/** The counter probe's `--contention ROUNDS` rounds: core-clock and contention probe deltas, 5 ms apart. */
export interface ContentionProbe {
  /** Adds of the dependent (core-clock) chain. */
  adds: number;
  /** Adds of the contention probe, over all its chains. */
  throughputAdds: number;
  chains: number;
  clockDeltas: number[];
  throughputDeltas: number[];
  /** The counter's read overhead, in its unit. */
  overhead: number;
  /** The architecture the probe ran on (uname -m style). */
  arch: string;
}

/** Runs the counter probe's contention rounds on this machine; null when its counter has no chain. */
export async function probeContention(cc: string, rounds: number): Promise<ContentionProbe | null> {
  const exe = await buildProbe(cc, HOST_CONTEXT);
  const out = (
    await driverRun<ProbeResult & { contention: Omit<ContentionProbe, "overhead" | "arch"> | null }>(
      HOST_CONTEXT,
      exe,
      ["--contention", String(rounds)],
      60_000,
      "contention probe",
      "driver-probe",
    )
  ).value;
  const c = out.contention;
  if (c === null || c === undefined) return null;
  const ok = (v: unknown) => Array.isArray(v) && v.length === rounds && v.every((x) => typeof x === "number");
  if (!ok(c.clockDeltas) || !ok(c.throughputDeltas) || !(c.adds > 0) || !(c.throughputAdds > 0) || !(c.chains > 0))
    throw new Error("contention probe: unexpected output");
  const arch = process.arch === "x64" ? "x86_64" : process.arch === "arm64" ? "aarch64" : process.arch;
  return { ...c, overhead: out.counter.overhead ?? 0, arch };
}
