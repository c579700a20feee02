// The native timing driver (native/driver) built as the runner builds it: the instance's sources compiled
// without -fPIC and linked straight into the driver, per category. Real PQClean (ML-KEM-512, ML-DSA-44), the
// fixture submissions (Puffin kem-90, Quill sig-91, Wren sig-93, Heron kex-92), bad submissions made from them
// (fixture-tools.ts) and tiny fake KEMs made here to exercise the failure paths; and the runner's own
// buildInstance. Timing values are never asserted: the shape of the output, the driver's rules from its own
// estimates, and (through a link-time wrapper around crypto_sign) what the timed calls were given.

import { execFile, type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  addsPerCycle,
  elfLoadSize,
  loadCampaign,
  resolveAlgorithms,
  buildInstance as runnerBuildInstance,
  toolchain,
} from "@ngcc-perf/runner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getInstance,
  ICCS_DRNG_SOURCES,
  ICCS_HASH_SOURCES,
  loadSubmission,
  makeCrashInDec,
  makeOverflowInEnc,
  type Submission,
  submissionsDir,
} from "./fixture-tools.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const driverDir = join(root, "native/driver");
const includeDir = join(root, "native/include");
const pqclean = join(root, "node_modules/pqclean/deps/PQClean");
const iccs = join(root, "fixtures/iccs");
const heron = join(root, "fixtures/submissions/kex-92/Reference_Implementation");
const commonDir = join(root, "native/common");
const cSources = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".c"))
    .sort()
    .map((f) => join(dir, f));
/** The driver's sources as the runner compiles them: native/driver and the shared helpers of native/common. */
const driverSources = [...cSources(driverDir), ...cSources(commonDir)];
const warnings = ["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wvla", "-Wmissing-prototypes", "-Werror"];
const sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g"];
const short = ["--trials", "3", "--min-iterations", "5", "--target-ns", "1000000", "--warmup-ns", "2000000"];
/** A short `sample`: 5 ms of samples after a 2 ms warm-up (at least 31 samples). */
const brief = ["--sample-ns", "5000000", "--warmup-ns", "2000000"];
/** For sanitizer builds: fewer samples. */
const briefer = ["--sample-ns", "1000000", "--warmup-ns", "1000000", "--min-samples", "5"];

type Category = "KEM" | "SIGN" | "KEX";
interface Instance {
  name: string;
  category: Category;
  namespace?: string;
  apiDir: string; // where api.h is
  includes: string[];
  sources: string[];
  cflags?: string[];
  /** Extra inputs of the driver's link (objects, -Wl flags). */
  link?: string[];
}

const pqcleanInstance = (kind: "kem" | "sign", scheme: string, namespace: string): Instance => {
  const dir = join(pqclean, `crypto_${kind}`, scheme, "clean");
  return {
    name: scheme,
    category: kind === "kem" ? "KEM" : "SIGN",
    namespace,
    apiDir: dir,
    includes: [dir, join(pqclean, "common")],
    sources: [
      ...readdirSync(dir)
        .filter((f) => f.endsWith(".c"))
        .map((f) => join(dir, f)),
      join(pqclean, "common/fips202.c"),
      join(pqclean, "common/randombytes.c"),
    ],
  };
};

/** An instance of a fixture submission (its meta.json), with the ICCS stand-in (hashes and DRNG). */
const fixtureInstance = (sub: Submission, name: string, cflags: string[] = []): Instance => {
  const inst = getInstance(sub, name);
  const category = { kem: "KEM", sign: "SIGN", kex: "KEX" }[sub.meta.category] as Category;
  return {
    name,
    category,
    apiDir: join(sub.dir, inst.folder),
    includes: [...inst.includeDirs.map((d) => join(sub.dir, d)), iccs],
    sources: [...inst.sources.map((f) => join(sub.dir, f)), ...ICCS_HASH_SOURCES, ...ICCS_DRNG_SOURCES],
    cflags: [...inst.defines.map((d) => `-D${d}`), ...cflags],
  };
};

const heronInstance = (param: string): Instance => ({
  name: param,
  category: "KEX",
  apiDir: join(heron, param),
  includes: [join(heron, param), join(heron, "common"), iccs],
  sources: [
    ...readdirSync(join(heron, "common"))
      .filter((f) => f.endsWith(".c"))
      .map((f) => join(heron, "common", f)),
    ...["drng.c", "pseudo.c", "sm3.c"].map((f) => join(iccs, f)),
  ],
});

// A toy KEM with the plain NIST names: sk = pk, ss = pk XOR FNV-1a(ct). Variants break dec on purpose.
const fakeApi = `#define CRYPTO_PUBLICKEYBYTES 64
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_CIPHERTEXTBYTES 96
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "fake-kem"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
`;
const fakeKem = `#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "api.h"
static unsigned long long fake_state = 88172645463325252ull;
static void fake_fill(unsigned char *out, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        fake_state ^= fake_state << 13; fake_state ^= fake_state >> 7; fake_state ^= fake_state << 17;
        out[i] = (unsigned char)fake_state;
    }
}
static void fake_ss(unsigned char *ss, const unsigned char *ct, const unsigned char *key) {
    unsigned long long h = 14695981039346656037ull;
    size_t i;
    for (i = 0; i < CRYPTO_CIPHERTEXTBYTES; i++) { h = (h ^ ct[i]) * 1099511628211ull; }
    for (i = 0; i < CRYPTO_BYTES; i++) { ss[i] = (unsigned char)(key[i] ^ (h >> (8 * (i % 8)))); }
}
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) {
#if defined(FAKE_CHATTY)
    printf("fake-kem: a new key pair\\n");
#endif
    fake_fill(pk, CRYPTO_PUBLICKEYBYTES);
    memcpy(sk, pk, CRYPTO_SECRETKEYBYTES);
    return 0;
}
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
    fake_fill(ct, CRYPTO_CIPHERTEXTBYTES);
    fake_ss(ss, ct, pk);
    return 0;
}
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
#if defined(FAKE_SEGV)
    static int *volatile nowhere = NULL;
    *nowhere = 1;
#endif
    fake_ss(ss, ct, sk);
#if defined(FAKE_OVERFLOW)
    ss[CRYPTO_BYTES] = 0; /* CRYPTO_BYTES + 1 bytes written */
#endif
#if defined(FAKE_WRONG)
    ss[0] ^= 1;
#endif
#if defined(FAKE_CTWRITE)
    ((unsigned char *)ct)[CRYPTO_CIPHERTEXTBYTES] = 0; /* writes past the (const) ciphertext it was given */
#endif
#if defined(FAKE_FAIL)
    return -1;
#endif
    return 0;
}
`;

