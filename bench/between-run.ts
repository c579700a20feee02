// Where the between-run component of a per-call figure comes from (issue 26): does a run's figure move with the
// physical pages its executable's code landed in? Every A/A run of bench/aa-coverage.ts builds into a fresh store,
// so its workers all map one new file, whose page-cache pages are the same for every worker of the run and new
// for the next run; the workers of one run cannot sample that. This bench runs the same built ngcc-driver as R
// "runs" two ways, alternating: shared (one fresh copy of the executable per run, all W workers on it, as a run of
// ngcc-perf does) and fresh (a fresh copy per worker), and prints, per way, the spread of the workers within a run
// and of the runs' means. If the placement is the between-run component, the fresh workers' spread within a run
// takes it in (about √(within² + between²) of the shared way) and the fresh runs' means vary less.
//
//   pnpm exec tsx bench/between-run.ts --driver <store>/build/…/ngcc-driver [--runs 12] [--workers 6] [--op keygen]
//
// A worker is `ngcc-driver sample --op OP --sample-ns 50000000` pinned to the last CPU; its figure is the median
// per call in estimated core cycles (the driver's clock probe: adds ÷ the chain's median delta × the counter rate).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";

const option = (name: string, d?: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] as string) : d;
};
const driver = option("--driver");
if (!driver) {
  console.error("between-run: --driver PATH (an ngcc-driver of a built store) is required");
  process.exit(2);
}
const runs = Number(option("--runs", "12"));
const workers = Number(option("--workers", "6"));
const op = option("--op", "keygen") as string;
const pin = String(cpus().length - 1);
const tmp = mkdtempSync(join(tmpdir(), "ngcc-between-run-"));

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};

let copies = 0;
/**
 * A fresh copy of the executable: a new file, so new page-cache pages for its code. Copies are kept to the end,
 * so that a later copy does not take the pages an earlier one freed.
 */
function freshCopy(): string {
  const to = join(tmp, `driver-${++copies}`);
  copyFileSync(driver as string, to);
  return to;
}

/** One worker's median per call in estimated core cycles. */
function worker(exe: string, seed: number): number {
  const args = ["sample", "--op", op, "--counter", "rdtsc", "--sample-ns", "50000000", "--seed", String(seed)];
  const r = spawnSync(exe, [...args, "--pin", pin], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${exe} ${args.join(" ")}: exit ${r.status}: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as {
    batch: number;
    samples: number[];
    counter: { rateHz: number; overhead: number };
    clockChain: { adds: number; deltas: number[] };
  };
  const hzPerTick = out.clockChain.adds / (median(out.clockChain.deltas) - out.counter.overhead);
  return (median(out.samples) / out.batch) * hzPerTick;
}

const figures: Record<"shared" | "fresh", number[][]> = { shared: [], fresh: [] };
for (let k = 0; k < runs; k++) {
  for (const way of k % 2 ? (["fresh", "shared"] as const) : (["shared", "fresh"] as const)) {
    const one = way === "shared" ? freshCopy() : null;
    const run = Array.from({ length: workers }, (_, i) => worker(one ?? freshCopy(), i + 1));
    figures[way].push(run);
  }
  process.stderr.write(`run ${k + 1}/${runs}\n`);
}

console.log(`between-run: ${runs} runs × ${workers} workers of ${op}, ${driver}`);
console.log("way     within-run sd (median of runs)  sd of the runs' means  runs' means (min–max)");
for (const way of ["shared", "fresh"] as const) {
  const runsOf = figures[way];
  const means = runsOf.map(mean);
  const grand = mean(means);
  const within = median(runsOf.map(sd)) / grand;
  const between = sd(means) / grand;
  const lo = Math.min(...means);
  const hi = Math.max(...means);
  console.log(
    `${way.padEnd(7)} ${`${(within * 100).toFixed(2)} %`.padEnd(31)} ${`${(between * 100).toFixed(2)} %`.padEnd(22)} ${lo.toFixed(0)}–${hi.toFixed(0)} cycles`,
  );
}
rmSync(tmp, { recursive: true, force: true });
