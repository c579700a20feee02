// What the memory step costs per instance, and whether its figures repeat (not a test; run with
// `pnpm exec tsx bench/memory-cost.ts`). Target: stack and heap figures identical in every run. The instructions
// step's cost is bench/instructions-cost.ts's.
//
// Runs the memory step (stack and heap high-water, docs/methodology.md) --runs times (default 3) over a campaign
// (default fixtures/campaigns/pqclean.yaml, --only ml-kem-512 and ml-kem-768), each run into a fresh store, the
// build made first and not counted; prints per instance the wall time of the step (one memory-executable process
// per operation) and per operation the stack bytes and heap peak / allocations of every run.
// Options: --campaign FILE, --only GLOB (repeatable), --runs N.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCampaign, loadCampaign, memoryCampaign, resolveCampaign } from "../packages/runner/src/index.ts";
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
const selected = only.length ? only : ["ml-kem-512", "ml-kem-768"];

const figures = new Map<string, string[]>();
const seconds = new Map<string, number[]>();
for (let run = 1; run <= runs; run++) {
  const out = mkdtempSync(join(tmpdir(), "ngcc-bench-memory-"));
  try {
    await buildCampaign(campaign, { out, only: selected });
    const started = new Map<string, number>();
    let last = Date.now();
    await memoryCampaign(campaign, {
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
            kind: "memory",
            key: { ...key, buildProfile: e.profile, operation: e.operation },
          });
          const r = JSON.parse(readFileSync(file, "utf8")) as {
            status: string;
            stackBytes?: number;
            heapPeakBytes?: number;
            heapAllocations?: number;
          };
          const k = `${unit} ${e.operation}`;
          const shown =
            r.status === "ok"
              ? `${r.stackBytes ?? "-"} ${r.heapPeakBytes ?? "-"}/${r.heapAllocations ?? "-"}`
              : "failed";
          figures.set(k, [...(figures.get(k) ?? []), shown]);
          const per = seconds.get(unit) ?? [];
          per[run - 1] = (last - (started.get(unit) ?? last)) / 1000;
          seconds.set(unit, per);
        }
      },
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
console.log("instance                               seconds per run (the memory step: one process per operation)");
for (const [unit, s] of seconds) console.log(`${unit.padEnd(38)} ${s.map((x) => x.toFixed(2)).join("  ")}`);
console.log("\noperation                              stack bytes, heap peak/allocations, each run");
let bad = 0;
for (const [k, v] of figures) {
  if (new Set(v).size !== 1 || v[0] === "failed") bad++;
  console.log(`${k.padEnd(38)} ${v.join("   ")}`);
}
console.log(
  bad === 0 ? "\nevery figure identical in every run" : `\n${bad} operation(s) differ between runs or failed`,
);
process.exitCode = bad === 0 ? 0 : 1;
