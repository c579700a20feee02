// ngcc-perf env --check: the readable report, and the built executable's exit codes (run `pnpm build` first).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EnvCheck } from "@ngcc-perf/runner";
import { describe, expect, it } from "vitest";
import { formatChecks, wrap } from "./commands/env/index.ts";

const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "bin.js");

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const checks: EnvCheck[] = [
  { id: "a", title: "Governor", status: "ok", finding: "performance on CPUs 0-3", advice: "Nothing to do." },
  {
    id: "b",
    title: "Turbo / boost",
    status: "warn",
    finding: "boost is on",
    advice: "Disable boost:\n`echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo`",
  },
  { id: "c", title: "Load average", status: "unfit", finding: "5.00 on 4 CPUs", advice: "Wait." },
  { id: "d", title: "NMI watchdog", status: "unknown", finding: "cannot be read", advice: "Look." },
];

describe("env --check report", () => {
  it("prints a status word per check, the advice under anything not OK, and a verdict", () => {
    expect(formatChecks(checks).split("\n")).toEqual([
      "Is this machine fit to publish timings?",
      "",
      "OK     Governor       performance on CPUs 0-3",
      "WARN   Turbo / boost  boost is on",
      "                      → Disable boost:",
      "                        `echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo`",
      "UNFIT  Load average   5.00 on 4 CPUs",
      "                      → Wait.",
      "?      NMI watchdog   cannot be read",
      "                      → Look.",
      "",
      "1 ok, 1 warn, 1 unfit, 1 unknown: unfit to publish: fix the UNFIT items, and the WARN ones where you can, before timing.",
    ]);
    expect(formatChecks(checks.slice(0, 1)).split("\n").at(-1)).toBe(
      "1 ok, 0 warn, 0 unfit, 0 unknown: fit to publish.",
    );
  });

  it("wraps long lines at word boundaries and never inside a command", () => {
    const lines = wrap("run `sudo cpupower frequency-set --governor performance` now please", 30, "> ", "  ");
    expect(lines).toEqual(["> run", "  `sudo cpupower frequency-set --governor performance`", "  now please"]);
  });
});

describe("ngcc-perf env --check (built)", () => {
  it("prints the checks as JSON and, under --strict, exits 1 exactly when one is unfit", () => {
    const r = cli("env", "--check", "--strict", "--json");
    const list = JSON.parse(r.stdout) as EnvCheck[];
    expect(list.length).toBeGreaterThan(10);
    for (const c of list) {
      expect(Object.keys(c).sort()).toEqual(["advice", "finding", "id", "status", "title"]);
      expect(["ok", "warn", "unfit", "unknown"]).toContain(c.status);
    }
    expect(r.code).toBe(list.some((c) => c.status === "unfit") ? 1 : 0);
    // The shared-core item ran the contention probe on this machine (built with the machine's gcc).
    const shared = list.find((c) => c.id === "shared-core");
    expect(shared?.finding).toMatch(/^\d+\.\d\d adds per cycle on 4 independent chains over 100 rounds/);
  });

  it("exits 0 without --strict, whatever it finds", () => {
    const r = cli("env", "--check");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Is this machine fit to publish timings\?\n/);
    expect(r.stdout).toMatch(/^(OK|WARN|UNFIT|\?) +Load average/m);
  });

  it("takes the counter it is told, and refuses an unknown one (exit 2)", () => {
    expect(cli("env", "--check", "--json", "--counter", "clock_gettime").code).toBe(0);
    const r = cli("env", "--check", "--counter", "sundial");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--counter sundial");
  });

  it("refuses --strict without --check (exit 2)", () => {
    const r = cli("env", "--strict");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--strict goes with --check");
  });
});
