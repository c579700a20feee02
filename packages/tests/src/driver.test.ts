// The native timing driver (native/driver) built exactly as the runner builds it: the instance into
// libinstance.so, then the driver against it, per category. Real PQClean (ML-KEM-512, ML-DSA-44), the Heron
// key-exchange fixture (kex-92), and tiny fake KEMs made here to exercise the failure paths. Timing values are
// never asserted, only the shape of the output.

import { execFile, type SpawnSyncReturns, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const driverDir = join(root, "native/driver");
const includeDir = join(root, "native/include");
const pqclean = join(root, "node_modules/pqclean/deps/PQClean");
const iccs = join(root, "fixtures/iccs");
const heron = join(root, "fixtures/submissions/kex-92/Reference_Implementation");
const driverSources = readdirSync(driverDir)
  .filter((f) => f.endsWith(".c"))
  .sort()
  .map((f) => join(driverDir, f));
const warnings = ["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wvla", "-Wmissing-prototypes", "-Werror"];
const sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g"];
const short = ["--trials", "3", "--min-iterations", "5", "--target-ns", "1000000", "--warmup-ns", "2000000"];

type Category = "KEM" | "SIGN" | "KEX";
interface Instance {
  name: string;
  category: Category;
  namespace?: string;
  apiDir: string; // where api.h is
  includes: string[];
  sources: string[];
  cflags?: string[];
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
#if defined(FAKE_FAIL)
    return -1;
#endif
    return 0;
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

// The build contract of the runner: the instance into libinstance.so, then the driver against it.
async function build(inst: Instance, key: string, extra: string[] = []): Promise<void> {
  const dir = join(work, key);
  mkdirSync(dir, { recursive: true });
  const lib = join(dir, "libinstance.so");
  const cflags = [...(inst.cflags ?? []), ...extra];
  await run("gcc", [
    "-std=c99",
    "-O2",
    "-fPIC",
    "-shared",
    ...cflags,
    ...inst.includes.map((i) => `-I${i}`),
    ...inst.sources,
    "-o",
    lib,
  ]);
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
    "-o",
    out,
    lib,
    `-Wl,-rpath,${dir}`,
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
  const tasks: Array<() => Promise<void>> = [
    () => build(mlkem, "mlkem"),
    () => build(mldsa, "mldsa"),
    () => build(mlkem, "mlkem-asan", sanitize),
    () => build(heron2, "heron2-asan", sanitize),
    () => build(heron1, "heron1"),
    () => build(heron2, "heron2"),
    ...["ok", "overflow", "wrong", "segv", "fail", "chatty"].map((v) => () => build(fake(v), `fake-${v}`)),
    () => compileObjects(mlkem),
    () => compileObjects(mldsa),
    () => compileObjects(heron2),
  ];
  await pool(tasks, Math.max(2, availableParallelism()));
}, 180_000);

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
    ]) {
      const r = driver("mlkem", args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/ngcc-driver|usage/);
    }
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

  it("memory --op sign", () => {
    const m = json("mldsa", ["memory", "--op", "sign"]);
    expect(m.baselineRssKiB).toBeGreaterThan(0);
    expect(m.peakRssKiB).toBeGreaterThanOrEqual(m.baselineRssKiB);
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
    ]) {
      const r = driver("fake-chatty", args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim().split("\n")).toHaveLength(1);
      expect(JSON.parse(r.stdout)).toBeTypeOf("object");
      expect(r.stderr).toMatch(/fake-kem: a new key pair/);
    }
  });

  it("dec writing CRYPTO_BYTES + 1 bytes: exit 4 naming the buffer", () => {
    for (const args of [["check"], ["time", "--op", "dec", ...short], ["memory", "--op", "dec"]]) {
      const r = driver("fake-overflow", args);
      expect(r.status, args.join(" ")).toBe(4);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/canary overwritten after buffer ss_dec \(32 bytes\): byte 32 changed/);
    }
  });

  it("dec returning a wrong key: exit 3", () => {
    for (const args of [["check"], ["time", "--op", "dec", ...short], ["time", "--op", "enc", ...short]]) {
      const r = driver("fake-wrong", args);
      expect(r.status, args.join(" ")).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/did not recover the shared secret/);
    }
  });

  it("dec returning non-zero: exit 3 naming the function", () => {
    const r = driver("fake-fail", ["time", "--op", "dec", ...short]);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/crypto_kem_dec returned non-zero/);
  });

  it("a SIGSEGV in dec kills the driver by SIGSEGV", () => {
    for (const args of [["check"], ["time", "--op", "dec", ...short]]) {
      const r = driver("fake-segv", args);
      expect(r.status).toBeNull();
      expect(r.signal).toBe("SIGSEGV");
      expect(r.stdout).toBe("");
    }
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
});