// Test only, linked with -Wl,--wrap=crypto_sign into a Wren (sig-93, -DWREN_COUNT_ROUNDS) driver: counts the
// driver's crypto_sign calls, the distinct messages and secret keys they were given and the distinct numbers of
// rejection rounds they took, and prints them on stderr when the driver exits.
const signWrap = `#include <stdio.h>
#include <stdlib.h>
#include "api.h"
extern unsigned long wren_sign_rounds;
int __real_crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen,
                       const unsigned char *sk);
int __wrap_crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen,
                       const unsigned char *sk);
#define WRAP_MAX 1000000
static unsigned long long wrap_m[WRAP_MAX], wrap_sk[WRAP_MAX], wrap_rounds[WRAP_MAX];
static size_t wrap_n;
static unsigned long long wrap_fnv(const unsigned char *p, unsigned long long n) {
    unsigned long long h = 14695981039346656037ull, i;
    for (i = 0; i < n; i++) { h = (h ^ p[i]) * 1099511628211ull; }
    return h;
}
static int wrap_cmp(const void *a, const void *b) {
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return (x > y) - (x < y);
}
static size_t wrap_distinct(unsigned long long *v) {
    size_t i, d = 0;
    qsort(v, wrap_n, sizeof v[0], wrap_cmp);
    for (i = 0; i < wrap_n; i++) { d += i == 0 || v[i] != v[i - 1]; }
    return d;
}
static void wrap_report(void) {
    unsigned long calls = (unsigned long)wrap_n, m = (unsigned long)wrap_distinct(wrap_m);
    unsigned long sk = (unsigned long)wrap_distinct(wrap_sk), rounds = (unsigned long)wrap_distinct(wrap_rounds);
    fprintf(stderr, "wrap {\\"calls\\":%lu,\\"messages\\":%lu,\\"keys\\":%lu,\\"roundCounts\\":%lu}\\n", calls, m, sk,
            rounds);
}
int __wrap_crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen,
                       const unsigned char *sk) {
    static int registered = 0;
    int rc;
    if (!registered) { registered = 1; atexit(wrap_report); }
    rc = __real_crypto_sign(sm, smlen, m, mlen, sk);
    if (wrap_n < WRAP_MAX) {
        wrap_m[wrap_n] = wrap_fnv(m, mlen);
        wrap_sk[wrap_n] = wrap_fnv(sk, CRYPTO_SECRETKEYBYTES);
        wrap_rounds[wrap_n] = wren_sign_rounds;
        wrap_n++;
    }
    return rc;
}
`;

let work = "";
const exe = new Map<string, string>(); // instance name -> driver path
const objects = new Map<Category, string>(); // category -> directory of driver objects

async function pool<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      const task = tasks[i];
      if (task) results[i] = await task();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

// The build contract of the runner (packages/runner/src/build.ts): the instance's sources compiled without
// -fPIC into objects, linked straight into the driver (no shared object between the driver and the timed code).
async function build(inst: Instance, key: string, extra: string[] = []): Promise<void> {
  const dir = join(work, key);
  const obj = join(dir, "obj");
  mkdirSync(obj, { recursive: true });
  const cflags = [...(inst.cflags ?? []), ...extra];
  await run("gcc", ["-std=c99", "-O2", ...cflags, ...inst.includes.map((i) => `-I${i}`), "-c", ...inst.sources], {
    cwd: obj,
  });
  const objects = readdirSync(obj)
    .filter((f) => f.endsWith(".o"))
    .sort()
    .map((f) => join(obj, f));
  const out = join(dir, "ngcc-driver");
  await run("gcc", [
    "-std=c99",
    "-O2",
    "-D_GNU_SOURCE",
    ...warnings,
    ...extra,
    `-I${inst.apiDir}`,
    `-I${includeDir}`,
    `-I${driverDir}`,
    `-DNGCC_CATEGORY_${inst.category}`,
    ...(inst.namespace ? [`-DNGCC_NAMESPACE=${inst.namespace}`] : []),
    ...driverSources,
    ...objects,
    ...(inst.link ?? []),
    "-o",
    out,
    "-lm",
  ]);
  exe.set(key, out);
}

// The driver's own objects, for the symbol check.
async function compileObjects(inst: Instance): Promise<void> {
  const dir = join(work, `objects-${inst.category}`);
  mkdirSync(dir, { recursive: true });
  const defs = [`-DNGCC_CATEGORY_${inst.category}`, ...(inst.namespace ? [`-DNGCC_NAMESPACE=${inst.namespace}`] : [])];
  const inc = [`-I${inst.apiDir}`, `-I${includeDir}`, `-I${driverDir}`];
  await run("gcc", ["-std=c99", "-O2", "-D_GNU_SOURCE", ...warnings, ...inc, ...defs, "-c", ...driverSources], {
    cwd: dir,
  });
  objects.set(inst.category, dir);
}

const mlkem = pqcleanInstance("kem", "ml-kem-512", "PQCLEAN_MLKEM512_CLEAN_");
const mldsa = pqcleanInstance("sign", "ml-dsa-44", "PQCLEAN_MLDSA44_CLEAN_");
const heron1 = heronInstance("Heron-128");
const heron2 = heronInstance("Heron-2P-128");
const puffin = () => fixtureInstance(loadSubmission(join(submissionsDir, "kem-90")), "Puffin-128");
const quillV = () => fixtureInstance(loadSubmission(join(submissionsDir, "sig-91")), "Quill-V-192");
const wren = (cflags: string[] = []) =>
  fixtureInstance(loadSubmission(join(submissionsDir, "sig-93")), "Wren-128", cflags);
const fake = (variant: string): Instance => ({
  name: `fake-${variant}`,
  category: "KEM",
  apiDir: join(work, "fake-src"),
  includes: [join(work, "fake-src")],
  sources: [join(work, "fake-src", "fake.c")],
  cflags: variant === "ok" ? [] : [`-DFAKE_${variant.toUpperCase()}`],
});

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "ngcc-driver-test-"));
  mkdirSync(join(work, "fake-src"));
  writeFileSync(join(work, "fake-src", "api.h"), fakeApi);
  writeFileSync(join(work, "fake-src", "fake.c"), fakeKem);
  mkdirSync(join(work, "wrap-src"));
  writeFileSync(join(work, "wrap-src", "sign_wrap.c"), signWrap);
  const wrenWrapped = wren(["-DWREN_COUNT_ROUNDS"]);
  const wrapObject = join(work, "wrap-src", "sign_wrap.o");
  wrenWrapped.link = [wrapObject, "-Wl,--wrap=crypto_sign"];
  const badRoot = join(work, "bad");
  const crashing = fixtureInstance(makeCrashInDec(join(badRoot, "crash")).sub, "Puffin-128");
  const overflowing = fixtureInstance(makeOverflowInEnc(join(badRoot, "overflow")).sub, "Puffin-128");
  const tasks: Array<() => Promise<void>> = [
    () => build(mlkem, "mlkem"),
    () => build(mldsa, "mldsa"),
    () => build(mlkem, "mlkem-asan", sanitize),
    () => build(heron2, "heron2-asan", sanitize),
    () => build(heron1, "heron1"),
    () => build(heron2, "heron2"),
    () => build(puffin(), "puffin"),
    () => build(quillV(), "quillv"),
    () => build(wren(), "wren"),
    () => build(wren(), "wren-asan", sanitize),
    async () => {
      await run("gcc", ["-std=c99", "-O2", ...warnings, `-I${wrenWrapped.apiDir}`, "-c", "sign_wrap.c"], {
        cwd: join(work, "wrap-src"),
      });
      await build(wrenWrapped, "wren-wrap");
    },
    () => build(crashing, "puffin-crash-dec"),
    () => build(overflowing, "puffin-overflow-enc"),
    ...["ok", "overflow", "wrong", "segv", "fail", "chatty", "ctwrite"].map((v) => () => build(fake(v), `fake-${v}`)),
    () => compileObjects(mlkem),
    () => compileObjects(mldsa),
    () => compileObjects(heron2),
  ];
  await pool(tasks, Math.max(2, availableParallelism()));
}, 300_000);

