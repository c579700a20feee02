// What the native driver adds to a measurement (not a test; run with `pnpm exec tsx bench/driver-overhead.ts`).
//
// 1. The read overhead of every counter usable here, in the counter's unit and in ns.
// 2. PQClean ML-KEM-768 keygen, enc and dec timed by the driver and, side by side in the same run, by an
//    independent minimal C loop (clock_gettime around N calls) linked against the same libinstance.so; the ratio
//    of the driver's mean time per operation to the loop's (target: within 3%). Rounds alternate driver and loop
//    so that drift of the machine affects both; "best" compares the fastest trials, which resist interference.
//
// Options: --rounds N (default 3), --pin CPU (pins both programs), --keep (keep the build directory).

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const driverDir = join(root, "native/driver");
const pqclean = join(root, "node_modules/pqclean/deps/PQClean");
const scheme = join(pqclean, "crypto_kem/ml-kem-768/clean");
const ns = "PQCLEAN_MLKEM768_CLEAN_";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const rounds = Number(option("--rounds") ?? "3");
const pin = option("--pin");
const keep = args.includes("--keep");

// The independent reference: nothing but clock_gettime around a loop of the same call.
const loopSource = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "api.h"
#define NS(x) ${ns}##x
static unsigned char pk[NS(CRYPTO_PUBLICKEYBYTES)], sk[NS(CRYPTO_SECRETKEYBYTES)];
static unsigned char ct[NS(CRYPTO_CIPHERTEXTBYTES)], ss[NS(CRYPTO_BYTES)], ss2[NS(CRYPTO_BYTES)];
static int once(int op) {
    switch (op) {
    case 0: return NS(crypto_kem_keypair)(pk, sk);
    case 1: return NS(crypto_kem_enc)(ct, ss, pk);
    default: return NS(crypto_kem_dec)(ss2, ct, sk);
    }
}
int main(int argc, char **argv) {
    int op = argc > 1 ? (strcmp(argv[1], "keygen") == 0 ? 0 : strcmp(argv[1], "enc") == 0 ? 1 : 2) : 0;
    unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000, trials = argc > 3 ? strtoul(argv[3], NULL, 10) : 5;
    unsigned long i, t;
    int rc = NS(crypto_kem_keypair)(pk, sk) | NS(crypto_kem_enc)(ct, ss, pk);
    for (i = 0; i < n; i++) rc |= once(op); /* warm-up */
    for (t = 0; t < trials; t++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (i = 0; i < n; i++) rc |= once(op);
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("%.1f\\n", ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n);
    }
    if (op == 1) rc |= NS(crypto_kem_dec)(ss2, ct, sk);
    if (rc != 0 || (op != 0 && memcmp(ss, ss2, sizeof ss) != 0)) { fprintf(stderr, "loop: wrong result\\n"); return 3; }
    return 0;
}
`;

const work = mkdtempSync(join(tmpdir(), "ngcc-bench-"));
const gcc = (argv: string[]): void => {
  execFileSync("gcc", argv, { stdio: ["ignore", "inherit", "inherit"] });
};
mkdirSync(join(work, "src"));
writeFileSync(join(work, "src", "loop.c"), loopSource);
const lib = join(work, "libinstance.so");
const schemeSources = readdirSync(scheme)
  .filter((f) => f.endsWith(".c"))
  .map((f) => join(scheme, f));
gcc([
  "-std=c99",
  "-O2",
  "-fPIC",
  "-shared",
  `-I${scheme}`,
  `-I${join(pqclean, "common")}`,
  ...schemeSources,
  join(pqclean, "common/fips202.c"),
  join(pqclean, "common/randombytes.c"),
  "-o",
  lib,
]);
// The driver's sources as the runner compiles them: native/driver and the shared helpers of native/common.
const driverSources = [driverDir, join(root, "native/common")].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".c"))
    .sort()
    .map((f) => join(dir, f)),
);
const driver = join(work, "ngcc-driver");
gcc([
  "-std=c99",
  "-O2",
  "-D_GNU_SOURCE",
  `-I${scheme}`,
  `-I${join(root, "native/include")}`,
  `-I${driverDir}`,
  "-DNGCC_CATEGORY_KEM",
  `-DNGCC_NAMESPACE=${ns}`,
  ...driverSources,
  "-o",
  driver,
  lib,
  `-Wl,-rpath,${work}`,
  "-lm",
]);
const loop = join(work, "loop");
gcc([
  "-std=c99",
  "-O2",
  "-D_GNU_SOURCE",
  `-I${scheme}`,
  join(work, "src", "loop.c"),
  "-o",
  loop,
  lib,
  `-Wl,-rpath,${work}`,
]);

const runJson = (argv: string[]): unknown => JSON.parse(execFileSync(driver, argv, { encoding: "utf8" }));
const pinArgs = pin !== undefined ? ["--pin", pin] : [];
const taskset = (cmd: string, argv: string[]): [string, string[]] =>
  pin !== undefined ? ["taskset", ["-c", pin, cmd, ...argv]] : [cmd, argv];

interface Counter {
  kind: string;
  unit: string;
  rateHz: number;
  overhead: number;
  serialization: string;
}
interface Timing {
  counter: Counter;
  iterationsPerTrial: number;
  trials: Array<{ iterations: number; counterDelta: number; ns: number }>;
}

const info = runJson(["info"]) as { counters: string[] };
console.log(
  `driver overhead bench: PQClean ML-KEM-768, ${rounds} rounds${pin !== undefined ? `, pinned to CPU ${pin}` : ""}`,
);
console.log("\ncounter read overhead (interquartile mean of back-to-back reads)");
console.log(
  `${"counter".padEnd(15)} ${"overhead".padStart(10)} ${"unit".padEnd(12)} ${"ns".padStart(8)}  serialization`,
);
for (const kind of info.counters) {
  const extra = kind === "fixed-clock" ? ["--fixed-clock-hz", "2.71e9"] : [];
  const { counter } = runJson(["overhead", "--counter", kind, ...extra, ...pinArgs]) as { counter: Counter };
  const ns = (counter.overhead / counter.rateHz) * 1e9;
  console.log(
    `${kind.padEnd(15)} ${counter.overhead.toFixed(1).padStart(10)} ${counter.unit.padEnd(12)} ${ns.toFixed(1).padStart(8)}  ${counter.serialization}`,
  );
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log("\ndriver vs minimal C loop, mean ns per operation over all trials of all rounds");
console.log(
  `${"op".padEnd(7)} ${"driver".padStart(10)} ${"loop".padStart(10)} ${"ratio".padStart(7)} ${"best drv".padStart(10)} ${"best loop".padStart(10)} ${"ratio".padStart(7)}  iterations/trial`,
);
for (const op of ["keygen", "enc", "dec"]) {
  const driverPerOp: number[] = [];
  const loopPerOp: number[] = [];
  let perTrial = 0;
  for (let r = 0; r < rounds; r++) {
    const t = runJson(["time", "--op", op, ...pinArgs]) as Timing;
    perTrial = t.iterationsPerTrial;
    for (const trial of t.trials) driverPerOp.push(trial.ns / trial.iterations);
    const [cmd, argv] = taskset(loop, [op, String(perTrial), String(t.trials.length)]);
    const out = execFileSync(cmd, argv, { encoding: "utf8" });
    for (const line of out.trim().split("\n")) loopPerOp.push(Number(line));
  }
  const d = mean(driverPerOp);
  const l = mean(loopPerOp);
  const bd = Math.min(...driverPerOp);
  const bl = Math.min(...loopPerOp);
  console.log(
    `${op.padEnd(7)} ${d.toFixed(0).padStart(10)} ${l.toFixed(0).padStart(10)} ${(d / l).toFixed(3).padStart(7)} ${bd.toFixed(0).padStart(10)} ${bl.toFixed(0).padStart(10)} ${(bd / bl).toFixed(3).padStart(7)}  ${perTrial}`,
  );
}

if (keep) console.log(`\nbuild directory kept: ${work}`);
else rmSync(work, { recursive: true, force: true });
