// Campaigns on Slurm (issue 19): the job-array script, the merge job and the submission commands of
// docs/distributed.md, taken from the page verbatim, run on a real single-node cluster (slurm-cluster.ts) over a
// small campaign; the merged store must hold the records of one uninterrupted run. Also: a task cancelled
// mid-run and requeued resumes, and a shard whose measurement fails exits 1 while its failure records merge.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CliResult,
  cliBin,
  iccsDir,
  makeFlippedKat,
  makeTempDir,
  repoRoot,
  runCli,
  storeRecordFiles,
  submissionsDir,
} from "./fixture-tools.ts";
import {
  findProgram,
  type JobState,
  processesMentioning,
  SLURM_PROGRAMS,
  SlurmCluster,
  TERMINAL_STATES,
  waitFor,
} from "./slurm-cluster.ts";

const missing = SLURM_PROGRAMS.filter((p) => !findProgram(p));
// Only a machine without Slurm, outside CI, skips; in CI (CI=true installs slurm-wlm and munge) it must run.
const skip = missing.length > 0 && !process.env.CI;
const title = skip
  ? `Slurm (skipped: ${missing.join(", ")} not installed; apt-get install -y slurm-wlm munge — with CI set it runs)`
  : "Slurm: the job array and merge job of docs/distributed.md on a single-node cluster";
if (skip) console.warn(`slurm.test.ts: ${title}`);

// ---------------------------------------------------------------------------------------------------------------
// The page's scripts, verbatim.

interface DocScripts {
  shard: string;
  merge: string;
  submit: string;
  requeue: string;
}

