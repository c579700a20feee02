// What starting one sandboxed process costs, and what of it the pids cgroup and the writable-folder watch add
// (not a test; run with `pnpm exec tsx bench/sandbox-start.ts [--runs N]`).
//
// Starts `true` N times (default 40) in each of three setups, interleaved round by round so that load on the
// machine falls on all alike: unconfined; the sandbox without its process-limit cgroup and folder watch
// (processes: null, writableBytes: null — bubblewrap, the seccomp filter, prlimit); the full sandbox (both on,
// a writable folder of 200 files watched). Prints the median wall time per start of each and the ratios.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pidsCgroupRoot } from "../packages/runner/src/cgroup.ts";
import { runProcess } from "../packages/runner/src/proc.ts";
import { HOST_CONTEXT } from "../packages/runner/src/run-context.ts";
import type { SandboxSettings } from "../packages/runner/src/sandbox.ts";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] ?? "40") || 40;
const work = mkdtempSync(join(tmpdir(), "ngcc-bench-sandbox-"));
mkdirSync(join(work, "job"));
for (let i = 0; i < 200; i++) writeFileSync(join(work, "job", `f${i}.o`), "x".repeat(1000));
const base = HOST_CONTEXT.sandbox;
const setups: Record<string, SandboxSettings> = {
  unconfined: { ...base, enabled: false },
  "sandbox, no cgroup or watch": { ...base, limits: { ...base.limits, processes: null, writableBytes: null } },
  "sandbox, cgroup only": { ...base, limits: { ...base.limits, writableBytes: null } },
  "sandbox, watch only": { ...base, limits: { ...base.limits, processes: null } },
  "sandbox, cgroup and watch": base,
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(setups).map((k) => [k, []]));
for (let round = 0; round < runs; round++) {
  for (const [name, s] of Object.entries(setups)) {
    const t0 = process.hrtime.bigint();
    const r = await runProcess(["true"], {
      timeoutMs: 30_000,
      cwd: join(work, "job"),
      context: { ...HOST_CONTEXT, sandbox: s },
    });
    if (r.exitCode !== 0) throw new Error(`${name}: true exited with ${r.exitCode}: ${r.stderr}`);
    times[name]?.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
rmSync(work, { recursive: true, force: true });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
console.log(`pids cgroup available: ${pidsCgroupRoot() ?? "no"}; ${runs} starts of \`true\` each, interleaved`);
for (const [k, v] of Object.entries(m)) console.log(`${k.padEnd(30)} median ${v.toFixed(2)} ms`);
const full = m["sandbox, cgroup and watch"] ?? Number.NaN;
const bare = m["sandbox, no cgroup or watch"] ?? Number.NaN;
console.log(`full sandbox / sandbox without cgroup and watch: ${(full / bare).toFixed(3)}`);
console.log(`full sandbox / unconfined: ${(full / (m.unconfined ?? Number.NaN)).toFixed(2)}`);
