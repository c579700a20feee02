// Whether the published statistic and the compare verdicts follow the code, not the load (issue 26, "Done when";
// not a test). Run with `pnpm exec tsx bench/statistic-stability.ts [--load 1] [--steps time] [--keep]` after
// `pnpm build` (it runs the built CLI, packages/cli/bin.js).
//
// With --load N busy processes beside it (default 1: one of the two cores taken), it measures the demo campaign
// (fixtures/campaigns/demo.yaml, every instance under its profiles) three times into fresh stores:
//   A, B  the bundled fixtures, unchanged (an A/A pair);
//   C     the same, with a copy of kem-90 whose crypto_kem_enc runs its public-key encryption one extra time into a
//         scratch buffer (the result is unchanged, so its KAT still passes: only enc does more work).
// It prints, for every instance × operation, the statistic each record publishes under every profile in A, B and
// C (and the decision behind it), and whether it is one statistic everywhere; then `ngcc-perf compare` of A with B
// (expected: no faster or slower verdict) and of A with C (expected: slower for enc of every kem-90 instance under
// every profile, and nothing else).
//
// Options: --load N (busy processes, default 1; 0 for none); --steps S (the run's --steps, default time);
// --calibrate N (first `ngcc-perf calibrate` A's campaign with N sessions, the busy processes already running, and
// make every run with `--between-run` that file: the intervals, and compare's, then include this machine's
// between-run component); --calibrate-only GLOB (calibrate's --only, repeatable; default every instance);
// --campaign FILE (default fixtures/campaigns/demo.yaml; its submissions and the ICCS and catalog folders are
// resolved to absolute paths in copies of it); --cli FILE (default packages/cli/bin.js); --keep (keep the folder).

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { TimingRecord } from "../packages/schema/src/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const load = Number(option("--load") ?? 1);
const steps = option("--steps") ?? "time";
const campaignFile = resolve(option("--campaign") ?? join(root, "fixtures/campaigns/demo.yaml"));
const cli = resolve(option("--cli") ?? join(root, "packages/cli/bin.js"));
const keep = args.includes("--keep");
const calibrate = option("--calibrate");
const calibrateOnly = args.flatMap((a, i) => (a === "--calibrate-only" ? ["--only", args[i + 1] as string] : []));
if (!Number.isInteger(load) || load < 0) throw new Error("--load needs a whole number");

const work = mkdtempSync(join(tmpdir(), "ngcc-stability-"));
const busy: ChildProcess[] = [];
const stopLoad = () => {
  for (const b of busy.splice(0)) b.kill("SIGKILL");
};
process.on("exit", () => {
  stopLoad();
  if (!keep) rmSync(work, { recursive: true, force: true });
});
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => process.exit(130));

// ---------------------------------------------------------------- the campaigns

