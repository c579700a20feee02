// Our memory and instructions figures beside independent ones, for PQClean ML-KEM-512 and ML-KEM-768 (not a test;
// run with `pnpm exec tsx bench/memory-check.ts`). Target: stack and instructions within 5 % of the independent
// figures, heap peak and allocations equal.
//
// Ours: the memory step and the instructions step (docs/methodology.md) over fixtures/campaigns/pqclean.yaml
// (--only ml-kem-512 and ml-kem-768), into a fresh store: stack and heap the maxima over the 100 KAT-seed inputs
// (the record's inputs, distribution). Independent: bench/stack-check.c, built here by one gcc command per program
// from the scheme's clean/*.c and PQClean's common files with the profile's flags, not linked to the driver and
// using none of its techniques —
//   inputs:       the same 100 KAT counts, made by the program's own NIST CTR_DRBG over PQClean's common/aes.c
//                 (-DPQ_KAT_RNG, none of native/katgen); checked first: the SHA-256 of its KAT count 0
//                 (--kat-single) must be PQClean's published nistkat-sha256 (fixtures/reference);
//   stack:        each input's call on a painted pthread stack (bytes, 0xA5), a no-op thread's depth subtracted,
//                 the maximum over the inputs (--inputs 100);
//   heap:         the linker's --wrap=malloc,calloc,realloc,free with a size header per block (peak live bytes
//                 requested, allocations), the maxima over the inputs (--heap --inputs 100), and valgrind
//                 memcheck's "total heap usage" of `--loop 1` minus `--loop 0` (allocations of one call);
//   instructions: valgrind --tool=callgrind --toggle-collect=<the API function> on `--loop N` minus `--loop 0`
//                 (inclusive Ir of the N calls) / N, a plain loop with the KAT DRBG seeded with 0x00..0x2F
//                 (compiled at -O2 as the instructions step's counter compiles it; the scheme at the profile's
//                 flags), the DRBG left out by a second --toggle-collect=PQCLEAN_randombytes (nested: collection
//                 off inside it), as the step leaves it out.
// Prints one row per operation with ratios (ours / independent), the inputs behind ours and the seconds our
// memory run of the operation took (one process, every input), and exits 1 when one is out of its target.
// Options: --campaign FILE, --only ALG (repeatable), --calls N (default 16).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildCampaign,
  instructionsCampaign,
  loadCampaign,
  memoryCampaign,
  pqcleanRoot,
  resolveCampaign,
} from "../packages/runner/src/index.ts";
import { recordPath } from "../packages/schema/src/index.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = args.flatMap((a, i) => (args[i - 1] === "--only" ? [a] : []));
const selected = only.length ? only : ["ml-kem-512", "ml-kem-768"];
const calls = Number(option("--calls") ?? "16");
const campaign = resolveCampaign(loadCampaign(option("--campaign") ?? join(root, "fixtures/campaigns/pqclean.yaml")));
campaign.config.instructions = { ...campaign.config.instructions, calls };
const OPS = [
  ["keygen", "crypto_kem_keypair"],
  ["enc", "crypto_kem_enc"],
  ["dec", "crypto_kem_dec"],
] as const;

function run(argv: string[], what: string): string {
  const r = spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return `${r.stdout}${r.stderr}`;
}