function docScripts(): DocScripts {
  const doc = readFileSync(join(repoRoot, "docs/distributed.md"), "utf8");
  const from = doc.indexOf("## A Slurm job array");
  const section = doc.slice(from, doc.indexOf("\n## ", from + 1));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const one = (what: string, test: (b: string) => boolean) => {
    const found = blocks.filter(test);
    if (found.length !== 1) throw new Error(`docs/distributed.md: ${found.length} sh blocks are ${what}, not 1`);
    return found[0] as string;
  };
  return {
    shard: one("the job-array script", (b) => b.startsWith("#!/bin/bash") && b.includes("--shard")),
    merge: one("the merge job", (b) => b.startsWith("#!/bin/bash") && b.includes("ngcc-perf merge")),
    submit: one("the submission", (b) => b.includes("sbatch --parsable --array") && !b.startsWith("#!")),
    requeue: one("the requeue", (b) => b.includes("scontrol requeue") && !b.startsWith("#!")),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Stores

const SYSTEM = "test_1";

const recordFiles = (out: string): string[] => storeRecordFiles(out, SYSTEM);

// biome-ignore lint/suspicious/noExplicitAny: records of every kind are compared by their fields
type Rec = any;

/**
 * A size audit's measured lengths without the sample counts of the timing step's records (those count the timed
 * calls, which vary from run to run); the KAT's counts are its entries.
 */
function sizeFigures(measured: Rec): unknown {
  return Object.fromEntries(
    Object.entries(measured ?? {}).map(([field, m]: [string, Rec]) => [
      field,
      {
        min: m.min,
        max: m.max,
        sources: (m.sources ?? []).map((s: Rec) =>
          s.source === "kat" ? s : { source: s.source, path: s.path, min: s.min, max: s.max },
        ),
      },
    ]),
  );
}

/** What must agree between two runs of one campaign: kind, status, verdict, inputs and the deterministic figures. */
function facts(rec: Rec): unknown {
  const base = {
    kind: rec.kind,
    status: rec.status ?? null,
    verdict: rec.verdict ?? null,
    failure: rec.failure?.reason ?? null,
  };
  switch (rec.kind) {
    case "kat":
      return {
        ...base,
        inputsHash: rec.inputsHash,
        outcome: rec.outcome,
        expected: rec.expected,
        generated: rec.generated,
        lengths: rec.lengths,
      };
    case "timing":
      return {
        ...base,
        inputsHash: rec.inputsHash,
        operation: rec.operation,
        elfImageBytes: rec.memory?.elfImageBytes ?? null,
        heap: [rec.memory?.heapPeakBytes ?? null, rec.memory?.heapAllocations ?? null],
      };
    case "hash-profile":
      return {
        ...base,
        inputsHash: rec.inputsHash,
        calls: (rec.calls ?? []).map((c: Rec) => [c.symbol, c.group, c.meanPerOperation]),
        katCheck: rec.katCheck ?? null,
      };
    case "size-audit":
      return {
        ...base,
        instances: (rec.instances ?? []).map((i: Rec) => ({
          instance: i.instance,
          catalog: i.catalog,
          measured: sizeFigures(i.measured),
        })),
        findings: rec.findings,
      };
    case "survey":
      return { ...base, automatic: rec.automatic, text: rec.text };
    default:
      return base;
  }
}

/** The store holds the same records as the reference: the same files and, file by file, the same facts. */
function expectSameRecords(store: string, reference: string): void {
  const files = recordFiles(reference);
  expect(files.length).toBeGreaterThan(0);
  expect(recordFiles(store)).toEqual(files);
  for (const f of files.filter((x) => x.endsWith(".json"))) {
    const read = (s: string) => JSON.parse(readFileSync(join(s, "data", SYSTEM, f), "utf8"));
    expect(facts(read(store)), f).toEqual(facts(read(reference)));
  }
  const v = runCli(["validate", join(store, "data")]);
  expect(v.code, v.stdout + v.stderr).toBe(0);
}

/** `ngcc-perf <args>` in a child process, without blocking (the reference run goes beside a Slurm job). */
function runCliAsync(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliBin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

// ---------------------------------------------------------------------------------------------------------------

// Made only when the tests run (a skipped suite runs no afterAll to remove it).
const tmp = skip ? "" : makeTempDir("ngcc-slurm-");
let cluster: SlurmCluster | undefined;
let startError: Error | undefined;
let scripts: DocScripts;
let campaign = "";
let reference: Promise<CliResult>;
const bin = join(tmp, "bin");

function writeCampaign(file: string, kem90: string): void {
  writeFileSync(
    file,
    [
      "name: slurm-small",
      `system: ${SYSTEM}`,
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
      "profiler:",
      "  groups:",
      "    hash: { symbols: [pseudohash, pseudoXOF, sm3hash], label: pseudohash/XOF/sm3 }",
      "    drng: { symbols: [randombytes], symbolLabels: { randombytes: drng } }",
      `sizes: { catalog: ${JSON.stringify(join(repoRoot, "fixtures/catalog/external_sizes.csv"))} }`,
      "algorithms:",
      // kem-90/Puffin-128/guide falls in shard 1 of 2, sig-91/Quill-128/guide in shard 2.
      `  - { id: kem-90, instances: [Puffin-128], source: { submission: ${JSON.stringify(kem90)} } }`,
      `  - { id: sig-91, instances: [Quill-128], source: { submission: ${JSON.stringify(join(submissionsDir, "sig-91"))} } }`,
      "",
    ].join("\n"),
  );
}

/** A submission folder with the page's two scripts. */
function submitDir(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "shard.sh"), scripts.shard, { mode: 0o755 });
  writeFileSync(join(dir, "merge.sh"), scripts.merge, { mode: 0o755 });
  return dir;
}

/** The environment the page asks for: ngcc-perf and node on PATH, CAMPAIGN, SHARDS, optionally STEPS. */
function jobEnv(vars: Record<string, string>, c: SlurmCluster): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...c.env,
    PATH: [bin, dirname(process.execPath), process.env.PATH ?? ""].join(":"),
    CAMPAIGN: campaign,
    SHARDS: "2",
    ...vars,
  };
  if (!("STEPS" in vars)) delete env.STEPS;
  return env;
}

