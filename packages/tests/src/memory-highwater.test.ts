// Stack and heap high-water per operation (the driver's memory command run from the runner's memory executable,
// BuiltInstance.memoryDriver): the Puffin fixture (kem-90) built with its memory variants — keygen writes a
// 65536-byte local array (-DPUFFIN_DEEP_STACK=65536), enc makes 3 allocations with a peak of 5000 live bytes
// (-DPUFFIN_HEAP_DEMO) — and PQClean ML-KEM-768 over the 100 KAT-seed inputs (--inputs 100): heap (fips202.c's
// 200-byte Keccak contexts) and allocations equal to, and stack within 5 % of, the maxima of bench/stack-check.c
// over the same inputs, a program of its own (the calls on a painted pthread stack, not the driver's ucontext
// stack; the linker's --wrap, not objcopy; its own NIST CTR_DRBG over PQClean's AES, not native/katgen, checked to
// give KAT count 0 exactly as PQClean's published nistkat SHA-256 says); and PQClean ML-DSA-44's sign, whose
// allocations per call follow its rejection loop and so differ from input to input.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCampaign, resolveAlgorithms, buildInstance as runnerBuildInstance, toolchain } from "@ngcc-perf/runner";
import { afterAll, describe, expect, it } from "vitest";
import { katgenDir, nativeIncludeDir, pqcleanDir, repoRoot } from "./fixture-tools.ts";

const work = mkdtempSync(join(tmpdir(), "ngcc-memory-hw-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function built(id: string, source: string, instance: string, defines: string[] = []) {
  const dir = join(work, id);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "campaign.yaml");
  writeFileSync(
    file,
    [
      "name: memory-hw",
      "system: test_1",
      ...(source.startsWith("submission") ? ["iccs:", `  dir: ${join(repoRoot, "fixtures/iccs")}`] : []),
      "algorithms:",
      `  - { id: ${id}, source: { ${source} } }`,
    ].join("\n"),
  );
  const campaign = loadCampaign(file);
  const spec = resolveAlgorithms(campaign)[0]?.instances.find((i) => instance === "" || i.instance === instance);
  if (!spec) throw new Error(`no instance ${instance}`);
  const profile = campaign.profiles[campaign.defaultProfile];
  if (!profile) throw new Error("no profile");
  return runnerBuildInstance(
    { ...spec, defines: [...spec.defines, ...defines] },
    profile,
    await toolchain(campaign.context),
    join(dir, "b"),
    300_000,
  );
}