afterAll(() => {
  if (work && existsSync(work)) rmSync(work, { recursive: true, force: true });
});

function driver(key: string, args: string[]): SpawnSyncReturns<string> {
  const path = exe.get(key);
  if (!path) throw new Error(`driver ${key} was not built`);
  return spawnSync(path, args, {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, ASAN_OPTIONS: "detect_leaks=1:abort_on_error=0", UBSAN_OPTIONS: "print_stacktrace=1" },
  });
}

// biome-ignore lint/suspicious/noExplicitAny: driver output is read untyped and checked field by field.
function json(key: string, args: string[]): any {
  const r = driver(key, args);
  expect(r.status, `${key} ${args.join(" ")}\n${r.stderr}`).toBe(0);
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

const counterKeys = ["kind", "unit", "rateHz", "overhead", "serialization", "description"];

// biome-ignore lint/suspicious/noExplicitAny: see json().
function expectTiming(out: any, op: string): void {
  expect(out.op).toBe(op);
  expect(Object.keys(out.counter).sort()).toEqual([...counterKeys].sort());
  expect(out.counter.kind).toBe(process.arch === "arm64" ? "cntvct" : "rdtsc");
  expect(out.counter.unit).toBe(process.arch === "arm64" ? "timer-ticks" : "tsc-ticks");
  expect(out.counter.rateHz).toBeGreaterThan(0);
  expect(out.counter.overhead).toBeGreaterThanOrEqual(0);
  expect(out.warmupIterations).toBeGreaterThanOrEqual(1);
  expect(out.iterationsPerTrial).toBeGreaterThanOrEqual(5);
  expect(out.trials).toHaveLength(3);
  for (const t of out.trials) {
    expect(Object.keys(t).sort()).toEqual(["counterDelta", "iterations", "ns"]);
    expect(t.iterations).toBe(out.iterationsPerTrial);
    expect(Number.isInteger(t.counterDelta)).toBe(true);
    expect(t.counterDelta).toBeGreaterThan(0);
    expect(t.ns).toBeGreaterThan(0);
  }
  expect(out.pinnedCpu).toBeNull();
  expect(out.messageBytes).toBe(32);
}

const sampleKeys = [
  "batch",
  "batchReason",
  "counter",
  "elapsedNs",
  "estimateNs",
  "inputs",
  "messageBytes",
  "op",
  "pinnedCpu",
  "samples",
  "samplesLimitedBy",
  "settings",
  "warmupCalls",
];

/** The driver's batch rule (ngcc_driver.c), from its own estimate and counter overhead (floored at one tick). */
// biome-ignore lint/suspicious/noExplicitAny: see json().
function expectedBatch(out: any): number {
  const overheadNs = (Math.max(out.counter.overhead, 1) * 1e9) / out.counter.rateHz;
  const est = Math.max(out.estimateNs, 0.01);
  return est >= 1000 * overheadNs ? 1 : Math.ceil((1000 * overheadNs) / est);
}

/** The driver's sample-count rule: enough samples to last --sample-ns, within [--min-samples, --max-samples]. */
// biome-ignore lint/suspicious/noExplicitAny: see json().
function expectedSamples(out: any): { n: number; limitedBy: string } {
  const { sampleNs, minSamples, maxSamples } = out.settings;
  const need = Math.ceil(sampleNs / (Math.max(out.estimateNs, 0.01) * out.batch));
  if (need > maxSamples) return { n: maxSamples, limitedBy: "max-samples" };
  if (need <= minSamples) return { n: minSamples, limitedBy: "min-samples" };
  return { n: need, limitedBy: "sample-ns" };
}

/** A number the driver printed with 10 significant digits and recomputed here: equal, or off by one at an edge. */
const nearly = (a: number, b: number) => Math.abs(a - b) <= 1;

// biome-ignore lint/suspicious/noExplicitAny: see json().
function expectSample(out: any, op: string, counter = process.arch === "arm64" ? "cntvct" : "rdtsc"): void {
  expect(out.op).toBe(op);
  expect(
    Object.keys(out)
      .filter((k) => k !== "lengths" && k !== "clockChain" && k !== "throughputChain" && k !== "switchedOut")
      .sort(),
  ).toEqual(sampleKeys);
  // The samples the process was switched out in (context switches read around each sample), when there were any.
  if ("switchedOut" in out) {
    expect(out.switchedOut.length).toBeGreaterThan(0);
    out.switchedOut.forEach((i: number, k: number) => {
      expect(Number.isInteger(i) && i >= 0 && i < out.samples.length).toBe(true);
      if (k > 0) expect(i).toBeGreaterThan(out.switchedOut[k - 1]);
    });
  }
  // The core-clock probe after every sample: on by default for the reference-rate counters, absent for the others
  // (or when --clock-chain none asked).
  if ("clockChain" in out) {
    expect(["rdtsc", "cntvct", "clock_gettime"]).toContain(counter);
    expect(Object.keys(out.clockChain).sort()).toEqual(["adds", "deltas"]);
    expect(out.clockChain.adds % 8).toBe(0);
    expect(out.clockChain.deltas).toHaveLength(out.samples.length);
    for (const d of out.clockChain.deltas) expect(Number.isInteger(d) && d > 0).toBe(true);
    // The contention probe goes with it: the same adds (rounded down to 32) on 4 independent chains.
    expect(Object.keys(out.throughputChain).sort()).toEqual(["adds", "chains", "deltas"]);
    expect(out.throughputChain.adds).toBe(Math.max(32, out.clockChain.adds - (out.clockChain.adds % 32)));
    expect(out.throughputChain.chains).toBe(4);
    expect(out.throughputChain.deltas).toHaveLength(out.samples.length);
    for (const d of out.throughputChain.deltas) expect(Number.isInteger(d) && d > 0).toBe(true);
  } else {
    expect(["perf-cycles", "perf-instructions", "fixed-clock"]).toContain(counter);
    expect("throughputChain" in out).toBe(false);
  }
  expect("lengths" in out, "lengths only for sign").toBe(op === "sign");
  expect(Object.keys(out.counter).sort()).toEqual([...counterKeys].sort());
  expect(out.counter.kind).toBe(counter);
  expect(out.counter.rateHz).toBeGreaterThan(0);
  expect(out.estimateNs).toBeGreaterThan(0);
  expect(out.warmupCalls).toBeGreaterThanOrEqual(1);
  expect(Object.keys(out.settings).sort()).toEqual(
    ["batch", "keys", "maxSamples", "minSamples", "pool", "sampleNs", "seed", "warmupNs"].sort(),
  );
  // The batch and its reason follow the rule from the driver's own estimate (unless --batch fixed it).
  expect(Number.isInteger(out.batch) && out.batch >= 1).toBe(true);
  if (out.settings.batch === "auto") {
    const rule = expectedBatch(out);
    expect(rule === 1 ? out.batch === 1 : nearly(out.batch, rule), `batch ${out.batch}, rule ${rule}`).toBe(true);
    expect(out.batchReason).toMatch(
      out.batch === 1
        ? /^single calls: a call \(about [\d.]+ ns\) is ≥ 1000 × the counter overhead \([\d.]+ ns\)$/
        : new RegExp(
            `^batches of ${out.batch}: a call \\(about [\\d.]+ ns\\) is shorter than 1000 × the counter overhead`,
          ),
    );
  } else {
    expect(out.batch).toBe(out.settings.batch);
    expect(out.batchReason).toMatch(/as --batch asked$/);
  }
  // Samples: raw counter deltas, as many as the rule says.
  const rule = expectedSamples(out);
  expect(out.samples.length).toBeGreaterThanOrEqual(out.settings.minSamples);
  expect(out.samples.length).toBeLessThanOrEqual(out.settings.maxSamples);
  expect(out.samplesLimitedBy).toBe(rule.limitedBy);
  expect(nearly(out.samples.length, rule.n), `${out.samples.length} samples, rule ${rule.n}`).toBe(true);
  for (const d of out.samples) {
    expect(Number.isInteger(d) && d >= 0).toBe(true);
  }
  expect(Object.keys(out.inputs).sort()).toEqual(["description", "keyPairs", "messages", "pool"]);
  expect(["fresh", "pool", "none"]).toContain(out.inputs.messages);
  expect(out.inputs.description.length).toBeGreaterThan(10);
  expect(out.elapsedNs.warmup).toBeGreaterThan(0);
  expect(out.elapsedNs.sampling).toBeGreaterThan(0);
  expect(out.messageBytes).toBe(32);
}

/** The wrapper's report (signWrap) from a wrapped Wren driver's stderr. */
function wrapReport(stderr: string): { calls: number; messages: number; keys: number; roundCounts: number } {
  const line = stderr.split("\n").find((l) => l.startsWith("wrap "));
  if (!line) throw new Error(`no wrapper report in:\n${stderr}`);
  return JSON.parse(line.slice(5));
}

describe("driver build", () => {
  it("exports only ngcc_-prefixed symbols (and main)", () => {
    for (const [category, dir] of objects) {
      const objs = readdirSync(dir)
        .filter((f) => f.endsWith(".o"))
        .map((f) => join(dir, f));
      const r = spawnSync("nm", ["-g", "--defined-only", "-P", ...objs], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const names = r.stdout
        .split("\n")
        .map((l) => l.trim().split(/\s+/))
        .filter((f) => f.length >= 2 && /^[A-Za-z]$/.test(f[1] ?? ""))
        .map((f) => f[0] ?? "");
      expect(names, category).toContain("main");
      expect(
        names.filter((n) => n !== "main" && !n.startsWith("ngcc_")),
        category,
      ).toEqual([]);
    }
  });
});

describe("ML-KEM-512 (PQClean, namespaced)", () => {
  it("info reads the API sizes", () => {
    const info = json("mlkem", ["info"]);
    expect(info).toMatchObject({
      category: "kem",
      algname: "ML-KEM-512",
      namespace: "PQCLEAN_MLKEM512_CLEAN_",
      sizes: { publicKeyBytes: 800, secretKeyBytes: 1632, ciphertextBytes: 768, sharedSecretBytes: 32 },
    });
    expect(info.counters).toContain("clock_gettime");
    expect(info.counters).toContain(info.defaultCounter);
  });

  it("check passes", () => {
    expect(json("mlkem", ["check", "--iterations", "20"])).toEqual({
      ok: true,
      iterations: 20,
      messageBytes: 32,
      lengths: {},
    });
  });

  for (const op of ["keygen", "enc", "dec"]) {
    it(`time --op ${op}`, () => {
      expectTiming(json("mlkem", ["time", "--op", op, ...short]), op);
    });
  }

  it("memory --op dec", () => {
    const m = json("mlkem", ["memory", "--op", "dec"]);
    expect(m.op).toBe("dec");
    expect(m.hwmReset).toBe(true);
    expect(m.baselineRssKiB).toBeGreaterThan(0);
    expect(m.peakRssKiB).toBeGreaterThanOrEqual(m.baselineRssKiB);
  });

  it("overhead, clock_gettime and fixed-clock counters", () => {
    const o = json("mlkem", ["overhead", "--counter", "clock_gettime"]);
    expect(o.counter).toMatchObject({ kind: "clock_gettime", unit: "ns", rateHz: 1e9 });
    const f = json("mlkem", [
      "time",
      "--op",
      "enc",
      "--counter",
      "fixed-clock",
      "--fixed-clock-hz",
      "2.71e9",
      ...short,
    ]);
    expect(f.counter).toMatchObject({ kind: "fixed-clock", unit: "core-cycles", rateHz: 2.71e9 });
    expect(f.trials[0].counterDelta).toBeGreaterThan(0);
    const p = json("mlkem", ["time", "--op", "keygen", "--pin", "0", "--counter", "clock_gettime", ...short]);
    expect(p.pinnedCpu).toBe(0);
    expect(p.counter.unit).toBe("ns");
  });

  it.each([
    ["perf-cycles", "core-cycles", "PERF_COUNT_HW_CPU_CYCLES"],
    ["perf-instructions", "instructions", "PERF_COUNT_HW_INSTRUCTIONS"],
  ])("%s works or fails with errno and exit 2", (counter, unit, event) => {
    const info = json("mlkem", ["info"]);
    const r = driver("mlkem", ["overhead", "--counter", counter]);
    if (info.counters.includes(counter)) {
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).counter.unit).toBe(unit);
    } else {
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(new RegExp(`counter ${counter}: perf_event_open\\(${event}\\).*errno \\d+`));
    }
  });

  it("usage errors exit 2", () => {
    for (const args of [
      [],
      ["frobnicate"],
      ["time"],
      ["time", "--op", "sign"],
      ["time", "--op", "dec", "--trials", "-1"],
      ["time", "--op", "dec", "--counter", "sundial"],
      ["time", "--op", "dec", "--counter", "fixed-clock"],
      ["check", "--op", "dec"],
      ["info", "--seed"],
      ["sample"],
      ["sample", "--op", "sign"],
      ["sample", "--op", "dec", "--batch", "0"],
      ["sample", "--op", "dec", "--batch", "some"],
      ["sample", "--op", "dec", "--keys", "0"],
      ["sample", "--op", "dec", "--pool", "0"],
      ["sample", "--op", "dec", "--min-samples", "10", "--max-samples", "5"],
      ["sample", "--op", "dec", "--max-samples", "10000001"],
      ["sample", "--op", "dec", "--trials", "3"],
      ["time", "--op", "dec", "--pool", "3"],
    ]) {
      const r = driver("mlkem", args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/ngcc-driver|usage/);
    }
  });

  it("sample: every operation, per call, over varied inputs", () => {
    const inputs: Record<string, object> = {
      keygen: { keyPairs: 0, pool: 0, messages: "none" },
      enc: {
        keyPairs: 4,
        pool: 0,
        messages: "none",
        description: "4 key pairs in rotation (call i uses public key i mod 4)",
      },
      dec: {
        keyPairs: 4,
        pool: 64,
        messages: "none",
        description: "a pool of 64 ciphertexts over 4 key pairs (ciphertext j under key pair j mod 4), in rotation",
      },
    };
    for (const [op, want] of Object.entries(inputs)) {
      const out = json("mlkem", ["sample", "--op", op, ...brief]);
      expectSample(out, op);
      expect(out.inputs).toMatchObject(want);
      expect(out.pinnedCpu).toBeNull();
      expect(out.settings).toMatchObject({
        sampleNs: 5e6,
        warmupNs: 2e6,
        minSamples: 31,
        maxSamples: 50000,
        batch: "auto",
      });
    }
  });

  it("sample lists the samples during which the process was switched out (a busy process on its CPU)", () => {
    // A busy process pinned to the driver's CPU: the scheduler shares the CPU between the two every few ms, so
    // some of 200 ms of samples are switched out — whatever the machine's load, and none in the timed figures.
    const busy = spawn("taskset", ["-c", "0", process.execPath, "-e", "for(;;){}"], { stdio: "ignore" });
    try {
      const d = json("mlkem", ["sample", "--op", "keygen", "--pin", "0", "--sample-ns", "200000000"]);
      expectSample(d, "keygen");
      expect(d.switchedOut?.length ?? 0).toBeGreaterThan(0);
      expect(d.switchedOut.length).toBeLessThan(d.samples.length);
    } finally {
      busy.kill("SIGKILL");
    }
  });

  it("sample: --keys, --pool, --seed, --pin, and the clock_gettime and fixed-clock counters", () => {
    const d = json("mlkem", [
      "sample",
      "--op",
      "dec",
      ...["--keys", "3", "--pool", "5", "--seed", "7", "--pin", "0", "--counter", "clock_gettime"],
      ...brief,
    ]);
    expectSample(d, "dec", "clock_gettime");
    expect(d.counter).toMatchObject({ unit: "ns", rateHz: 1e9 });
    expect(d.inputs).toEqual({
      keyPairs: 3,
      pool: 5,
      messages: "none",
      description: "a pool of 5 ciphertexts over 3 key pairs (ciphertext j under key pair j mod 3), in rotation",
    });
    expect(d.pinnedCpu).toBe(0);
    expect(d.settings).toMatchObject({ keys: 3, pool: 5, seed: 7 });
    // More key pairs than ciphertexts: the pool uses as many as it has ciphertexts.
    const few = json("mlkem", ["sample", "--op", "dec", "--keys", "8", "--pool", "2", ...brief]);
    expect(few.inputs).toMatchObject({ keyPairs: 2, pool: 2 });
    const f = json("mlkem", [
      "sample",
      "--op",
      "enc",
      "--counter",
      "fixed-clock",
      "--fixed-clock-hz",
      "2.71e9",
      ...brief,
    ]);
    expectSample(f, "enc", "fixed-clock");
    expect(f.counter).toMatchObject({ unit: "core-cycles", rateHz: 2.71e9 });
  });

  it("sample: a core-clock probe of --clock-chain adds after every sample; none turns it off, a bad value exits 2", () => {
    const probe = json("mlkem", ["sample", "--op", "enc", "--clock-chain", "80000", ...brief]);
    expectSample(probe, "enc");
    expect(probe.clockChain.adds).toBe(80000);
    const dflt = json("mlkem", ["sample", "--op", "enc", ...brief]);
    expect(dflt.clockChain.adds).toBe(16384);
    // A probe of five times the adds takes about five times the counter units: the chain runs as written. Medians,
    // as interference only adds time; 2.5–10 leaves room for a noisy machine and the counter's overhead.
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const ratio = med(probe.clockChain.deltas) / med(dflt.clockChain.deltas);
    expect(ratio).toBeGreaterThan(2.5);
    expect(ratio).toBeLessThan(10);
    // The contention probe's chains are independent: the same adds run in fewer counter units than on the one
    // dependent chain (1.5–4.5 adds per cycle: 4 chains on a core that issues up to 4 adds a cycle, minus what a
    // sibling thread takes), whatever the probe's length. The runner's figure (addsPerCycle) from the real output.
    for (const out of [probe, dflt]) {
      const perCycle = addsPerCycle(out.clockChain, out.throughputChain, out.counter);
      expect(perCycle).toBeGreaterThan(1.5);
      expect(perCycle).toBeLessThan(4.5);
    }
    const short = json("mlkem", ["sample", "--op", "enc", "--clock-chain", "40", ...brief]);
    expect(short.clockChain.adds).toBe(40);
    expect(short.throughputChain.adds).toBe(32);
    const off = json("mlkem", ["sample", "--op", "enc", "--clock-chain", "none", ...brief]);
    expect("clockChain" in off).toBe(false);
    expect("throughputChain" in off).toBe(false);
    const bad = driver("mlkem", ["sample", "--op", "enc", "--clock-chain", "3"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--clock-chain: expected none or an integer in \[8, 100000000\], got "3"/);
  });

  it("sample: the sample count follows --sample-ns within --min-samples and --max-samples; --batch fixes the batch", () => {
    const few = json("mlkem", ["sample", "--op", "enc", "--sample-ns", "1", "--warmup-ns", "0", "--min-samples", "7"]);
    expectSample(few, "enc");
    expect(few.samples).toHaveLength(7);
    expect(few.samplesLimitedBy).toBe("min-samples");
    const capped = json("mlkem", ["sample", "--op", "keygen", "--sample-ns", "1000000000", "--max-samples", "40"]);
    expectSample(capped, "keygen");
    expect(capped.samples).toHaveLength(40);
    expect(capped.samplesLimitedBy).toBe("max-samples");
    const fixed = json("mlkem", ["sample", "--op", "dec", "--batch", "3", "--sample-ns", "1", "--min-samples", "4"]);
    expectSample(fixed, "dec");
    expect(fixed).toMatchObject({ batch: 3, batchReason: "3 calls per sample, as --batch asked" });
    expect(fixed.settings.batch).toBe(3);
    expect(fixed.samples).toHaveLength(4);
  });
});

describe("ML-DSA-44 (PQClean, namespaced, size_t lengths)", () => {
  it("info reads the API sizes", () => {
    expect(json("mldsa", ["info"])).toMatchObject({
      category: "sign",
      algname: "ML-DSA-44",
      sizes: { publicKeyBytes: 1312, secretKeyBytes: 2560, signatureBytes: 2420 },
    });
  });

  it("check passes and reports signature lengths", () => {
    const c = json("mldsa", ["check", "--iterations", "10", "--msg-bytes", "59"]);
    expect(c).toMatchObject({ ok: true, iterations: 10, messageBytes: 59 });
    expect(c.lengths.signatureBytes).toEqual({ min: 2420, max: 2420, sum: 24200, count: 10 });
  });

  for (const op of ["keygen", "sign", "verify"]) {
    it(`time --op ${op}`, () => {
      const t = json("mldsa", ["time", "--op", op, ...short]);
      expectTiming(t, op);
      if (op === "sign") {
        const l = t.lengths.signatureBytes;
        expect(l.min).toBe(2420);
        expect(l.max).toBe(2420);
        expect(l.count).toBeGreaterThanOrEqual(3 * t.iterationsPerTrial);
        expect(l.sum).toBe(2420 * l.count);
      } else {
        expect(t.lengths).toBeUndefined();
      }
    });
  }

  it("sample: sign with a fresh message per call over 4 key pairs, verify over a pool of signed messages", () => {
    const k = json("mldsa", ["sample", "--op", "keygen", ...brief]);
    expectSample(k, "keygen");
    expect(k.inputs).toMatchObject({ keyPairs: 0, pool: 0, messages: "none" });
    const s = json("mldsa", ["sample", "--op", "sign", ...brief]);
    expectSample(s, "sign");
    expect(s.inputs).toEqual({
      keyPairs: 4,
      pool: 0,
      messages: "fresh",
      description: "a fresh 32-byte message per call, 4 key pairs in rotation",
    });
    const l = s.lengths.signatureBytes;
    expect(l).toMatchObject({ min: 2420, max: 2420 });
    expect(l.count).toBe(s.warmupCalls + s.samples.length * s.batch);
    expect(l.sum).toBe(2420 * l.count);
    const v = json("mldsa", ["sample", "--op", "verify", "--pool", "16", "--keys", "2", ...brief]);
    expectSample(v, "verify");
    expect(v.inputs).toMatchObject({ keyPairs: 2, pool: 16, messages: "pool" });
    expect(v.inputs.description).toMatch(
      /^a pool of 16 \(message, signature\) pairs over 2 key pairs \(32-byte messages/,
    );
    const m = json("mldsa", ["sample", "--op", "sign", "--msg-bytes", "59", ...brief]);
    expect(m.messageBytes).toBe(59);
    expect(m.inputs.description).toBe("a fresh 59-byte message per call, 4 key pairs in rotation");
  });

  it("memory --op sign", () => {
    const m = json("mldsa", ["memory", "--op", "sign"]);
    expect(m.baselineRssKiB).toBeGreaterThan(0);
    expect(m.peakRssKiB).toBeGreaterThanOrEqual(m.baselineRssKiB);
  });
});

describe("Quill (fixture sig-91, variable-length signatures)", () => {
  it("sample signs a fresh message per call: Quill-V-192's lengths vary, where time's one message gives one length", () => {
    const s = json("quillv", ["sample", "--op", "sign", ...brief]);
    expectSample(s, "sign");
    const l = s.lengths.signatureBytes;
    expect(l.count).toBe(s.warmupCalls + s.samples.length * s.batch);
    expect(l.min).toBeGreaterThan(0);
    expect(l.min).toBeLessThan(l.max);
    expect(l.max).toBeLessThanOrEqual(3074);
    const t = json("quillv", ["time", "--op", "sign", ...short]).lengths.signatureBytes;
    expect(t.min).toBe(t.max); // deterministic signing of one fixed message
  });

  it("sample verify over a pool of signed messages", () => {
    const v = json("quillv", ["sample", "--op", "verify", ...brief]);
    expectSample(v, "verify");
    expect(v.inputs).toMatchObject({ keyPairs: 4, pool: 64, messages: "pool" });
  });
});

describe("Wren (fixture sig-93, message-dependent signing time)", () => {
  it("sample: every operation", () => {
    for (const op of ["keygen", "sign", "verify"]) {
      const out = json("wren", ["sample", "--op", op, ...brief]);
      expectSample(out, op);
      if (op === "sign") expect(out.lengths.signatureBytes).toMatchObject({ min: 544, max: 544 });
    }
  });

  it("sample gives every sign call its own message, over the 4 key pairs, so the rejection rounds vary; time does not", () => {
    const r = driver("wren-wrap", ["sample", "--op", "sign", ...brief]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expectSample(out, "sign");
    const calls = out.warmupCalls + out.samples.length * out.batch;
    expect(out.lengths.signatureBytes.count).toBe(calls);
    const w = wrapReport(r.stderr);
    expect(w.calls).toBe(calls);
    expect(w.messages).toBe(calls); // a fresh message every call, warm-up included
    expect(w.keys).toBe(4);
    expect(w.roundCounts).toBeGreaterThanOrEqual(2); // so the per-call samples take several durations
    // The seeds' method signs one message with one key: every call takes the same rounds.
    const t = driver("wren-wrap", ["time", "--op", "sign", ...short]);
    expect(t.status, t.stderr).toBe(0);
    expect(wrapReport(t.stderr)).toMatchObject({ messages: 1, keys: 1, roundCounts: 1 });
    // verify's pool: 64 messages signed over 4 key pairs while preparing, none while sampling.
    const v = driver("wren-wrap", ["sample", "--op", "verify", ...brief]);
    expect(v.status, v.stderr).toBe(0);
    expect(wrapReport(v.stderr)).toMatchObject({ calls: 64, messages: 64, keys: 4 });
  });
});

describe("Heron key exchange (fixture kex-92)", () => {
  it("info reads the API sizes of the one- and two-pass instances", () => {
    expect(json("heron1", ["info"])).toMatchObject({
      category: "kex",
      algname: "Heron-128",
      namespace: null,
      sizes: { passes: 1, msg1Bytes: 832, msg2Bytes: 0, publicKeyBBytes: 800, sharedSecretBytes: 32 },
    });
    expect(json("heron2", ["info"]).sizes).toMatchObject({ passes: 2, msg1Bytes: 1632, msg2Bytes: 832 });
  });

  it("check passes", () => {
    expect(json("heron1", ["check", "--iterations", "10"]).ok).toBe(true);
    expect(json("heron2", ["check", "--iterations", "10"]).ok).toBe(true);
  });

  for (const op of ["init_a", "init_b", "pass1", "pass2", "derive_a", "derive_b", "exchange"]) {
    it(`time --op ${op} (two-pass)`, () => {
      expectTiming(json("heron2", ["time", "--op", op, ...short]), op);
    });
  }

  it("a one-pass instance has no pass2", () => {
    expectTiming(json("heron1", ["time", "--op", "exchange", ...short]), "exchange");
    const r = driver("heron1", ["time", "--op", "pass2"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown --op "pass2"/);
  });

  it("sample: every step of the one- and two-pass instances, over pools of protocol states", () => {
    const pooled = { keyPairs: 64, pool: 64, messages: "none" };
    const fresh = { keyPairs: 0, pool: 0, messages: "none" };
    const want: Record<string, object> = {
      init_a: fresh,
      init_b: fresh,
      pass1: pooled,
      pass2: pooled,
      derive_a: pooled,
      derive_b: pooled,
      exchange: fresh,
    };
    for (const key of ["heron1", "heron2"]) {
      for (const [op, inputs] of Object.entries(want)) {
        if (key === "heron1" && op === "pass2") continue;
        const out = json(key, ["sample", "--op", op, ...brief]);
        expectSample(out, op);
        expect(out.inputs, `${key} ${op}`).toMatchObject(inputs);
      }
    }
    expect(json("heron2", ["sample", "--op", "pass1", ...brief]).inputs.description).toBe(
      "a pool of 64 initiator states from fresh set-ups, in rotation (each with its own long-term keys)",
    );
    const r = driver("heron1", ["sample", "--op", "pass2"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown --op "pass2"/);
  });

  it("sample times a slow step call by call, and batches per-call slots when asked for more than it holds", () => {
    const slow = json("heron2", ["sample", "--op", "exchange", ...brief]);
    expectSample(slow, "exchange");
    expect(slow.batch).toBe(1);
    expect(slow.batchReason).toMatch(/^single calls: /);
    for (const op of ["pass1", "pass2"]) {
      const big = json("heron2", [
        "sample",
        "--op",
        op,
        "--batch",
        "100",
        "--pool",
        "7",
        "--sample-ns",
        "1",
        "--min-samples",
        "3",
      ]);
      expectSample(big, op);
      expect(big.batch).toBe(100);
      expect(big.samples).toHaveLength(3);
    }
  });

  it("memory --op exchange", () => {
    const m = json("heron2", ["memory", "--op", "exchange"]);
    expect(m.peakRssKiB).toBeGreaterThanOrEqual(m.baselineRssKiB);
    expect(m.baselineRssKiB).toBeGreaterThan(0);
  });
});

describe("failure paths (fake KEMs)", () => {
  it("a correct fake KEM with plain NIST names passes", () => {
    expect(json("fake-ok", ["info"])).toMatchObject({ algname: "fake-kem", namespace: null });
    expect(json("fake-ok", ["check", "--iterations", "50"]).ok).toBe(true);
    expectTiming(json("fake-ok", ["time", "--op", "dec", ...short]), "dec");
  });

  it("an implementation printing on stdout does not corrupt the JSON document", () => {
    for (const args of [
      ["check", "--iterations", "3"],
      ["time", "--op", "dec", ...short],
      ["sample", "--op", "dec", ...brief],
    ]) {
      const r = driver("fake-chatty", args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim().split("\n")).toHaveLength(1);
      expect(JSON.parse(r.stdout)).toBeTypeOf("object");
      expect(r.stderr).toMatch(/fake-kem: a new key pair/);
    }
  });

  it("dec writing CRYPTO_BYTES + 1 bytes: exit 4 naming the buffer", () => {
    for (const args of [
      ["check"],
      ["time", "--op", "dec", ...short],
      ["memory", "--op", "dec"],
      ["sample", "--op", "dec", ...brief],
    ]) {
      const r = driver("fake-overflow", args);
      expect(r.status, args.join(" ")).toBe(4);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/canary overwritten after buffer ss_dec \(32 bytes\): byte 32 changed/);
    }
  });

  it("dec returning a wrong key: exit 3", () => {
    for (const args of [
      ["check"],
      ["time", "--op", "dec", ...short],
      ["time", "--op", "enc", ...short],
      ["sample", "--op", "dec", ...brief],
      ["sample", "--op", "enc", ...brief],
      ["sample", "--op", "keygen", ...brief],
    ]) {
      const r = driver("fake-wrong", args);
      expect(r.status, args.join(" ")).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/did not recover the shared secret/);
    }
  });

  it("dec returning non-zero: exit 3 naming the function", () => {
    for (const args of [
      ["time", "--op", "dec", ...short],
      ["sample", "--op", "dec", ...brief],
    ]) {
      const r = driver("fake-fail", args);
      expect(r.status).toBe(3);
      expect(r.stderr).toMatch(/crypto_kem_dec returned non-zero/);
    }
  });

  it("dec writing past the pool ciphertext it was given: exit 4 naming the pool entry", () => {
    const r = driver("fake-ctwrite", ["sample", "--op", "dec", ...brief]);
    expect(r.status).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/canary overwritten after buffer ct_pool\[\d+\] \(96 bytes\): byte 96 changed/);
  });

  it("sample batches calls shorter than 1000 × the counter overhead, and says why", () => {
    for (const counter of [undefined, "clock_gettime"]) {
      for (const op of ["keygen", "enc", "dec"]) {
        const out = json("fake-ok", ["sample", "--op", op, ...(counter ? ["--counter", counter] : []), ...brief]);
        expectSample(out, op, counter);
        expect(out.batch).toBeGreaterThan(1);
        expect(out.batchReason).toMatch(new RegExp(`^batches of ${out.batch}: `));
      }
    }
  });

  it("a SIGSEGV in dec kills the driver by SIGSEGV", () => {
    for (const args of [["check"], ["time", "--op", "dec", ...short], ["sample", "--op", "dec", ...brief]]) {
      const r = driver("fake-segv", args);
      expect(r.status).toBeNull();
      expect(r.signal).toBe("SIGSEGV");
      expect(r.stdout).toBe("");
    }
  });
});

describe("bad submissions (fixture-tools.ts) under sample", () => {
  it("Puffin with a crash in dec: dec dies by SIGSEGV while sampled, keygen and enc when their results are checked", () => {
    // The results of keygen and enc are verified with dec after sampling: no figure for them either.
    for (const op of ["dec", "keygen", "enc"]) {
      const r = driver("puffin-crash-dec", ["sample", "--op", op, ...brief]);
      expect(r.signal, op).toBe("SIGSEGV");
      expect(r.stdout).toBe("");
    }
  });

  it("Puffin writing a byte past ct in enc: exit 4 naming the buffer", () => {
    const r = driver("puffin-overflow-enc", ["sample", "--op", "enc", ...brief]);
    expect(r.status).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/canary overwritten after buffer ct \(\d+ bytes\): byte \d+ changed/);
    // and the unbroken Puffin samples every operation
    for (const op of ["keygen", "enc", "dec"]) expectSample(json("puffin", ["sample", "--op", op, ...brief]), op);
  });
});

describe("under AddressSanitizer and UBSan", () => {
  it("ML-KEM-512: check, time and memory are clean", () => {
    expect(json("mlkem-asan", ["check", "--iterations", "5"]).ok).toBe(true);
    for (const op of ["keygen", "dec"]) expectTiming(json("mlkem-asan", ["time", "--op", op, ...short]), op);
    expect(json("mlkem-asan", ["memory", "--op", "enc"]).op).toBe("enc");
  });

  it("Heron-2P-128: check and time of every step are clean", () => {
    expect(json("heron2-asan", ["check", "--iterations", "3"]).ok).toBe(true);
    for (const op of ["pass1", "pass2", "exchange"]) {
      expectTiming(json("heron2-asan", ["time", "--op", op, ...short]), op);
    }
  });

  it("sample is clean for a KEM, a signature and a key exchange (pools, per-call slots, batches)", () => {
    for (const op of ["keygen", "enc", "dec"]) {
      expectSample(json("mlkem-asan", ["sample", "--op", op, "--keys", "3", "--pool", "5", ...briefer]), op);
    }
    for (const op of ["keygen", "sign", "verify"]) {
      expectSample(json("wren-asan", ["sample", "--op", op, "--keys", "3", "--pool", "5", ...briefer]), op);
    }
    // more calls per sample than the per-call slots prepared; an empty message
    const big = json("wren-asan", [
      "sample",
      "--op",
      "sign",
      "--batch",
      "70",
      "--sample-ns",
      "1",
      "--min-samples",
      "2",
    ]);
    expect(big.lengths.signatureBytes.count).toBe(big.warmupCalls + 140);
    const empty = json("wren-asan", ["sample", "--op", "sign", "--msg-bytes", "0", ...briefer]);
    expect(empty.inputs.description).toBe("a fresh 0-byte message per call, 4 key pairs in rotation");
    for (const op of ["init_a", "pass1", "pass2", "derive_a", "derive_b", "exchange"]) {
      expectSample(json("heron2-asan", ["sample", "--op", op, "--pool", "5", ...briefer]), op);
    }
    const slots = json("heron2-asan", [
      "sample",
      "--op",
      "pass2",
      "--batch",
      "90",
      "--pool",
      "3",
      "--sample-ns",
      "1",
      "--min-samples",
      "2",
    ]);
    expect(slots.batch).toBe(90);
  });
});

describe("the runner's build (buildInstance)", () => {
  it("links the instance's objects, compiled without -fPIC, into the driver; libinstance.so stays for the ELF figure", async () => {
    const dir = join(work, "runner-build");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "campaign.yaml");
    writeFileSync(
      file,
      [
        "name: static-link",
        "system: test_1",
        "algorithms:",
        "  - { id: ml-kem-512, source: { pqclean: ml-kem-512 } }",
      ].join("\n"),
    );
    const campaign = loadCampaign(file);
    const spec = resolveAlgorithms(campaign)[0]?.instances[0];
    if (!spec) throw new Error("no instance");
    const profile = campaign.profiles[campaign.defaultProfile];
    if (!profile) throw new Error("no profile");
    const built = await runnerBuildInstance(
      spec,
      profile,
      await toolchain(campaign.context),
      join(dir, "builds"),
      300_000,
    );
    expect(built.linkage).toBe("static-objects");
    expect(built.staticObjects).toHaveLength(built.objects.length);
    for (const o of built.staticObjects) expect(o).toMatch(/\/obj\/[^/]+\.o$/);
    for (const o of built.objects) expect(o).toMatch(/\/obj-pic\/[^/]+\.o$/);
    for (const o of [...built.staticObjects, ...built.objects]) expect(existsSync(o)).toBe(true);
    // The objects linked into the driver were compiled with the profile's flags as given, without -fPIC.
    const compiles = built.commands.map((c) => c.argv).filter((a) => a.includes("-c"));
    const target = (a: string[]) => a[a.indexOf("-o") + 1] ?? "";
    const staticCompiles = compiles.filter((a) => /\/obj\/[^/]+\.o$/.test(target(a)));
    const picCompiles = compiles.filter((a) => /\/obj-pic\/[^/]+\.o$/.test(target(a)));
    expect(staticCompiles).toHaveLength(built.staticObjects.length);
    for (const a of staticCompiles) {
      expect(a).not.toContain("-fPIC");
      expect(a).toEqual(expect.arrayContaining(profile.cflags));
    }
    for (const a of picCompiles) expect(a).toContain("-fPIC");
    // No shared object between the driver and the timed code: the API is defined in the executable itself.
    const dynamic = spawnSync("readelf", ["-d", built.driver], { encoding: "utf8" });
    expect(dynamic.status).toBe(0);
    expect(dynamic.stdout).not.toMatch(/libinstance/);
    const nm = spawnSync("nm", ["--defined-only", built.driver], { encoding: "utf8" });
    expect(nm.stdout).toMatch(/ T PQCLEAN_MLKEM512_CLEAN_crypto_kem_enc$/m);
    expect(elfLoadSize(built.sharedObject)).toBeGreaterThan(1000);
    const r = spawnSync(built.driver, ["sample", "--op", "enc", ...brief], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expectSample(JSON.parse(r.stdout), "enc");
    // A second build of the same inputs is the cached one.
    expect(
      (await runnerBuildInstance(spec, profile, await toolchain(campaign.context), join(dir, "builds"), 300_000))
        .cached,
    ).toBe(true);
  }, 300_000);
});
