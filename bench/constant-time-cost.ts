// What the constant-time step costs per instance (not a test; run with `pnpm exec tsx bench/constant-time-cost.ts`).
//
// Runs the constant-time step (valgrind's memcheck, docs/methodology.md "Constant-time smoke test") over a campaign
// (default fixtures/campaigns/pqclean.yaml, --only ml-kem-512 and ml-kem-768) into a fresh store, --runs times
// (default 1); prints per instance the wall time of the step (building the tested program at every level and every
// operation under memcheck at every level) and per operation its verdict and its findings (open / accepted).
// Options: --campaign FILE, --only GLOB (repeatable), --runs N, --keys N.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { constantTimeCampaign, loadCampaign, resolveCampaign } from "../packages/runner/src/index.ts";
import { type ConstantTimeRecord, recordPath } from "../packages/schema/src/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = args.flatMap((a, i) => (args[i - 1] === "--only" ? [a] : []));
const runs = Number(option("--runs") ?? "1");
const campaign = resolveCampaign(loadCampaign(option("--campaign") ?? join(root, "fixtures/campaigns/pqclean.yaml")));
const keys = option("--keys");
if (keys) campaign.config.constantTime = { ...campaign.config.constantTime, keys: Number(keys) };
const selected = only.length ? only : ["ml-kem-512", "ml-kem-768"];

const seconds = new Map<string, number[]>();
const verdicts = new Map<string, string>();
for (let run = 1; run <= runs; run++) {
  const out = mkdtempSync(join(tmpdir(), "ngcc-bench-ct-"));
  try {
    const started = new Map<string, number>();
    let last = Date.now();
    await constantTimeCampaign(campaign, {
      out,
      only: selected,
      asked: true,
      onProgress: (e) => {
        if (e.type !== "job" && e.type !== "build") return;
        const unit = `${e.algorithmId}/${e.instance} [${e.profile}]`;
        if (!started.has(unit)) started.set(unit, last);
        if (e.type !== "job") return;
        last = Date.now();
        const key = { system: campaign.system, algorithmId: e.algorithmId, instance: e.instance };
        const file = recordPath(out, {
          kind: "constant-time",
          key: { ...key, buildProfile: e.profile, operation: e.operation },
        });
        const r = JSON.parse(readFileSync(file, "utf8")) as ConstantTimeRecord;
        const findings = (r.levels ?? []).flatMap((l) => l.findings.map((f) => ({ ...f, level: l.level })));
        const open = findings.filter((f) => f.status === "open").length;
        verdicts.set(
          `${unit} ${e.operation}`,
          `${r.verdict ?? r.status}: ${open} open, ${findings.length - open} accepted finding(s) over ${(r.levels ?? []).length} level(s)`,
        );
        const per = seconds.get(unit) ?? [];
        per[run - 1] = (last - (started.get(unit) ?? last)) / 1000;
        seconds.set(unit, per);
      },
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
const levels = (campaign.config.constantTime?.levels ?? ["-O2", "-O3"]).join(", ");
console.log(
  `instance                               seconds per run (build at ${levels} + every operation under memcheck)`,
);
for (const [unit, s] of seconds) console.log(`${unit.padEnd(38)} ${s.map((x) => x.toFixed(1)).join("  ")}`);
console.log("\noperation                              verdict (last run)");
for (const [k, v] of verdicts) console.log(`${k.padEnd(38)} ${v}`);