const work = mkdtempSync(join(tmpdir(), "ngcc-bench-memcheck-"));
let bad = 0;
try {
  const out = join(work, "store");
  await buildCampaign(campaign, { out, only: selected });
  await memoryCampaign(campaign, { out, only: selected, asked: true });
  await instructionsCampaign(campaign, { out, only: selected, asked: true });
  const pq = pqcleanRoot(campaign);
  const profile = campaign.defaultProfile;
  const cflags = campaign.profiles[profile]?.cflags ?? [];
  const katgen = join(root, "native/katgen");
  const rows: string[] = [];
  for (const alg of selected) {
    const scheme = join(pq, "crypto_kem", alg, "clean");
    const ns = `PQCLEAN_${alg.replace(/-/g, "").toUpperCase()}_CLEAN_`;
    const sources = readdirSync(scheme)
      .filter((f) => f.endsWith(".c"))
      .map((f) => join(scheme, f));
    const base = ["gcc", "-std=c99", ...cflags, `-DNS=${ns}`, "-I", scheme, "-I", join(pq, "common")];
    const check = join(root, "bench/stack-check.c");
    const fips = join(pq, "common/fips202.c");
    // The KAT DRBG compiled at -O2, as the instructions step's counter compiles it: the same randomness code in
    // both counts (it is part of keygen's and enc's calls).
    const rng = ["ngcc_rng", "ngcc_aes256"].map((n) => {
      const o = join(work, `${alg}-${n}.o`);
      run(["gcc", "-std=c99", "-O2", "-I", katgen, "-c", join(katgen, `${n}.c`), "-o", o], "gcc");
      return o;
    });
    const kat = ["-DKAT_RNG", "-I", katgen, ...rng];
    const stackProgram = join(work, `${alg}-stack`);
    const heapProgram = join(work, `${alg}-heap`);
    const loopProgram = join(work, `${alg}-loop`);
    // The independent programs' KAT inputs: their own DRBG over PQClean's AES (no native/katgen code).
    const pqKat = ["-DPQ_KAT_RNG", join(pq, "common/aes.c")];
    run([...base, check, ...sources, fips, ...pqKat, "-o", stackProgram, "-lpthread"], "gcc");
    run(
      [
        ...base,
        "-DHEAP_WRAP",
        check,
        ...sources,
        fips,
        ...pqKat,
        "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free",
        "-o",
        heapProgram,
        "-lpthread",
      ],
      "gcc",
    );
    const published = JSON.parse(readFileSync(join(root, "fixtures/reference/pqclean-nistkat-sha256.json"), "utf8"))[
      `crypto_kem/${alg}`
    ];
    const single = createHash("sha256")
      .update(run([stackProgram, "--kat-single"], "stack-check --kat-single"))
      .digest("hex");
    if (single !== published) {
      console.log(`${alg}: the independent program's KAT count 0 hashes to ${single}, PQClean publishes ${published}`);
      bad++;
    }
    run([...base, check, ...sources, fips, ...kat, "-o", loopProgram, "-lpthread"], "gcc");
    for (const [op, api] of OPS) {
      const key = { system: campaign.system, algorithmId: alg, instance: alg, buildProfile: profile, operation: op };
      const mem = JSON.parse(readFileSync(recordPath(out, { kind: "memory", key }), "utf8"));
      const ins = JSON.parse(readFileSync(recordPath(out, { kind: "instructions", key }), "utf8"));
      const n = mem.inputs?.count ?? 1;
      const stack = Math.max(
        ...run([stackProgram, "--inputs", String(n), op], "stack-check --inputs")
          .trim()
          .split("\n")
          .map(Number),
      );
      const heapRows = run([heapProgram, "--heap", "--inputs", String(n), op], "stack-check --heap --inputs")
        .trim()
        .split("\n")
        .map((l) => l.split(" ").map(Number));
      const heapPeak = Math.max(...heapRows.map((r) => r[0] as number));
      const heapAllocs = Math.max(...heapRows.map((r) => r[1] as number));
      const seconds = (mem.commands?.[0]?.durationMs ?? Number.NaN) / 1000;
      const memcheck = (n: number) => {
        const text = run(["valgrind", "--tool=memcheck", loopProgram, "--loop", String(n), op], "memcheck");
        return Number(/total heap usage: ([\d,]+) allocs/.exec(text)?.[1]?.replace(/,/g, "") ?? Number.NaN);
      };
      const memcheckAllocs = memcheck(1) - memcheck(0);
      const callgrind = (n: number) => {
        const file = join(work, `cg-${alg}-${op}-${n}`);
        run(
          [
            "valgrind",
            "--tool=callgrind",
            `--toggle-collect=${ns}${api}`,
            // Nested: collection off again inside the DRBG, as the instructions step leaves it out.
            "--toggle-collect=PQCLEAN_randombytes",
            `--callgrind-out-file=${file}`,
            loopProgram,
            "--loop",
            String(n),
            op,
          ],
          "callgrind",
        );
        return Number(/^totals: (\d+)/m.exec(readFileSync(file, "utf8"))?.[1] ?? Number.NaN);
      };
      const independentIr = (callgrind(calls) - callgrind(0)) / calls;
      const stackRatio = mem.stackBytes / stack;
      const irRatio = ins.instructionsPerCall / independentIr;
      const heapSame = mem.heapPeakBytes === heapPeak && mem.heapAllocations === heapAllocs;
      const allocSame = mem.heapAllocations === memcheckAllocs;
      if (Math.abs(stackRatio - 1) > 0.05 || Math.abs(irRatio - 1) > 0.05 || !heapSame || !allocSame || n < 100) bad++;
      rows.push(
        [
          `${alg} ${op}`.padEnd(18),
          `${mem.stackBytes}`.padStart(6),
          `${stack}`.padStart(6),
          stackRatio.toFixed(4).padStart(7),
          `${mem.heapPeakBytes}/${mem.heapAllocations}`.padStart(8),
          `${heapPeak}/${heapAllocs}`.padStart(8),
          `${memcheckAllocs}`.padStart(4),
          `${n}`.padStart(6),
          seconds.toFixed(2).padStart(6),
          ins.instructionsPerCall.toFixed(3).padStart(14),
          independentIr.toFixed(3).padStart(14),
          irRatio.toFixed(4).padStart(7),
        ].join("  "),
      );
    }
  }
  console.log(
    `profile ${profile} (${cflags.join(" ")}); instructions over ${calls} calls; stack in bytes; heap peak bytes/allocations`,
  );
  console.log(
    [
      "operation".padEnd(18),
      "stack".padStart(6),
      "indep.".padStart(6),
      "ratio".padStart(7),
      "heap".padStart(8),
      "indep.".padStart(8),
      "mchk".padStart(4),
      "inputs".padStart(6),
      "sec".padStart(6),
      "instructions".padStart(14),
      "indep.".padStart(14),
      "ratio".padStart(7),
    ].join("  "),
  );
  console.log(
    "(stack, heap: the maxima over the inputs, ours and the independent program's; heap: peak bytes/allocations; mchk: memcheck's allocations of one call; inputs: KAT counts behind ours; sec: our memory run of the operation, one process; instructions per call)",
  );
  for (const r of rows) console.log(r);
  console.log(bad === 0 ? "\nevery figure within its target" : `\n${bad} operation(s) out of target`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = bad === 0 ? 0 : 1;
