// Wrapper overhead of the hash/DRNG profiler (not a test; run with `pnpm exec tsx bench/hashprof-overhead.ts`).
//
// PQClean ML-KEM-768 keygen, enc and dec: the mean time per operation of the profiling build (every fips202/sha2
// function and PQCLEAN_randombytes behind a link-time wrapper) over that of the timing build, both built exactly
// as `ngcc-perf profile` builds them (guide profile, -O3 -fomit-frame-pointer; in both the instance's objects,
// compiled without -fPIC, are linked straight into the driver executable, so the ratio is the wrappers' cost
// alone). Rounds alternate the two drivers so that drift of the machine affects both. Figures: best/best = the
// fastest trial's mean time per operation of the profiled build over that of the timing build, over all rounds
// (the fastest trials resist interference on a shared machine), and the median over rounds of the same ratio per
// round. Aim: ≤ 1.05.
// Also prints the hash group's share and the calls per operation from the last profiled round.
//
// Options: --rounds N (default 5), --target-ms T (trial length, default 20), --keep (keep the build folder).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildProfiled, type DriverProfile, groupsFor } from "../packages/hashprof/src/index.ts";
import { buildInstance, driverRun, loadCampaign, resolveCampaign, toolchain } from "../packages/runner/src/index.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const rounds = Number(option("--rounds") ?? "5");
const targetMs = Number(option("--target-ms") ?? "20");
const keep = args.includes("--keep");

const root = new URL("../", import.meta.url).pathname;
const campaign = resolveCampaign(loadCampaign(join(root, "fixtures/campaigns/pqclean.yaml")));
const spec = campaign.algorithms.find((a) => a.id === "ml-kem-768")?.instances[0];
if (!spec) throw new Error("ml-kem-768 is not in fixtures/campaigns/pqclean.yaml");
const profile = campaign.profiles[campaign.defaultProfile];
if (!profile) throw new Error("no default profile");
const work = mkdtempSync(join(tmpdir(), "ngcc-bench-hashprof-"));
const tc = await toolchain(campaign.context);
const timing = await buildInstance(spec, profile, tc, work, 300_000);
const profiled = await buildProfiled(spec, profile, tc, groupsFor(campaign, spec), join(work, "profile"), 300_000);
console.log(`ML-KEM-768, ${profile.name} (${profile.cflags.join(" ")}), ${tc.version}`);
console.log(`linkage: timing build ${timing.linkage}, profiling build ${profiled.linkage}`);
console.log(
  `wrapped: ${profiled.timing.interception.wrap.length} symbols; ${rounds} rounds of 5 trials × ${targetMs} ms\n`,
);

interface Out {
  trials: Array<{ iterations: number; ns: number }>;
  profile?: DriverProfile;
}
const best = (o: Out) => Math.min(...o.trials.map((t) => t.ns / t.iterations));
const timeArgs = (op: string) => [
  "time",
  "--op",
  op,
  "--counter",
  "clock_gettime",
  "--trials",
  "5",
  "--target-ns",
  String(targetMs * 1e6),
  "--warmup-ns",
  String(targetMs * 1e6),
];

console.log(
  "op       unprofiled   profiled   best/best  ratio per round (median; each round)   hash share   calls per operation",
);
for (const op of ["keygen", "enc", "dec"]) {
  const ratios: number[] = [];
  let u = Number.POSITIVE_INFINITY;
  let p = Number.POSITIVE_INFINITY;
  let last: DriverProfile | undefined;
  let lastIterations = 1;
  for (let r = 0; r < rounds; r++) {
    const a = (
      await driverRun<Out>(campaign.context, timing.driver, timeArgs(op), 120_000, `${op} unprofiled`, "driver-time")
    ).value;
    const b = (
      await driverRun<Out>(campaign.context, profiled.driver, timeArgs(op), 120_000, `${op} profiled`, "driver-time")
    ).value;
    ratios.push(best(b) / best(a));
    u = Math.min(u, best(a));
    p = Math.min(p, best(b));
    last = b.profile;
    lastIterations = b.trials.reduce((n, t) => n + t.iterations, 0);
  }
  ratios.sort((x, y) => x - y);
  const median = ratios[Math.floor(ratios.length / 2)] ?? Number.NaN;
  const hash = last?.groups.find((g) => g.name === "hash");
  const share = last && hash ? hash.ticks / last.totalTicks : Number.NaN;
  const callText = last
    ? last.symbols
        .filter((s) => s.outer > 0)
        .map((s) => `${s.name} ${+(s.outer / lastIterations).toFixed(2)}`)
        .join(", ")
    : "";
  console.log(
    `${op.padEnd(8)} ${(u / 1000).toFixed(1).padStart(7)} µs ${(p / 1000).toFixed(1).padStart(7)} µs   ${(p / u).toFixed(3)}      ${median.toFixed(3)} (${ratios.map((x) => x.toFixed(3)).join(" ")})   ${(100 * share).toFixed(1)}%   ${callText}`,
  );
}
if (keep) console.log(`\nbuild folder kept: ${work}`);
else rmSync(work, { recursive: true, force: true });