/** Runs one of the page's command blocks with bash in `cwd`; returns its output. */
function bash(block: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const r = spawnBash(block, cwd, env);
  if (r.code !== 0) throw new Error(`the page's commands failed (${r.code}):\n${block}\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

function spawnBash(block: string, cwd: string, env: NodeJS.ProcessEnv): CliResult {
  const r = spawnSync("bash", ["-euo", "pipefail", "-c", block], { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** Submits the array and the merge job with the page's commands; returns their job ids. */
function submit(dir: string, env: NodeJS.ProcessEnv): { array: string; merge: string } {
  const out = bash(scripts.submit, dir, env);
  const m = /shards: job (\d+), merge: job (\d+)/.exec(out);
  if (!m) throw new Error(`the submission printed no job ids: ${out}`);
  return { array: m[1] as string, merge: m[2] as string };
}

/** A task's log (Slurm's slurm-<array>_<k>.out in the submission folder). */
function taskLog(dir: string, array: string, k: number): string {
  const f = join(dir, `slurm-${array}_${k}.out`);
  return existsSync(f) ? readFileSync(f, "utf8") : "(no log)";
}

function logsOf(dir: string): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith("slurm-") && f.endsWith(".out"))
    .map(
      (f) =>
        `--- ${f}\n${readFileSync(join(dir, f), "utf8")
          .split("\n")
          .filter((l) => !/ETA/.test(l))
          .slice(-20)
          .join("\n")}`,
    )
    .join("\n");
}

/** The cluster, or the reason it did not start. */
function started(): SlurmCluster {
  if (!cluster) throw startError ?? new Error("the cluster did not start");
  return cluster;
}

const byTask = (tasks: JobState[], k: number) => tasks.find((t) => t.arrayTaskId === String(k)) as JobState;
const seconds = (t: string) => Date.parse(`${t}Z`);

describe.skipIf(skip)(title, () => {
  beforeAll(async () => {
    try {
      scripts = docScripts();
      mkdirSync(bin);
      symlinkSync(cliBin, join(bin, "ngcc-perf"));
      campaign = join(tmp, "small.yaml");
      writeCampaign(campaign, join(submissionsDir, "kem-90"));
      chmodSync(tmp, 0o755); // munged's socket is below it
      cluster = await SlurmCluster.start(join(tmp, "cluster"));
    } catch (err) {
      startError = err as Error; // every test fails with it (a failing hook would only skip them)
      return;
    }
    // One uninterrupted run of the campaign, beside the first array (a different core: tasks take one).
    reference = runCliAsync(["run", campaign, "--out", join(tmp, "reference")]);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    rmSync(tmp, { recursive: true, force: true });
  }, 180_000);

  it("runs the page's job array and merge job: the merged store holds the records of one uninterrupted run", async () => {
    const c = started();
    const dir = submitDir("plain");
    const { array, merge } = submit(dir, jobEnv({}, c));
    const [m] = await c.waitEnded(merge, 300_000);
    const tasks = c.jobs(array);
    const context = `${logsOf(dir)}\n${c.logs()}`;
    expect(tasks.map((t) => [t.arrayTaskId, t.state, t.exitCode]).sort(), context).toEqual([
      ["1", "COMPLETED", "0:0"],
      ["2", "COMPLETED", "0:0"],
    ]);
    expect([m?.state, m?.exitCode], context).toEqual(["COMPLETED", "0:0"]);
    // --exclusive on one node: one task after the other; afterany: the merge after both.
    const [t1, t2] = [byTask(tasks, 1), byTask(tasks, 2)];
    const ordered = seconds(t2.start) >= seconds(t1.end) || seconds(t1.start) >= seconds(t2.end);
    expect(ordered, JSON.stringify(tasks)).toBe(true);
    expect(seconds(m?.start ?? "")).toBeGreaterThanOrEqual(Math.max(seconds(t1.end), seconds(t2.end)));
    // Each unit ran in one shard only; Puffin-128 in shard 1, Quill-128 in shard 2.
    const s1 = recordFiles(join(dir, "stores/shard-1"));
    const s2 = recordFiles(join(dir, "stores/shard-2"));
    expect(s1.filter((f) => s2.includes(f))).toEqual([]);
    expect(s1).toContain("kat/kem-90/guide/Puffin-128.json");
    expect(s2).toContain("kat/sig-91/guide/Quill-128.json");
    const ref = await reference;
    expect(ref.code, ref.stderr).toBe(0);
    expectSameRecords(join(dir, "stores/all"), join(tmp, "reference"));
    expect(existsSync(join(dir, "stores/all/site", SYSTEM, "index.html"))).toBe(true);
  }, 600_000);

  it("a task cancelled mid-run (scancel) and requeued resumes, and the merged store is still complete", async () => {
    const c = started();
    const dir = submitDir("cancelled");
    const env = jobEnv({}, c);
    const { array, merge } = submit(dir, env);
    // Mid-run: once task 1 has written its KAT record (the timing and profile steps are still to come).
    const kat = join(dir, "stores/shard-1/data", SYSTEM, "kat/kem-90/guide/Puffin-128.json");
    await waitFor("task 1's KAT record", 240_000, () => {
      const t = c.task(array, 1);
      if (t && TERMINAL_STATES.has(t.state)) throw new Error(`task 1 ended before it was cancelled: ${t.state}`);
      return existsSync(kat) && t?.state === "RUNNING" ? true : undefined;
    });
    const cancel = c.run("scancel", [`${array}_1`]);
    expect(cancel.code, cancel.stderr).toBe(0);
    const cancelled = await waitFor("task 1 to be cancelled", 60_000, () => {
      const t = c.task(array, 1);
      return t && TERMINAL_STATES.has(t.state) ? t : undefined;
    });
    expect(cancelled.state).toBe("CANCELLED");
    // Nothing of task 1 is left: the CLI, the sandbox and what runs in it (all name its store).
    const shard1 = join(dir, "stores/shard-1");
    const ofTask1 = () => [
      ...processesMentioning(shard1),
      ...processesMentioning("--out stores/shard-1").filter((p) => p.cwd === dir),
    ];
    await waitFor("task 1's processes to go", 60_000, () => (ofTask1().length === 0 ? true : undefined)).catch(() => {
      throw new Error(`task 1's processes are left: ${JSON.stringify(ofTask1())}`);
    });
    // Requeued before the other task has ended, so the merge job (afterany) waits for it too.
    const other = c.task(array, 2);
    expect(other && !TERMINAL_STATES.has(other.state), JSON.stringify(other)).toBe(true);
    bash(scripts.requeue, dir, { ...env, array });
    const [m] = await c.waitEnded(merge, 400_000);
    const tasks = c.jobs(array);
    const context = `${logsOf(dir)}\n${c.logs()}`;
    expect(tasks.map((t) => [t.arrayTaskId, t.state, t.exitCode, t.restarts]).sort(), context).toEqual([
      ["1", "COMPLETED", "0:0", 1],
      ["2", "COMPLETED", "0:0", 0],
    ]);
    expect([m?.state, m?.exitCode], context).toEqual(["COMPLETED", "0:0"]);
    expect(seconds(m?.start ?? "")).toBeGreaterThanOrEqual(seconds(byTask(tasks, 1).end));
    // The requeued run resumed: it skipped the jobs the cancelled one had finished (the KAT at least).
    const log = taskLog(dir, array, 1);
    expect(log, log).toMatch(/^kat: 0 done, 0 failed, 1 skipped \(of 1\)/m);
    expect(recordFiles(shard1).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const ref = await reference;
    expect(ref.code, ref.stderr).toBe(0);
    expectSameRecords(join(dir, "stores/all"), join(tmp, "reference"));
  }, 900_000);

  it("a shard whose measurement failed exits 1 and its failure records merge like any other", async () => {
    const c = started();
    // kem-90 with one flipped byte in Puffin-128's KAT file: the KAT fails, so its timing jobs are failure records.
    const flipped = makeFlippedKat(join(tmp, "flipped-sub"));
    const file = join(tmp, "flipped.yaml");
    writeCampaign(file, flipped.sub.dir);
    const steps = "build,kat,time";
    const ref = runCliAsync(["run", file, "--out", join(tmp, "flipped-reference"), "--steps", `${steps},sizes,report`]);
    const dir = submitDir("failing");
    const { array, merge } = submit(dir, jobEnv({ CAMPAIGN: file, STEPS: steps }, c));
    const [m] = await c.waitEnded(merge, 300_000);
    const tasks = c.jobs(array);
    const context = `${logsOf(dir)}\n${c.logs()}`;
    expect(tasks.map((t) => [t.arrayTaskId, t.state, t.exitCode]).sort(), context).toEqual([
      ["1", "FAILED", "1:0"],
      ["2", "COMPLETED", "0:0"],
    ]);
    expect([m?.state, m?.exitCode], context).toEqual(["COMPLETED", "0:0"]);
    const shard = (f: string) => readFileSync(join(dir, "stores/shard-1/data", SYSTEM, f), "utf8");
    const merged = (f: string) => readFileSync(join(dir, "stores/all/data", SYSTEM, f), "utf8");
    const katFile = "kat/kem-90/guide/Puffin-128.json";
    expect(JSON.parse(merged(katFile)).verdict).toBe("FAIL");
    expect(merged(katFile)).toBe(shard(katFile));
    for (const op of ["keygen", "enc", "dec"]) {
      const f = `records/kem-90/guide/Puffin-128__${op}.json`;
      expect(JSON.parse(merged(f)).failure?.reason, f).toBe("kat-failed");
      expect(merged(f), f).toBe(shard(f));
    }
    const r = await ref;
    expect(r.code, r.stderr).toBe(1);
    expectSameRecords(join(dir, "stores/all"), join(tmp, "flipped-reference"));
  }, 600_000);

  it("stops everything it started: no daemon or job process is left", async () => {
    const c = started();
    const before = processesMentioning(c.root).map((p) => p.pid);
    for (const d of c.daemons) expect(before, d.name).toContain(d.child.pid);
    await c.stop();
    for (const d of c.daemons) expect(d.child.exitCode ?? d.child.signalCode, d.name).not.toBeNull();
    expect(processesMentioning(c.root)).toEqual([]);
    expect(processesMentioning(tmp)).toEqual([]);
  }, 180_000);
});
