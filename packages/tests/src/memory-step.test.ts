// The memory step (issue 16, item 6): stack and heap high-water per operation as a step of its own, with
// memory records under memory/<alg>/<profile>/. Real builds of kem-90's Puffin-128: with -DPUFFIN_HEAP_DEMO its
// enc allocates exactly 5000 live bytes in 3 allocations, the step resumes (a second run writes nothing new),
// a keygen whose local array (-DPUFFIN_DEEP_STACK, 12 MiB) overruns the 8 MiB painted stack becomes a failure
// record, the time step's records keep only the RSS proxies, the step is off unless asked for or enabled, and
// two shards' stores merge into one.
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadCampaign, memoryCampaign, memoryLimits, resolveCampaign } from "@ngcc-perf/runner";
import { type CodeSizeRecord, type MemoryRecord, recordPath, type TimingRecord, validateFile } from "@ngcc-perf/schema";
import { afterAll, describe, expect, it } from "vitest";
import { iccsDir, makeTempDir, runCliAsync, submissionsDir } from "./fixture-tools.ts";

const work = makeTempDir("ngcc-memory-step-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const OPS = ["keygen", "enc", "dec"] as const;

/** A campaign over kem-90's Puffin-128 under one profile with these flags. */
function campaign(name: string, cflags: string[], extra: string[] = []): string {
  const file = join(work, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `buildProfiles: { p: { cflags: ${JSON.stringify(cflags)} } }`,
      ...extra,
      "algorithms:",
      `  - { id: kem-90, source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} }, instances: [Puffin-128] }`,
    ].join("\n"),
  );
  return file;
}

const keyOf = (operation: string) => ({
  system: "test_1",
  algorithmId: "kem-90",
  instance: "Puffin-128",
  buildProfile: "p",
  operation,
});