/** The campaign with every relative folder it names made absolute (the copy lives elsewhere). */
function campaignCopy(name: string, replace: Record<string, string> = {}): string {
  const dir = dirname(campaignFile);
  let text = readFileSync(campaignFile, "utf8").replace(
    /((?:submission|dir|catalog):\s*)(\.\.?\/[^\s}]+)/g,
    (_m, head: string, rel: string) => `${head}${resolve(dir, rel)}`,
  );
  for (const [from, to] of Object.entries(replace)) text = text.split(from).join(to);
  const path = join(work, `${name}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** A copy of kem-90 whose enc does its public-key encryption once more (into a scratch ciphertext). */
function extraWorkCopy(): string {
  const from = join(root, "fixtures/submissions/kem-90");
  const to = join(work, "extra", "kem-90");
  cpSync(from, to, { recursive: true });
  const kem = join(to, "Reference_Implementation/common/kem.c");
  const text = readFileSync(kem, "utf8");
  const call = "    puffin_pke_enc(ct, pk, buf, kr + PUFFIN_SYMBYTES);\n";
  if (!text.includes(call)) throw new Error(`${kem}: the enc call to patch is not there`);
  const extra =
    "    {\n" +
    "        static unsigned char scratch[PUFFIN_CIPHERTEXTBYTES];\n" +
    "        puffin_pke_enc(scratch, pk, buf, kr + PUFFIN_SYMBYTES); /* extra work (bench) */\n" +
    '        __asm__ volatile("" : : "r"(scratch) : "memory");\n' +
    "    }\n";
  writeFileSync(kem, text.replace(call, call + extra));
  return to;
}

// ---------------------------------------------------------------- runs

function runCli(argv: string[], what: string): { status: number; stdout: string; stderr: string } {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [cli, ...argv], { encoding: "utf8", maxBuffer: 1 << 28 });
  const s = ((Date.now() - t0) / 1000).toFixed(0);
  if (r.status !== 0 && r.status !== 1) {
    throw new Error(`${what} exited ${r.status}:\n${r.stderr.slice(-3000)}`);
  }
  console.log(`  ${what}: exit ${r.status}, ${s} s`);
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function timingRecords(store: string): TimingRecord[] {
  const out: TimingRecord[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith(".json")) {
        try {
          const r = JSON.parse(readFileSync(p, "utf8")) as TimingRecord;
          if (r.kind === "timing" && r.status === "ok") out.push(r);
        } catch {
          // not a record
        }
      }
    }
  };
  walk(join(store, "data"));
  return out;
}

interface Decision {
  by?: string;
  inputDependent?: boolean;
  relativeSpread?: number;
}

const extra = extraWorkCopy();
const campaigns = {
  A: campaignCopy("A"),
  B: campaignCopy("B"),
  C: campaignCopy("C", { [resolve(root, "fixtures/submissions/kem-90")]: extra }),
};

console.log(
  `statistic-stability: ${campaignFile}, --steps ${steps}, ${load} busy process(es) beside it, ${cpus().length} CPUs, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (let i = 0; i < load; i++) {
  busy.push(spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
}
const betweenRun: string[] = [];
if (calibrate !== undefined) {
  const file = join(work, "between-run.json");
  const t0 = Date.now();
  const r = runCli(["calibrate", campaigns.A, "--out", file, "--sessions", calibrate, ...calibrateOnly], "calibrate");
  for (const line of r.stderr.split("\n").filter((l) => /between-run sd|not probed/.test(l)))
    console.log(`calibrate: ${line}`);
  console.log(`calibrate: ${calibrate} sessions, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  betweenRun.push("--between-run", file);
}
const stores: Record<string, string> = {};
for (const [name, file] of Object.entries(campaigns)) {
  stores[name] = join(work, `store-${name}`);
  runCli(["run", file, "--out", stores[name] as string, "--steps", steps, ...betweenRun], `run ${name}`);
}
const compareAB = JSON.parse(
  runCli(["compare", stores.A as string, stores.B as string, "--json"], "compare A B").stdout,
);
const compareAC = JSON.parse(
  runCli(["compare", stores.A as string, stores.C as string, "--json"], "compare A C").stdout,
);
stopLoad();

// ---------------------------------------------------------------- statistics

const byOp = new Map<string, Map<string, string>>();
const decisions = new Map<string, string>();
for (const [name, store] of Object.entries(stores)) {
  for (const r of timingRecords(store)) {
    const op = `${r.algorithmId}/${r.instance} ${r.operation}`;
    const stat = r.central?.statistic ?? (r.method === "trials" ? "median trial" : "?");
    const m = byOp.get(op) ?? new Map<string, string>();
    m.set(`${name} ${r.buildProfile}`, stat);
    byOp.set(op, m);
    const d = (r.central as { decision?: Decision } | undefined)?.decision;
    if (d && name === "A") {
      decisions.set(
        op,
        d.by === "instructions"
          ? `instructions spread ${((d.relativeSpread ?? 0) * 100).toFixed(2)} % → ${d.inputDependent ? "input-dependent" : "not input-dependent"}`
          : `${d.by ?? "?"}`,
      );
    }
  }
}
let mixed = 0;
console.log("\nPublished statistic per instance × operation (run profile: statistic)");
for (const [op, m] of [...byOp].sort(([a], [b]) => a.localeCompare(b))) {
  const values = new Set(m.values());
  if (values.size > 1) mixed++;
  const cells = [...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}: ${v}`);
  console.log(
    `  ${values.size > 1 ? "MIXED" : "same "} ${op.padEnd(34)} ${cells.join(", ")}${decisions.has(op) ? `  [${decisions.get(op)}]` : ""}`,
  );
}
console.log(`${byOp.size} instance × operation(s), ${mixed} publishing more than one statistic`);

// The host's state as each run saw it: the contention block of every timing record.
console.log("\nContention per run (records by published state; workers judged contended; extra time on them)");
for (const [name, store] of Object.entries(stores)) {
  const rs = timingRecords(store);
  const state = new Map<string, number>();
  let workers = 0;
  let contended = 0;
  let extraMs = 0;
  for (const r of rs) {
    const c = r.contention;
    const key = c ? (c.publishedFrom === "uncontended" ? "uncontended" : `${c.state} (from all)`) : "no probe";
    state.set(key, (state.get(key) ?? 0) + 1);
    workers += c?.workers.length ?? 0;
    contended += c?.workers.filter((w) => w.contended).length ?? 0;
    extraMs += (r.sampling as { contendedMs?: number } | undefined)?.contendedMs ?? 0;
  }
  const states = [...state].map(([k, v]) => `${v} ${k}`).join(", ");
  console.log(
    `  ${name}: ${rs.length} records: ${states}; ${contended} of ${workers} workers contended; ${(extraMs / 1000).toFixed(1)} s on contended workers`,
  );
}

interface Row {
  key: { algorithmId: string; instance: string; buildProfile: string; operation: string };
  verdict: string;
  ratio: number;
  ci95: { low: number; high: number };
  uncontendedWorkers?: { a: number; b: number };
}
function verdicts(c: { timings: Row[] }, title: string): Row[] {
  const off = c.timings.filter((t) => t.verdict !== "same");
  const ratios = c.timings.map((t) => t.ratio);
  console.log(
    `\n${title}: ${c.timings.length} timings, ${off.length} not "same"; ratios ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`,
  );
  const subset = (t: Row) =>
    t.uncontendedWorkers ? ` (over uncontended workers: A ${t.uncontendedWorkers.a}, B ${t.uncontendedWorkers.b})` : "";
  for (const t of off) {
    console.log(
      `  ${t.verdict.padEnd(8)} ${t.key.algorithmId}/${t.key.instance} ${t.key.buildProfile} ${t.key.operation}: ${t.ratio.toFixed(3)} [${t.ci95.low.toFixed(3)}, ${t.ci95.high.toFixed(3)}]${subset(t)}`,
    );
  }
  const over = c.timings.filter((t) => t.uncontendedWorkers).length;
  console.log(`  ${over} of the ${c.timings.length} compared over their uncontended workers (states differed)`);
  return off;
}
const offAB = verdicts(compareAB, "compare A B (unchanged code; expected: none)");
const offAC = verdicts(compareAC, "compare A C (kem-90 enc does extra work; expected: slower for kem-90 enc only)");
const kemEnc = compareAC.timings.filter((t: Row) => t.key.algorithmId === "kem-90" && t.key.operation === "enc");
const judged = (rows: Row[]) => rows.filter((t) => t.verdict === "faster" || t.verdict === "slower");
const refused = (rows: Row[]) => rows.filter((t) => t.verdict === "not-comparable").length;
const wrongAC = judged(offAC).filter((t) => !(t.key.algorithmId === "kem-90" && t.key.operation === "enc"));
const slowerEnc = kemEnc.filter((t: Row) => t.verdict === "slower").length;
const refusedEnc = kemEnc.filter((t: Row) => t.verdict === "not-comparable").length;
console.log(
  `\nverdict: ${mixed === 0 ? "one statistic per instance × operation" : `${mixed} mixed`}; ` +
    `A/B ${judged(offAB).length} faster/slower verdict(s), ${refused(offAB)} not comparable (contention states differ); ` +
    `A/C kem-90 enc: ${slowerEnc} of ${kemEnc.length} slower, ${refusedEnc} not comparable, ${kemEnc.length - slowerEnc - refusedEnc} other; ` +
    `${wrongAC.length} faster/slower verdict(s) elsewhere, ${refused(offAC) - refusedEnc} not comparable elsewhere`,
);
if (keep) console.log(`kept: ${work}`);
