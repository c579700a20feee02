// Cost of reading API figures with printparams (only api.h is compiled) against a full instance build and the
// timing driver's `info` (not a test; run with `pnpm exec tsx bench/sizes-api.ts`).
//
// For each scheme (default ml-kem-768, falcon-512, sphincs-sha2-128f-simple, mceliece348864): printparams cold
// (empty build folder) and warm (cached build, one run), then buildInstance + `ngcc-driver info` cold. Prints the
// wall times and the ratio full / printparams, and checks that both read the same sizes, so a fast wrong reading
// cannot pass. Then the cold printparams time for all 35 PQClean schemes (what sizes-pqclean.test.ts pays).
// Options: --schemes a,b,c; --skip-all (skip the 35-scheme pass); --keep (keep the build folders).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildInstance,
  type DriverInfo,
  driverRun,
  loadCampaign,
  resolveCampaign,
  toolchain,
} from "../packages/runner/src/index.ts";
import { readApiFigures } from "../packages/sizes/src/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const schemes = (option("--schemes") ?? "ml-kem-768,falcon-512,sphincs-sha2-128f-simple,mceliece348864").split(",");
const keep = args.includes("--keep");
const work = mkdtempSync(join(tmpdir(), "ngcc-bench-sizes-"));

function campaignFor(ids: readonly string[]) {
  const file = join(work, `c-${ids.length}.yaml`);
  const text = [
    "name: bench-sizes",
    "system: bench",
    "algorithms:",
    ...ids.map((id) => `  - { id: ${id}, source: { pqclean: ${id} } }`),
  ].join("\n");
  writeFileSync(file, text);
  return resolveCampaign(loadCampaign(file));
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const fmt = (x: number) => `${x.toFixed(0).padStart(7)} ms`;

const campaign = campaignFor(schemes);
const tc = await toolchain(campaign.context);
const timeouts = { buildTimeoutMs: 600_000, runTimeoutMs: 30_000 };
console.log(`compiler: ${tc.version}`);
console.log(
  `${"scheme".padEnd(28)} ${"printparams cold".padStart(16)} ${"warm".padStart(10)} ${"build+info".padStart(12)}  ratio`,
);
for (const alg of campaign.algorithms) {
  const spec = alg.instances[0];
  if (!spec) continue;
  let t0 = process.hrtime.bigint();
  const cold = await readApiFigures(spec, tc, join(work, "pp", alg.id), timeouts);
  const tCold = ms(t0);
  t0 = process.hrtime.bigint();
  const warm = await readApiFigures(spec, tc, join(work, "pp", alg.id), timeouts);
  const tWarm = ms(t0);
  t0 = process.hrtime.bigint();
  const profile = campaign.profiles[campaign.defaultProfile];
  if (!profile) throw new Error("no profile");
  const built = await buildInstance(spec, profile, tc, join(work, "full", alg.id), 600_000);
  const info = (
    await driverRun<DriverInfo>(campaign.context, built.driver, ["info"], 30_000, `${alg.id}: info`, "driver-info")
  ).value;
  const tFull = ms(t0);
  const same = JSON.stringify(cold.figures.sizes) === JSON.stringify(info.sizes) && warm.cached;
  console.log(
    `${alg.id.padEnd(28)} ${fmt(tCold).padStart(16)} ${fmt(tWarm).padStart(10)} ${fmt(tFull).padStart(12)}  ${(tFull / tCold).toFixed(1)}×${same ? "" : "  MISMATCH"}`,
  );
  if (!same) {
    console.error(`  printparams ${JSON.stringify(cold.figures.sizes)} vs info ${JSON.stringify(info.sizes)}`);
    process.exitCode = 1;
  }
}

if (!args.includes("--skip-all")) {
  const meta = JSON.parse(readFileSync(join(root, "fixtures/reference/pqclean-meta-lengths.json"), "utf8"));
  const all = Object.keys(meta)
    .filter((k) => !k.startsWith("_"))
    .map((k) => k.split("/")[1] as string);
  const c = campaignFor(all);
  const t0 = process.hrtime.bigint();
  for (const alg of c.algorithms) {
    for (const spec of alg.instances) await readApiFigures(spec, tc, join(work, "all", alg.id), timeouts);
  }
  const t = ms(t0);
  console.log(
    `all ${all.length} PQClean schemes, printparams cold: ${t.toFixed(0)} ms (${(t / all.length).toFixed(0)} ms per scheme)`,
  );
}

if (keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