function read<T>(out: string, kind: "memory" | "timing", operation: string): T {
  const file = recordPath(out, { kind, key: keyOf(operation) });
  expect(validateFile(file).errors).toEqual([]);
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

const run = (file: string, out: string, steps: string, more: string[] = []) =>
  runCliAsync(["run", file, "--out", out, "--steps", steps, ...more], { timeoutMs: 300_000 });

describe("the memory step", () => {
  it("writes a memory record per operation (Puffin's heap demo: 5000 bytes in 3 allocations) and resumes", async () => {
    const file = campaign("heap", ["-O2", "-DPUFFIN_HEAP_DEMO"]);
    const out = join(work, "out-heap");
    const r = await run(file, out, "memory");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/memory: 3 done, 0 failed, 0 skipped \(of 3\)/);
    const recs = OPS.map((op) => read<MemoryRecord>(out, "memory", op));
    for (const rec of recs) {
      expect(rec.status, rec.operation).toBe("ok");
      expect(rec.stackBytes, rec.operation).toBeGreaterThan(0);
      expect((rec.stackBytes ?? 1) % 8).toBe(0);
      expect(rec.stackBaselineBytes).toBeGreaterThan(0);
      expect(rec.method?.stack).toMatchObject({ regionBytes: 8 << 20, pattern: "0x6e6763635f73746b" });
      expect(rec.method?.heap?.functions).toEqual([
        "malloc",
        "calloc",
        "realloc",
        "free",
        "posix_memalign",
        "aligned_alloc",
      ]);
      expect(rec.limits).toBeUndefined();
      expect(rec.build?.artifact).toMatch(/ngcc-driver-memory$/);
      // The memory executable's run skips the RSS figures.
      expect(rec.commands?.[0]?.argv.slice(1)).toEqual([
        "memory",
        "--op",
        rec.operation,
        "--measure",
        "highwater",
        "--inputs",
        "100",
        "--time-limit-ns",
        String(120_000 * 250_000),
        "--msg-bytes",
        "32",
      ]);
      // Over the 100 KAT-seed inputs, each input's figures kept (the section sizes are the code-size record's).
      expect(rec.inputs).toMatchObject({ count: 100, asked: 100, limitedBy: "inputs", source: "kat-seeds" });
      expect(rec.distribution?.stackBytes?.values).toHaveLength(100);
      expect(rec.distribution?.stackBytes?.max).toBe(rec.stackBytes);
      expect(rec.distribution?.heapPeakBytes?.max).toBe(rec.heapPeakBytes);
      expect(rec.sections).toBeUndefined();
    }
    const enc = recs[1] as MemoryRecord;
    expect({ peak: enc.heapPeakBytes, allocations: enc.heapAllocations }).toEqual({ peak: 5000, allocations: 3 });
    expect({ peak: recs[0]?.heapPeakBytes, allocations: recs[0]?.heapAllocations }).toEqual({
      peak: 0,
      allocations: 0,
    });
    // --resume: every record is current, nothing is run or written again.
    const before = OPS.map((op) => statSync(recordPath(out, { kind: "memory", key: keyOf(op) })).mtimeMs);
    const again = await run(file, out, "memory", ["--resume"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/memory: 0 done, 0 failed, 3 skipped \(of 3\)/);
    expect(OPS.map((op) => statSync(recordPath(out, { kind: "memory", key: keyOf(op) })).mtimeMs)).toEqual(before);
    // The time step's records keep the seeds' proxies only: no stack or heap figure (their home is the memory record).
    const timed = await run(file, out, "time", ["--quick"]);
    expect(timed.code, timed.stderr).toBe(0);
    for (const op of OPS) {
      const t = read<TimingRecord>(out, "timing", op);
      expect(t.status).toBe("ok");
      expect(Object.keys(t.memory ?? {}).sort()).toEqual(["baselineRssKiB", "elfImageBytes", "peakRssKiB"]);
      const argv = t.commands?.at(-1)?.argv ?? [];
      expect(argv[0]).toMatch(/ngcc-driver$/);
      expect(argv.slice(1, 5)).toEqual(["memory", "--op", op, "--measure"]);
      expect(argv[5]).toBe("rss");
    }
    // The code-size step: one record of the instance, the section sizes of Puffin's own objects (the ICCS DRNG
    // stand-in, replaced by the KAT DRBG, not among them) beside the timed shared library's loadable image.
    const sized = await run(file, out, "code-size");
    expect(sized.code, sized.stderr).toBe(0);
    expect(sized.stderr).toMatch(/code-size: 1 done, 0 failed, 0 skipped \(of 1\)/);
    const { operation: _op, ...instanceKey } = keyOf("keygen");
    const sizeFile = recordPath(out, { kind: "code-size", key: instanceKey });
    expect(validateFile(sizeFile).errors).toEqual([]);
    const size = JSON.parse(readFileSync(sizeFile, "utf8")) as CodeSizeRecord;
    expect(size).toMatchObject({ kind: "code-size", status: "ok", instance: "Puffin-128", buildProfile: "p" });
    expect(size).not.toHaveProperty("operation");
    expect(size.sections?.textBytes).toBeGreaterThan(0);
    expect(size.sections?.objects).not.toContain("drng.o");
    expect(size.image?.elfImageBytes).toBe(read<TimingRecord>(out, "timing", "keygen").memory?.elfImageBytes);
    expect(size.build?.artifact).toMatch(/libinstance\.so$/);
    const resumed = await run(file, out, "code-size", ["--resume"]);
    expect(resumed.stderr).toMatch(/code-size: 0 done, 0 failed, 1 skipped \(of 1\)/);
  }, 300_000);

  it("a call that overruns the painted stack becomes a failure record (crash), the step exits 1", async () => {
    const out = join(work, "out-deep");
    const r = await run(campaign("deep", ["-O2", "-DPUFFIN_DEEP_STACK=12582912"]), out, "memory");
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/internal error/);
    const keygen = read<MemoryRecord>(out, "memory", "keygen");
    expect(keygen.status).toBe("failed");
    expect(keygen.failure).toMatchObject({ reason: "crash", message: expect.stringMatching(/SIGSEGV/) });
    expect(keygen.stackBytes).toBeUndefined();
    expect(keygen.commands?.[0]?.signal).toBe("SIGSEGV");
  }, 300_000);

  it("off unless asked for (--steps memory) or enabled in the campaign", async () => {
    const off = await memoryCampaign(resolveCampaign(loadCampaign(campaign("plain", ["-O2"]))), {
      out: join(work, "out-off"),
    });
    expect(off).toMatchObject({ planned: 0, records: 0, failed: 0, notes: ["off in this campaign"] });
    const enabled = campaign("enabled", ["-O2"], ["memory: { enabled: true }"]);
    const on = await memoryCampaign(resolveCampaign(loadCampaign(enabled)), { out: join(work, "out-on") });
    expect(on).toMatchObject({ planned: 3, records: 3, failed: 0 });
  }, 300_000);

  it("shards by instance, and the shards' stores merge into one with every memory record", async () => {
    const file = join(work, "shards.yaml");
    writeFileSync(
      file,
      [
        "name: shards",
        "system: test_1",
        `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
        'buildProfiles: { p: { cflags: ["-O2"] } }',
        "algorithms:",
        `  - { id: kem-90, source: { submission: ${JSON.stringify(join(submissionsDir, "kem-90"))} }, instances: [Puffin-128, Puffin-192] }`,
      ].join("\n"),
    );
    const shards = [join(work, "shard-1"), join(work, "shard-2")];
    for (const [i, out] of shards.entries()) {
      const r = await run(file, out, "memory", ["--shard", `${i + 1}/2`]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/memory: 3 done, 0 failed, 0 skipped \(of 3\)/);
    }
    const merged = join(work, "merged");
    const m = await runCliAsync(["merge", ...shards, "--out", merged]);
    expect(m.code, m.stderr).toBe(0);
    for (const instance of ["Puffin-128", "Puffin-192"])
      for (const operation of OPS) {
        const f = recordPath(merged, { kind: "memory", key: { ...keyOf(operation), instance } });
        expect(validateFile(f).errors).toEqual([]);
        expect((JSON.parse(readFileSync(f, "utf8")) as MemoryRecord).status).toBe("ok");
      }
  }, 300_000);

  it("says in limits what a build could not give or gave differently", () => {
    expect(memoryLimits(["-O2"], true, true)).toEqual([]);
    expect(memoryLimits(["-O2", "-flto"], true, false)).toEqual([
      "no heap figure: under -flto the objects hold compiler IR whose allocation calls objcopy cannot rename",
    ]);
    expect(memoryLimits(["-fsanitize=address,undefined"], true, true)[0]).toMatch(
      /^the stack figure is the AddressSanitizer build's/,
    );
    expect(memoryLimits(["-fsanitize=undefined"], true, true)).toEqual([]);
    expect(memoryLimits(["-fsanitize=address"], false, true)[0]).toMatch(/^no stack figure: AddressSanitizer/);
  });
});
