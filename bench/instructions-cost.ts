// What the instructions step costs per instance, and whether its counts repeat (not a test; run with
// `pnpm exec tsx bench/instructions-cost.ts`). Target: counts identical in every run (spread exactly 0).
//
// Runs the instructions step (valgrind's callgrind, docs/methodology.md) --runs times (default 3) over a campaign
// (default fixtures/campaigns/pqclean.yaml, --only ml-kem-512 and ml-kem-768), each run into a fresh store, the
// timing build made first and not counted; prints per instance the wall time of the step (linking the counter and
// every operation under valgrind) and per operation the instructions per call of every run.
// Options: --campaign FILE, --only GLOB (repeatable), --runs N, --calls N.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCampaign, instructionsCampaign, loadCampaign, resolveCampaign } from "../packages/runner/src/index.ts";
import { recordPath } from "../packages/schema/src/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = args.flatMap((a, i) => (args[i - 1] === "--only" ? [a] : []));
const runs = Number(option("--runs") ?? "3");
const campaign = resolveCampaign(loadCampaign(option("--campaign") ?? join(root, "fixtures/campaigns/pqclean.yaml")));
const calls = option("--calls");
if (calls) campaign.config.instructions = { ...campaign.config.instructions, calls: Number(calls) };
const selected = only.length ? only : ["ml-kem-512", "ml-kem-768"];

const counts = new Map<string, number[]>();
const seconds = new Map<string, number[]>();
for (let run = 1; run <= runs; run++) {
  const out = mkdtempSync(join(tmpdir(), "ngcc-bench-icount-"));
  try {
    await buildCampaign(campaign, { out, only: selected });
    const started = new Map<string, number>();
    let last = Date.now();
    await instructionsCampaign(campaign, {
      out,
      only: selected,
      asked: true,
      onProgress: (e) => {
        if (e.type !== "job" && e.type !== "build") return;
        const unit = `${e.algorithmId}/${e.instance} [${e.profile}]`;
        if (!started.has(unit)) started.set(unit, last);
        if (e.type === "job") {
          last = Date.now();
          const key = { system: campaign.system, algorithmId: e.algorithmId, instance: e.instance };
          const file = recordPath(out, {
            kind: "instructions",
            key: { ...key, buildProfile: e.profile, operation: e.operation },
          });
          const r = JSON.parse(readFileSync(file, "utf8")) as { instructionsPerCall?: number };
          const k = `${unit} ${e.operation}`;
          counts.set(k, [...(counts.get(k) ?? []), r.instructionsPerCall ?? Number.NaN]);
          const s = (last - (started.get(unit) ?? last)) / 1000;
          const per = seconds.get(unit) ?? [];
          per[run - 1] = s;
          seconds.set(unit, per);
        }
      },
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
console.log("instance                               seconds per run (link + every operation under valgrind)");
for (const [unit, s] of seconds) console.log(`${unit.padEnd(38)} ${s.map((x) => x.toFixed(1)).join("  ")}`);
console.log("\noperation                              instructions per call, each run            spread");
let bad = 0;
for (const [k, v] of counts) {
  const spread = Math.max(...v) - Math.min(...v);
  if (spread !== 0) bad++;
  console.log(
    `${k.padEnd(38)} ${v
      .map((x) => x.toFixed(3))
      .join("  ")
      .padEnd(42)} ${spread}`,
  );
}
console.log(bad === 0 ? "\nevery count identical in every run" : `\n${bad} operation(s) differ between runs`);
process.exitCode = bad === 0 ? 0 : 1;
