// What the constant-time step costs per instance (not a test; run with `pnpm exec tsx bench/constant-time-cost.ts`).
//
// Runs the constant-time step (valgrind's memcheck, docs/methodology.md "Constant-time smoke test") over a campaign
// (default fixtures/campaigns/pqclean.yaml, --only ml-kem-512 and ml-kem-768) into a fresh store, --runs times
// (default 1); prints per instance the wall time of the step (building the tested programs and every operation's
// three checks), per operation its verdict and its findings (open / accepted), and the cost of each check: the
// memcheck runs (branch/index and variable latency share one run per level, so the variable-latency part is shown
// as the difference to a second pass with stock memcheck, variableLatency: off, in the same bench run) and the
// statistical test's workers (with its |t| and measurements).
// Options: --campaign FILE, --only GLOB (repeatable), --runs N, --keys N, --seconds S (the statistical budget),
// --no-stock (skip the stock-memcheck pass).
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
const budget = option("--seconds");
if (budget)
  campaign.config.constantTime = {
    ...campaign.config.constantTime,
    statistical: { ...campaign.config.constantTime?.statistical, seconds: Number(budget) },
  };

const seconds = new Map<string, number[]>();
const verdicts = new Map<string, string>();
/** Per operation: memcheck seconds (patched, stock), statistical seconds, its verdict. */
const costs = new Map<string, { memcheck?: number; stock?: number; statistical?: number; stat?: string }>();
const memcheckSeconds = (r: ConstantTimeRecord) =>
  (r.levels ?? []).reduce((n, l) => n + (l.command?.durationMs ?? 0), 0) / 1000;
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
        const c = costs.get(`${unit} ${e.operation}`) ?? {};
        c.memcheck = memcheckSeconds(r);
        const st = r.statistical;
        c.statistical = st?.seconds ?? 0;
        c.stat =
          st?.status === "not run"
            ? `not run (${st.reason})`
            : `${st?.status}${st?.accepted ? " (accepted)" : ""}, |t| ${st?.maxT?.toFixed(1)} at ${st?.measurements} measurements`;
        costs.set(`${unit} ${e.operation}`, c);
        const per = seconds.get(unit) ?? [];
        per[run - 1] = (last - (started.get(unit) ?? last)) / 1000;
        seconds.set(unit, per);
      },
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
// The same operations under stock memcheck (no variable-latency check, no statistical test), for the difference.
if (!args.includes("--no-stock")) {
  const out = mkdtempSync(join(tmpdir(), "ngcc-bench-ct-stock-"));
  const constantTime = {
    ...campaign.config.constantTime,
    variableLatency: "off" as const,
    statistical: { enabled: false },
  };
  const stock = { ...campaign, config: { ...campaign.config, constantTime } };
  try {
    await constantTimeCampaign(stock, {
      out,
      only: selected,
      asked: true,
      onProgress: (e) => {
        if (e.type !== "job") return;
        const key = { system: stock.system, algorithmId: e.algorithmId, instance: e.instance };
        const file = recordPath(out, {
          kind: "constant-time",
          key: { ...key, buildProfile: e.profile, operation: e.operation },
        });
        const r = JSON.parse(readFileSync(file, "utf8")) as ConstantTimeRecord;
        const unit = `${e.algorithmId}/${e.instance} [${e.profile}]`;
        const c = costs.get(`${unit} ${e.operation}`) ?? {};
        c.stock = memcheckSeconds(r);
        costs.set(`${unit} ${e.operation}`, c);
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
console.log(
  "\noperation                              memcheck s (patched | stock | variable-latency part)   statistical s   statistical verdict (last run)",
);
for (const [k, c] of costs) {
  const part = c.memcheck !== undefined && c.stock !== undefined ? (c.memcheck - c.stock).toFixed(1) : "—";
  const mem = `${c.memcheck?.toFixed(1) ?? "—"} | ${c.stock?.toFixed(1) ?? "—"} | ${part}`;
  console.log(`${k.padEnd(38)} ${mem.padEnd(52)} ${(c.statistical?.toFixed(1) ?? "—").padEnd(15)} ${c.stat ?? ""}`);
}