function memory(driver: string, op: string, measure: string[] = []) {
  const r = spawnSync(driver, ["memory", "--op", op, ...measure], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, number | undefined> & {
    inputs?: { count: number; asked: number; limitedBy: string; source: string };
    stackBytesPerInput?: number[];
    heapPeakBytesPerInput?: number[];
    heapAllocationsPerInput?: number[];
  };
}

describe("stack and heap high-water (memory command)", () => {
  it("Puffin memory variants: heap exactly 5000 bytes in 3 allocations; stack within 32 words of the 64 KiB array", async () => {
    const b = await built("kem-90", `submission: ${join(repoRoot, "fixtures/submissions/kem-90")}`, "Puffin-128", [
      "PUFFIN_DEEP_STACK=65536",
      "PUFFIN_HEAP_DEMO",
    ]);
    const enc = memory(b.memoryDriver, "enc");
    expect(enc.heapPeakBytes).toBe(5000);
    expect(enc.heapAllocations).toBe(3);
    const keygen = memory(b.memoryDriver, "keygen");
    expect(keygen.heapPeakBytes).toBe(0);
    expect(keygen.stackBytes).toBeGreaterThanOrEqual(65536);
    expect(keygen.stackBytes).toBeLessThanOrEqual(65536 + 32 * 8);
    expect((keygen.stackBytes ?? 1) % 8).toBe(0);
    expect(keygen.stackBaselineBytes).toBeGreaterThan(0);
    expect(memory(b.memoryDriver, "dec").stackBytes).toBeLessThan(65536);
    // The timed driver is not interposed: no heap figures from it.
    expect(memory(b.driver, "enc").heapPeakBytes).toBeUndefined();
    // --measure: rss (the time step's run) skips the stack and heap run, highwater (the memory step's) the RSS one.
    const rss = memory(b.memoryDriver, "enc", ["--measure", "rss"]);
    expect(Object.keys(rss).sort()).toEqual(["baselineRssKiB", "hwmReset", "messageBytes", "op", "peakRssKiB"]);
    const hw = memory(b.memoryDriver, "enc", ["--measure", "highwater"]);
    expect(hw.baselineRssKiB).toBeUndefined();
    expect({ peak: hw.heapPeakBytes, allocations: hw.heapAllocations, stack: hw.stackRegionBytes }).toEqual({
      peak: 5000,
      allocations: 3,
      stack: 8 << 20,
    });
    const bad = spawnSync(b.memoryDriver, ["memory", "--op", "enc", "--measure", "stack"], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--measure: expected rss, highwater or all, got "stack"/);
  }, 300_000);

  it("KAT-seed inputs: --inputs N runs N inputs and reports each; the timed driver (no KAT DRBG) refuses N > 1", async () => {
    const b = await built("kem-90", `submission: ${join(repoRoot, "fixtures/submissions/kem-90")}`, "Puffin-128", [
      "PUFFIN_HEAP_DEMO",
    ]);
    const m = memory(b.memoryDriver, "enc", ["--measure", "highwater", "--inputs", "7"]);
    expect(m.inputs).toEqual({ count: 7, asked: 7, limitedBy: "inputs", source: "kat-seeds" });
    expect(m.stackBytesPerInput).toHaveLength(7);
    expect(m.heapPeakBytesPerInput).toEqual([5000, 5000, 5000, 5000, 5000, 5000, 5000]);
    expect(m.heapAllocationsPerInput).toEqual([3, 3, 3, 3, 3, 3, 3]);
    expect(m.stackBytes).toBe(Math.max(...(m.stackBytesPerInput ?? [])));
    expect(m.stackBytesPerInput?.[m.stackMaxInput ?? -1]).toBe(m.stackBytes);
    // A time limit of 1 ns stops after the first input and says so.
    const cut = memory(b.memoryDriver, "enc", ["--measure", "highwater", "--inputs", "7", "--time-limit-ns", "1"]);
    expect(cut.inputs).toEqual({ count: 1, asked: 7, limitedBy: "time-limit", source: "kat-seeds" });
    const timed = spawnSync(b.driver, ["memory", "--op", "enc", "--inputs", "2"], { encoding: "utf8" });
    expect(timed.status).toBe(2);
    expect(timed.stderr).toMatch(/no KAT DRBG/);
    const over = spawnSync(b.memoryDriver, ["memory", "--op", "enc", "--inputs", "101"], { encoding: "utf8" });
    expect(over.status).toBe(2);
    expect(over.stderr).toMatch(/--inputs: expected an integer in \[1, 100\]/);
  }, 300_000);

  it("input i is KAT count i's: ngcc_hw_kat_seed(i) then keypair gives the KAT file's pk of count i (PQClean ML-KEM-768, all 100, out of order)", () => {
    const scheme = join(pqcleanDir, "crypto_kem/ml-kem-768/clean");
    const sources = readdirSync(scheme)
      .filter((f) => f.endsWith(".c"))
      .map((f) => join(scheme, f));
    const common = [
      join(pqcleanDir, "common/fips202.c"),
      join(katgenDir, "ngcc_rng.c"),
      join(katgenDir, "ngcc_aes256.c"),
    ];
    const gcc = (args: string[]) => {
      const r = spawnSync(
        "gcc",
        ["-std=c99", "-O2", "-I", scheme, "-I", katgenDir, "-I", join(pqcleanDir, "common"), ...args],
        {
          encoding: "utf8",
        },
      );
      expect(r.status, r.stderr).toBe(0);
    };
    // The KAT generator's .rsp of the 100 counts.
    const katgen = join(work, "katgen-768");
    gcc([
      "-DNGCC_KAT_KEM",
      "-DNGCC_API_PREFIX=PQCLEAN_MLKEM768_CLEAN_",
      join(katgenDir, "katgen.c"),
      ...sources,
      ...common,
      "-o",
      katgen,
    ]);
    const rsp = spawnSync(katgen, ["--count", "100"], { encoding: "utf8", maxBuffer: 64 << 20 });
    expect(rsp.status, rsp.stderr).toBe(0);
    const katPk = new Map<number, string>();
    for (const entry of rsp.stdout.split(/\n\n/)) {
      const count = /^count = (\d+)$/m.exec(entry)?.[1];
      const pk = /^pk = ([0-9A-F]+)$/m.exec(entry)?.[1];
      if (count !== undefined && pk) katPk.set(Number(count), pk);
    }
    expect(katPk.size).toBe(100);
    // The memory executable's seeding (native/driver/ngcc_hw.c with -DNGCC_HW_KAT=1), inputs in the order 0, 37, 74, ...
    const main = join(work, "kat-inputs.c");
    writeFileSync(
      main,
      [
        "#include <stdio.h>",
        "#include <stdlib.h>",
        '#include "api.h"',
        '#include "ngcc_hw.h"',
        'const char ngcc_program[] = "kat-inputs";',
        "int main(void) {",
        "    static unsigned char pk[PQCLEAN_MLKEM768_CLEAN_CRYPTO_PUBLICKEYBYTES], sk[PQCLEAN_MLKEM768_CLEAN_CRYPTO_SECRETKEYBYTES];",
        "    unsigned i, k;",
        "    for (i = 0; i < 100; i++) {",
        "        unsigned idx = (i * 37u) % 100u;",
        "        ngcc_hw_kat_seed(idx);",
        "        if (PQCLEAN_MLKEM768_CLEAN_crypto_kem_keypair(pk, sk) != 0) return 1;",
        '        printf("%u ", idx);',
        '        for (k = 0; k < sizeof pk; k++) printf("%02X", pk[k]);',
        '        printf("\\n");',
        "    }",
        "    return 0;",
        "}",
      ].join("\n"),
    );
    const program = join(work, "kat-inputs");
    gcc([
      "-D_GNU_SOURCE",
      "-DNGCC_CATEGORY_KEM",
      "-DNGCC_HW_KAT=1",
      "-I",
      join(repoRoot, "native/driver"),
      "-I",
      nativeIncludeDir,
      main,
      join(repoRoot, "native/driver/ngcc_hw.c"),
      join(repoRoot, "native/common/ngcc_common.c"),
      ...sources,
      ...common,
      "-o",
      program,
    ]);
    const ours = spawnSync(program, [], { encoding: "utf8", maxBuffer: 64 << 20 });
    expect(ours.status, ours.stderr).toBe(0);
    const lines = ours.stdout.trim().split("\n");
    expect(lines).toHaveLength(100);
    for (const line of lines) {
      const [idx, pk] = line.split(" ");
      expect(pk === katPk.get(Number(idx)), `input ${idx}`).toBe(true);
    }
  }, 300_000);

  it("PQClean ML-DSA-44 sign over the KAT-seed inputs: the rejection loop's allocations differ from input to input, the record's figure is their maximum, and input i's figure is the same in every run and whatever number of inputs ran", async () => {
    const b = await built("ml-dsa-44", "pqclean: ml-dsa-44", "");
    const run = (n: number) => memory(b.memoryDriver, "sign", ["--measure", "highwater", "--inputs", String(n)]);
    const all = run(100);
    const allocs = all.heapAllocationsPerInput ?? [];
    expect(allocs).toHaveLength(100);
    // Each signing attempt hashes with fresh Keccak contexts: more attempts, more allocations.
    expect(Math.min(...allocs)).toBeLessThan(Math.max(...allocs));
    expect(all.heapAllocations).toBe(Math.max(...allocs));
    expect(run(100).heapAllocationsPerInput).toEqual(allocs);
    expect(run(10).heapAllocationsPerInput).toEqual(allocs.slice(0, 10));
  }, 300_000);

  it("PQClean ML-KEM-768 over the 100 KAT-seed inputs: heap peak and allocations equal to, stack within 5 % of, the maxima of bench/stack-check.c over the same inputs", async () => {
    const b = await built("ml-kem-768", "pqclean: ml-kem-768", "");
    const scheme = join(pqcleanDir, "crypto_kem/ml-kem-768/clean");
    const sources = readdirSync(scheme)
      .filter((f) => f.endsWith(".c"))
      .map((f) => join(scheme, f));
    // The profile's flags (guide: -O3 -fomit-frame-pointer), as the driver's instance objects get them; the
    // independent programs' own KAT DRBG over PQClean's common/aes.c (-DPQ_KAT_RNG) in place of randombytes.c.
    const program = (name: string, extra: string[]) => {
      const out = join(work, name);
      const cc = spawnSync(
        "gcc",
        [
          "-std=c99",
          "-O3",
          "-fomit-frame-pointer",
          "-DNS=PQCLEAN_MLKEM768_CLEAN_",
          "-DPQ_KAT_RNG",
          "-I",
          scheme,
          "-I",
          join(pqcleanDir, "common"),
          ...extra,
          join(repoRoot, "bench/stack-check.c"),
          ...sources,
          join(pqcleanDir, "common/fips202.c"),
          join(pqcleanDir, "common/aes.c"),
          ...(extra.length ? ["-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"] : []),
          "-o",
          out,
          "-lpthread",
        ],
        { encoding: "utf8" },
      );
      expect(cc.status, cc.stderr).toBe(0);
      return out;
    };
    const stackCheck = program("stack-check", []);
    const heapCheck = program("heap-check", ["-DHEAP_WRAP"]);
    const lines = (argv: string[]) => {
      const r = spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.trim().split("\n");
    };
    // The independent program's inputs are the KAT's: its count 0 hashes to PQClean's published nistkat SHA-256.
    const single = spawnSync(stackCheck, ["--kat-single"], { encoding: "utf8" });
    expect(single.status, single.stderr).toBe(0);
    const published = JSON.parse(
      readFileSync(join(repoRoot, "fixtures/reference/pqclean-nistkat-sha256.json"), "utf8"),
    )["crypto_kem/ml-kem-768"];
    expect(createHash("sha256").update(single.stdout).digest("hex")).toBe(published);
    for (const op of ["keygen", "enc", "dec"]) {
      const m = memory(b.memoryDriver, op, ["--measure", "highwater", "--inputs", "100"]);
      expect(m.inputs, op).toEqual({ count: 100, asked: 100, limitedBy: "inputs", source: "kat-seeds" });
      // PQClean's common fips202.c keeps each Keccak state (25 × 8 bytes) in a malloc'ed context, freed after
      // use: one at a time, so the peak is exactly 200 bytes (PQC_SHAKECTX_BYTES), 208 (PQC_SHAKEINCCTX_BYTES, the
      // incremental SHAKE256 of dec's implicit-rejection key) in dec, over one allocation per hash or XOF call.
      expect(m.heapPeakBytes, op).toBe(op === "dec" ? 208 : 200);
      const heapRows = lines([heapCheck, "--heap", "--inputs", "100", op]).map((l) => l.split(" ").map(Number));
      expect(heapRows, op).toHaveLength(100);
      expect(m.heapPeakBytesPerInput, op).toEqual(heapRows.map((r) => r[0]));
      expect(m.heapAllocationsPerInput, op).toEqual(heapRows.map((r) => r[1]));
      expect(m.heapPeakBytes, op).toBe(Math.max(...heapRows.map((r) => r[0] as number)));
      expect(m.heapAllocations, op).toBe(Math.max(...heapRows.map((r) => r[1] as number)));
      expect(m.heapAllocations, op).toBeGreaterThan(0);
      // Repeatable: the same figures from a second process.
      expect(memory(b.memoryDriver, op, ["--measure", "highwater", "--inputs", "100"]).stackBytesPerInput, op).toEqual(
        m.stackBytesPerInput,
      );
      const stacks = lines([stackCheck, "--inputs", "100", op]).map(Number);
      expect(stacks, op).toHaveLength(100);
      const independent = Math.max(...stacks);
      expect(independent, op).toBeGreaterThan(1000);
      expect(
        Math.abs((m.stackBytes ?? 0) - independent) / independent,
        `${op}: ${m.stackBytes} vs ${independent}`,
      ).toBeLessThan(0.05);
    }
  }, 600_000);
});
