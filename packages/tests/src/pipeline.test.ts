// The whole pipeline as a user runs it: `ngcc-perf run` end to end, killed with SIGKILL at random moments
// and resumed until it completes, and split into shards whose stores are merged.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  iccsDir,
  makeFlippedKat,
  makeTempDir,
  repoRoot,
  runCli,
  storeRecordFiles,
  submissionsDir,
} from "./fixture-tools.ts";

const bin = join(repoRoot, "packages/cli/bin.js");
const tmp = makeTempDir("ngcc-pipeline-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args);

const campaignFile = join(tmp, "small.yaml");
beforeAll(() => {
  const sub = (id: string) => JSON.stringify(join(submissionsDir, id));
  writeFileSync(
    campaignFile,
    [
      "name: small",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
      "profiler:",
      "  groups:",
      "    hash: { symbols: [pseudohash, pseudoXOF, sm3hash], label: pseudohash/XOF/sm3 }",
      "    drng: { symbols: [randombytes], symbolLabels: { randombytes: drng } }",
      `sizes: { catalog: ${JSON.stringify(join(repoRoot, "fixtures/catalog/external_sizes.csv"))} }`,
      "algorithms:",
      `  - { id: kem-90, instances: [Puffin-128, Puffin-K-128], source: { submission: ${sub("kem-90")} } }`,
      `  - { id: sig-91, instances: [Quill-V-192], source: { submission: ${sub("sig-91")} } }`,
      `  - { id: kex-92, instances: [Heron-128], source: { submission: ${sub("kex-92")} } }`,
    ].join("\n"),
  );
});

const recordFiles = (out: string): string[] => storeRecordFiles(out, "test_1");

let reference: string[] = [];
let referenceMs = 0;

describe("ngcc-perf run", () => {
  it("runs the whole pipeline and prints where the site is", () => {
    const out = join(tmp, "reference");
    const t0 = Date.now();
    const r = cli("run", campaignFile, "--out", out, "--json");
    referenceMs = Date.now() - t0;
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/site: .*site\/test_1\/index\.html/);
    reference = recordFiles(out);
    for (const kind of ["records/", "kat/", "profile/", "sizes/", "survey/"]) {
      expect(
        reference.some((f) => f.startsWith(kind)),
        kind,
      ).toBe(true);
    }
    expect(existsSync(join(out, "site/test_1/index.html"))).toBe(true);
    expect(cli("validate", join(out, "data")).code).toBe(0);
  }, 900_000);

  it("ends with a complete, valid store after being killed with SIGKILL at random moments and resumed", async () => {
    const out = join(tmp, "killed");
    let seed = 20261130;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const kills: number[] = [];
    for (let round = 0; round < 4; round++) {
      const delay = Math.floor(300 + rand() * Math.max(1000, referenceMs * 0.8));
      kills.push(delay);
      const child = spawn(process.execPath, [bin, "run", campaignFile, "--out", out, "--resume"], {
        detached: true,
        stdio: "ignore",
      });
      const finished = await new Promise<boolean>((done) => {
        const timer = setTimeout(() => {
          try {
            process.kill(-(child.pid as number), "SIGKILL"); // the CLI and every compiler/driver it started
          } catch {
            // already gone
          }
          done(false);
        }, delay);
        child.on("exit", () => {
          clearTimeout(timer);
          done(true);
        });
      });
      if (finished) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const last = cli("run", campaignFile, "--out", out, "--resume");
    expect(last.code, `killed after ${kills.join(", ")} ms; ${last.stderr}`).toBe(0);
    expect(recordFiles(out).filter((f) => !f.endsWith(".tmp"))).toEqual(reference);
    expect(recordFiles(out).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const v = cli("validate", join(out, "data"));
    expect(v.code).toBe(0);
    for (const f of reference.filter((x) => x.endsWith(".json"))) {
      const rec = JSON.parse(readFileSync(join(out, "data/test_1", f), "utf8"));
      expect(rec.status ?? "ok", f).not.toBe("failed");
    }
  }, 1_800_000);

  it("does not time an instance whose KAT fails (functional testing first)", () => {
    const bad = makeFlippedKat(join(tmp, "flipped"));
    const file = join(tmp, "flipped.yaml");
    writeFileSync(
      file,
      [
        "name: flipped",
        "system: test_1",
        `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
        "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
        "algorithms:",
        `  - { id: kem-90, instances: [Puffin-128, Puffin-192], source: { submission: ${JSON.stringify(bad.sub.dir)} } }`,
      ].join("\n"),
    );
    const out = join(tmp, "flipped-out");
    const r = cli("run", file, "--out", out, "--steps", "kat,time");
    expect(r.code).toBe(1);
    const rec = (name: string) => JSON.parse(readFileSync(join(out, "data/test_1", name), "utf8"));
    expect(rec("kat/kem-90/guide/Puffin-128.json").verdict).toBe("FAIL");
    for (const op of ["keygen", "enc", "dec"]) {
      expect(rec(`records/kem-90/guide/Puffin-128__${op}.json`).failure.reason).toBe("kat-failed");
      expect(rec(`records/kem-90/guide/Puffin-192__${op}.json`).status).toBe("ok");
    }
  }, 600_000);

  it("measures one instance under two build profiles in every step, and the page shows both", () => {
    const file = join(tmp, "profiles.yaml");
    writeFileSync(
      file,
      [
        "name: profiles",
        "system: test_1",
        `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
        "timing: { trials: 3, minIterations: 5, targetTrialMs: 1, warmupMs: 1, workerMs: 2, minWorkers: 2, budgetMs: 20 }",
        "buildProfiles:",
        '  o0: { cflags: ["-O0"], description: unoptimised }',
        '  o3: { cflags: ["-O3", "-fomit-frame-pointer"] }',
        "defaultProfile: o3",
        "profiler:",
        "  groups:",
        "    hash: { symbols: [pseudohash, pseudoXOF, sm3hash], label: pseudohash/XOF/sm3 }",
        "    drng: { symbols: [randombytes], symbolLabels: { randombytes: drng } }",
        `sizes: { catalog: ${JSON.stringify(join(repoRoot, "fixtures/catalog/external_sizes.csv"))} }`,
        "algorithms:",
        `  - { id: kem-90, instances: [Puffin-128], buildProfiles: [o0, o3], source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} } }`,
      ].join("\n"),
    );
    const out = join(tmp, "profiles-out");
    const r = cli("run", file, "--out", out, "--json");
    expect(r.code, r.stderr).toBe(0);
    const files = recordFiles(out);
    for (const profile of ["o0", "o3"]) {
      const expected = [
        `kat/kem-90/${profile}/Puffin-128.json`,
        `kat/kem-90/${profile}/Puffin-128.log`,
        ...["keygen", "enc", "dec"].flatMap((op) => [
          `records/kem-90/${profile}/Puffin-128__${op}.json`,
          `profile/kem-90/${profile}/Puffin-128__${op}.json`,
        ]),
        `sizes/kem-90/${profile}.json`,
        `survey/kem-90/${profile}.json`,
      ];
      for (const f of expected) expect(files, f).toContain(f);
      for (const f of expected.filter((x) => x.endsWith(".json"))) {
        const rec = JSON.parse(readFileSync(join(out, "data/test_1", f), "utf8"));
        expect(rec.buildProfile, f).toBe(profile);
        expect(rec.status ?? rec.verdict ?? "ok", f).not.toMatch(/failed|FAIL|ERROR/);
      }
    }
    // Each profile's timing record carries its own flags.
    const flags = (p: string) =>
      JSON.parse(readFileSync(join(out, `data/test_1/records/kem-90/${p}/Puffin-128__enc.json`), "utf8")).build.flags;
    expect(flags("o0")).toContain("-O0");
    expect(flags("o3")).toContain("-O3");
    // Progress totals were final: every step did what it planned.
    const steps = JSON.parse(r.stdout).steps as Record<string, { planned: number; records: number; skipped: number }>;
    for (const name of ["kat", "time", "profile", "sizes"]) {
      const s = steps[name];
      expect(s && s.records + s.skipped, name).toBe(s?.planned);
    }
    const page = readFileSync(join(out, "site/test_1/kem-90.md"), "utf8");
    expect(page).toMatch(/\bo0\b/);
    expect(page).toMatch(/\bo3\b/);
  }, 900_000);

  it("splits into shards whose merged stores hold the same records as one run", () => {
    const a = join(tmp, "shard-1");
    const b = join(tmp, "shard-2");
    const steps = "build,kat,time,profile";
    for (const [k, out] of [
      [1, a],
      [2, b],
    ] as const) {
      const r = cli("run", campaignFile, "--out", out, "--steps", steps, "--shard", `${k}/2`);
      expect(r.code, r.stderr).toBe(0);
    }
    const sa = recordFiles(a);
    const sb = recordFiles(b);
    expect(sa.filter((f) => sb.includes(f))).toEqual([]); // no job ran twice
    const merged = join(tmp, "merged");
    const m = cli("merge", a, b, "--out", merged);
    expect(m.code, m.stderr).toBe(0);
    const final = cli("run", campaignFile, "--out", merged, "--steps", "sizes,report");
    expect(final.code, final.stderr).toBe(0);
    expect(recordFiles(merged)).toEqual(reference);
    expect(cli("validate", join(merged, "data")).code).toBe(0);
    // Merging a shard with a changed copy of itself is refused.
    const rec = join(a, "data/test_1", sa.find((f) => f.startsWith("records/")) as string);
    writeFileSync(rec, readFileSync(rec, "utf8").replace('"status": "ok"', '"status": "ok" '));
    const conflict = cli("merge", a, merged, "--out", join(tmp, "conflict"));
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(/differs between/);
  }, 1_800_000);
});
