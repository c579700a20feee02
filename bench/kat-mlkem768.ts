// Time to generate the 100-entry NIST KAT of PQClean ML-KEM-768 with the KAT generator (not a test; run with
// `pnpm exec tsx bench/kat-mlkem768.ts`). Target: ≤ 2 s per generation here.
//
// Builds the generator once with the pqclean campaign's guide profile (-O3 -fomit-frame-pointer), then runs it
// --runs times (default 5) writing every form (.rsp, single, all) and prints each wall time, the median and
// the best, and checks the output against PQClean's and liboqs's hashes so that a fast wrong run cannot pass.
// Options: --runs N, --profile-flags "-O2" (override the build flags), --keep (keep the build directory).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildKatgen, runKatgen } from "../packages/kat/src/index.ts";
import { loadCampaign, resolveCampaign, sha256, toolchain } from "../packages/runner/src/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Number(option("--runs") ?? "5");
const keep = args.includes("--keep");

const campaign = resolveCampaign(loadCampaign(join(root, "fixtures/campaigns/pqclean.yaml")));
const spec = campaign.algorithms.find((a) => a.id === "ml-kem-768")?.instances.at(0);
if (!spec) throw new Error("ml-kem-768 is not in fixtures/campaigns/pqclean.yaml");
const base = campaign.profiles[campaign.defaultProfile];
if (!base) throw new Error("no default profile");
const flags = option("--profile-flags");
const profile = flags ? { ...base, cflags: flags.split(/\s+/).filter(Boolean) } : base;
const ref = JSON.parse(readFileSync(join(root, "fixtures/reference/liboqs-kat-sha256.json"), "utf8")) as Record<
  string,
  { single: string; all: string }
>;
const expected = ref["crypto_kem/ml-kem-768"];
if (!expected) throw new Error("no reference hashes for ml-kem-768");

const work = mkdtempSync(join(tmpdir(), "ngcc-bench-kat-"));
try {
  const tc = await toolchain(campaign.context);
  const t0 = performance.now();
  const built = await buildKatgen(spec, profile, tc, work, 300_000);
  console.log(`build: ${((performance.now() - t0) / 1000).toFixed(2)} s (${profile.cflags.join(" ")}, ${tc.version})`);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await runKatgen(built.exe, {
      entries: 100,
      rng: "nist",
      algname: spec.instance,
      outDir: join(work, "out"),
      timeoutMs: 120_000,
      context: campaign.context,
    });
    if (r.result.exitCode !== 0) throw new Error(`generator failed: ${r.result.stderr}`);
    const single = sha256(r.outputs.single ?? "");
    const all = sha256(r.outputs.all ?? "");
    if (single !== expected.single || all !== expected.all) throw new Error("output does not match liboqs's hashes");
    times.push(r.result.durationMs);
    console.log(
      `run ${i + 1}: ${(r.result.durationMs / 1000).toFixed(3)} s, ${r.outputs.rsp?.length ?? 0} bytes of .rsp`,
    );
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  console.log(
    `ML-KEM-768, 100 entries (.rsp + single + all): median ${(median / 1000).toFixed(3)} s, best ${((sorted[0] ?? Number.NaN) / 1000).toFixed(3)} s; target ≤ 2 s → ${median <= 2000 ? "met" : "NOT met"} (${(2000 / median).toFixed(1)}× headroom)`,
  );
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
