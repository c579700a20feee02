// arm_1 under emulation (issue 17): fixtures/campaigns/arm.yaml — kem-90's Puffin-128, PQClean ML-KEM-768 and
// ML-DSA-44 built by Debian's aarch64-linux-gnu-gcc and run through qemu-aarch64 — and the same campaign without
// `compiler:` on this host as x86_1, into one store. The KATs built for aarch64 match PQClean's published
// hashes; sizes and calls per operation equal the x86 ones; nothing is timed under emulation and the arm pages say
// so; the system switcher links both ways. Needs gcc-aarch64-linux-gnu and qemu-user (.ci/run installs them).
import { execFileSync } from "node:child_process";
import { existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EnvironmentRecord, HashProfileRecord, KatRecord, SizeAuditRecord } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CliResult,
  fixturesDir,
  makeTempDir,
  pqcleanDir,
  repoRoot,
  runCliAsync,
  STRICT_CFLAGS,
} from "./fixture-tools.ts";

const work = makeTempDir("ngcc-arm-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
const out = join(work, "out");
const armCampaign = join(fixturesDir, "campaigns", "arm.yaml");

/** arm.yaml as an x86_1 campaign of this host: no compiler block, its relative paths made absolute. */
function x86Campaign(): string {
  const text = readFileSync(armCampaign, "utf8")
    .replace(/^compiler:\n(?: {2}.*\n)+/m, "")
    .replace("system: arm_1", "system: x86_1")
    .replace(/\.\.\/(iccs|submissions|catalog)/g, (_m, d: string) => join(fixturesDir, d));
  expect(text).not.toMatch(/^compiler:|^ {2}(cc|emulator):/m);
  const file = join(work, "x86.yaml");
  writeFileSync(file, text);
  return file;
}

const read = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;
const data = (system: string, ...rel: string[]) => join(out, "data", system, ...rel);

/** ELF e_machine of a file (183: AArch64, 62: x86-64). */
function elfMachine(path: string): number {
  const b = Buffer.alloc(20);
  const fd = openSync(path, "r");
  readSync(fd, b, 0, 20, 0);
  return b.readUInt16LE(18);
}

/** PQClean's published SHA-256 of a scheme's KAT output (its META.yml nistkat-sha256, kept in fixtures/reference). */
function publishedKat(kind: "kem" | "sign", scheme: string): string {
  const table = read<Record<string, string>>(join(fixturesDir, "reference", "pqclean-nistkat-sha256.json"));
  const hash = table[`crypto_${kind}/${scheme}`];
  if (!hash) throw new Error(`no published KAT hash of ${scheme}`);
  return hash;
}

function profiles(system: string): Map<string, HashProfileRecord> {
  const found = new Map<string, HashProfileRecord>();
  const root = data(system, "profile");
  for (const alg of readdirSync(root))
    for (const f of readdirSync(join(root, alg, "guide")))
      found.set(`${alg}/${f}`, read<HashProfileRecord>(join(root, alg, "guide", f)));
  return found;
}

let armRun: CliResult = { code: -1, stdout: "", stderr: "" };
let x86Run: CliResult = { code: -1, stdout: "", stderr: "" };

beforeAll(async () => {
  armRun = await runCliAsync(["run", armCampaign, "--out", out], { timeoutMs: 600_000 });
  // The same algorithms on this host: KAT, profile (calls) and sizes; the report renders both systems.
  x86Run = await runCliAsync(["run", x86Campaign(), "--out", out, "--steps", "kat,profile,sizes,report"], {
    timeoutMs: 600_000,
  });
}, 1_200_000);

describe("arm_1 under qemu-aarch64", () => {
  it("runs the arm campaign and the x86 one into one valid store", async () => {
    expect(armRun.code, armRun.stderr).toBe(0);
    expect(x86Run.code, x86Run.stderr).toBe(0);
    expect(armRun.stderr).toMatch(/emulated — not a timing/);
    const v = await runCliAsync(["validate", join(out, "data")], { timeoutMs: 120_000 });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it("builds for aarch64 and runs every program through the emulator; the KATs match PQClean's published hashes", () => {
    for (const [alg, instance, published] of [
      ["ml-kem-768", "ml-kem-768", publishedKat("kem", "ml-kem-768")],
      ["ml-dsa-44", "ml-dsa-44", publishedKat("sign", "ml-dsa-44")],
      ["kem-90", "Puffin-128", null],
    ] as const) {
      const kat = read<KatRecord>(data("arm_1", "kat", alg, "guide", `${instance}.json`));
      expect(kat.verdict, alg).toBe("PASS");
      if (published) {
        expect(kat.checks?.map((c) => c.generatedSha256)).toContain(published);
        expect(kat.checks?.every((c) => c.match)).toBe(true);
      }
      const run = kat.commands?.at(-1)?.argv ?? [];
      expect(run.slice(0, 3)).toEqual(["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]);
      expect(elfMachine(run[3] as string), `${run[3]} is an AArch64 executable`).toBe(183);
      expect(kat.build?.compiler).toBe("aarch64-linux-gnu-gcc");
    }
    // The x86 KAT of the same scheme is the host's own build, run directly.
    const x86 = read<KatRecord>(data("x86_1", "kat", "ml-kem-768", "guide", "ml-kem-768.json"));
    expect(x86.verdict).toBe("PASS");
    expect(elfMachine(x86.commands?.at(-1)?.argv[0] as string)).toBe(62);
  });

  it("records the environment as emulated, with the emulator's version", () => {
    const env = read<EnvironmentRecord>(data("arm_1", "environment.json"));
    expect(env.emulated).toBe(true);
    expect(env.emulator?.argv).toEqual(["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]);
    expect(env.emulator?.version).toBe(
      execFileSync("qemu-aarch64", ["--version"], { encoding: "utf8" }).split("\n")[0],
    );
    expect(env.emulator?.architecture).toBe("aarch64");
    expect(env.processor.architecture).toBe(execFileSync("uname", ["-m"], { encoding: "utf8" }).trim());
    expect(env.toolchain.compiler).toMatch(/^aarch64-linux-gnu-gcc/);
    expect(read<EnvironmentRecord>(data("x86_1", "environment.json")).emulated).toBeUndefined();
  });

  it("times nothing under emulation: no timing record, profiles with calls and no share or time", () => {
    expect(existsSync(data("arm_1", "timing"))).toBe(false);
    const arm = profiles("arm_1");
    expect(arm.size).toBe(9);
    for (const [name, p] of arm) {
      expect(p.status, name).toBe("ok");
      expect(p.emulated, name).toBe(true);
      expect(p.groups, name).toEqual([]);
      expect(p.totalNsPerOp, name).toBeUndefined();
      expect(p.trials, name).toBeUndefined();
      expect(p.calls?.length, name).toBeGreaterThan(0);
      for (const c of p.calls ?? []) expect(c.nsPerOp, name).toBeUndefined();
      expect(p.katCheck?.verdict, name).toBe("PASS");
    }
  });

  it("gives the x86 sizes and calls per operation", () => {
    for (const alg of ["kem-90", "ml-kem-768", "ml-dsa-44"]) {
      const arm = read<SizeAuditRecord>(data("arm_1", "sizes", alg, "guide.json"));
      const x86 = read<SizeAuditRecord>(data("x86_1", "sizes", alg, "guide.json"));
      // Every figure alike; the commands that made them differ (the compilers, the emulator prefix).
      const figures = (r: SizeAuditRecord) => r.instances.map(({ commands: _c, ...rest }) => rest);
      expect(figures(arm), alg).toEqual(figures(x86));
      expect(figures(arm).length, alg).toBeGreaterThan(0);
    }
    // The same count of calls on both (arm.yaml: min = max iterations, no warm-up), but PQClean's randombytes is
    // the system's: counts that follow the random bytes — the squeezes of rejection sampling (ML-KEM's matrix,
    // ML-DSA's secrets and challenge) and ML-DSA's signing loop — are compared by symbol only, every other count
    // exactly (they are fixed by the algorithm: absorbs, hashes, PRF calls, randombytes; all of kem-90's).
    const dependsOnRandomness = (name: string, symbol: string) =>
      (!name.startsWith("kem-90/") && /squeeze/.test(symbol)) ||
      (name === "ml-dsa-44/ml-dsa-44__sign.json" && symbol.startsWith("shake256_inc_"));
    const arm = profiles("arm_1");
    const x86 = profiles("x86_1");
    const calls = (p: HashProfileRecord | undefined) =>
      Object.fromEntries((p?.calls ?? []).map((c) => [c.symbol, c.meanPerOperation]));
    let exact = 0;
    for (const [name, p] of arm) {
      const other = x86.get(name);
      expect(other?.iterations, name).toBe(p.iterations);
      const a = calls(p);
      const b = calls(other);
      expect(Object.keys(a).sort(), name).toEqual(Object.keys(b).sort());
      for (const [symbol, n] of Object.entries(a)) {
        if (dependsOnRandomness(name, symbol)) continue;
        expect(n, `${name} ${symbol}`).toBe(b[symbol]);
        exact++;
      }
    }
    expect(exact).toBeGreaterThan(30);
  });

  it("shows arm_1 pages that say emulated and carry no timing figure", () => {
    const site = join(out, "site", "arm_1");
    for (const page of ["index", "kem-90", "ml-kem-768", "ml-dsa-44", "method"]) {
      const md = readFileSync(join(site, `${page}.md`), "utf8");
      expect(md, page).toMatch(/emulated — not a timing/);
      // No time, rate of operations, clock or share: every such figure would be the emulator's.
      expect(md, page).not.toMatch(/\d\s?(ns|µs|ms)\b|\d\s?s\b(?! \()|ops\/s \d|\d(\.\d+)?\s?GHz|\d(\.\d+)?%/);
      expect(readFileSync(join(site, `${page}.html`), "utf8"), page).toMatch(/emulated — not a timing/);
    }
    const page = readFileSync(join(site, "ml-kem-768.md"), "utf8");
    expect(page).toMatch(/performance on AArch64, emulated on x86-64 \(system arm_1\)/);
    expect(page).toMatch(/\| emulator \| qemu-aarch64 version /);
    expect(page).toMatch(/shake128_absorb 9/); // calls per operation are shown
    expect(existsSync(join(site, "img", "ml-kem-768-share.svg"))).toBe(false);
    expect(existsSync(join(site, "img", "ml-kem-768-time.svg"))).toBe(false);
  });

  it("switches between the systems both ways", () => {
    const site = join(out, "site");
    const arm = readFileSync(join(site, "arm_1", "ml-kem-768.html"), "utf8");
    const x86 = readFileSync(join(site, "x86_1", "ml-kem-768.html"), "utf8");
    expect(arm).toContain('href="../x86_1/ml-kem-768.html"');
    expect(x86).toContain('href="../arm_1/ml-kem-768.html"');
    expect(readFileSync(join(site, "arm_1", "index.html"), "utf8")).toContain('href="../x86_1/index.html"');
    expect(readFileSync(join(site, "x86_1", "index.html"), "utf8")).toContain('href="../arm_1/index.html"');
    // The cross-system page puts the systems side by side: arm_1's times are the emulated state, not figures.
    expect(readFileSync(join(site, "compare.md"), "utf8")).toMatch(
      /\| `ml-kem-768` \| keygen \| emulated — not a timing \|/,
    );
    const home = readFileSync(join(site, "index.md"), "utf8");
    expect(home).toMatch(/\[arm_1\]\(arm_1\/index\.md\) \| .*\(AArch64, emulated on x86-64\)/);
    expect(home).toMatch(/\[x86_1\]\(x86_1\/index\.md\)/);
  });

  it("records instruction counts and the constant-time test as not available under emulation (valgrind runs the host's code only)", async () => {
    // Last of the store's tests: it adds failure records (exit 1, as any measured failure).
    const r = await runCliAsync(["run", armCampaign, "--out", out, "--steps", "instructions,constant-time"], {
      timeoutMs: 120_000,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/instructions: 0 done, 9 failed/);
    expect(r.stderr).toMatch(/constant-time: 0 done, 9 failed/);
    for (const kind of ["instructions", "constant-time"]) {
      const rec = read<{ status: string; failure?: { message: string } }>(
        data("arm_1", kind, "ml-kem-768", "guide", "ml-kem-768__keygen.json"),
      );
      expect(rec.status).toBe("failed");
      expect(rec.failure?.message).toMatch(/^not available: valgrind runs programs of this host's architecture only/);
      expect(rec.failure?.message).toMatch(/qemu-aarch64/);
    }
  });

  it("refuses an emulator that is not installed (exit 2, the field named)", async () => {
    const file = join(work, "no-emulator.yaml");
    writeFileSync(
      file,
      readFileSync(armCampaign, "utf8")
        .replace("[qemu-aarch64,", "[qemu-no-such-emulator,")
        .replace(/\.\.\/(iccs|submissions|catalog)/g, (_m, d: string) => join(fixturesDir, d)),
    );
    const r = await runCliAsync(["run", file, "--out", join(work, "never")], { timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no-emulator\.yaml: \/compiler\/emulator\/0 "qemu-no-such-emulator" is not installed/);
    expect(existsSync(join(work, "never"))).toBe(false);
  });
});

describe("the native parts for aarch64", () => {
  it("compile with PQClean's warning set as errors (the cntvct_el0 / isb paths included)", () => {
    const native = join(repoRoot, "native");
    const api = join(pqcleanDir, "crypto_kem", "ml-kem-768", "clean");
    const flags = [
      ...STRICT_CFLAGS,
      "-Wredundant-decls",
      "-O2",
      "-D_GNU_SOURCE",
      "-DNGCC_CATEGORY_KEM",
      "-DNGCC_KAT_KEM",
      "-DNGCC_NAMESPACE=PQCLEAN_MLKEM768_CLEAN_",
      "-DNGCC_API_PREFIX=PQCLEAN_MLKEM768_CLEAN_",
      ...[
        api,
        join(pqcleanDir, "common"),
        ...["include", "driver", "katgen", "hashprof"].map((d) => join(native, d)),
      ].flatMap((d) => ["-I", d]),
    ];
    const parts = ["common", "driver", "probe", "hashprof", "katgen", "printparams", "randombytes", "icount"];
    const sources = parts.flatMap((d) =>
      readdirSync(join(native, d))
        .filter((f) => f.endsWith(".c"))
        .map((f) => join(native, d, f)),
    );
    expect(sources.length).toBeGreaterThan(15);
    for (const src of sources) {
      const obj = join(work, "aarch64.o");
      try {
        execFileSync("aarch64-linux-gnu-gcc", [...flags, "-c", src, "-o", obj], { stdio: "pipe" });
      } catch (err) {
        throw new Error(`${src}: ${(err as { stderr?: Buffer }).stderr?.toString() ?? String(err)}`);
      }
      expect(elfMachine(obj), src).toBe(183);
    }
    // The counter probe itself under the emulator: cntvct with its rate from cntfrq_el0, fixed-clock as the seeds.
    const probe = join(work, "ngcc-probe");
    execFileSync("aarch64-linux-gnu-gcc", [
      ...flags,
      join(native, "probe", "ngcc_probe.c"),
      join(native, "driver", "ngcc_counter.c"),
      join(native, "common", "ngcc_common.c"),
      "-o",
      probe,
      "-lm",
    ]);
    const run = (...args: string[]) =>
      JSON.parse(execFileSync("qemu-aarch64", ["-L", "/usr/aarch64-linux-gnu", probe, ...args], { encoding: "utf8" }));
    const cntvct = run("--counter", "cntvct");
    expect(cntvct.default).toBe("cntvct");
    expect(cntvct.counter).toMatchObject({ kind: "cntvct", unit: "timer-ticks" });
    expect(cntvct.counter.rateHz).toBeGreaterThan(0);
    expect(cntvct.counter.serialization).toMatch(/isb; mrs cntvct_el0/);
    const fixed = run("--counter", "fixed-clock", "--fixed-clock-hz", "2710000000");
    expect(fixed.counter).toMatchObject({ kind: "fixed-clock", unit: "core-cycles", rateHz: 2710000000 });
  });
});
