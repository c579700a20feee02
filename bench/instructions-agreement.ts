// The instructions step's counts beside an independent count, for every PQClean ML-KEM-512 and ML-KEM-768 (clean)
// operation (not a test; run with `pnpm exec tsx bench/instructions-agreement.ts`). Target: within 0.5 %.
//
// Ours: the instructions step (docs/methodology.md, "Instruction counts") over fixtures/campaigns/pqclean.yaml
// (--only ml-kem-512 and ml-kem-768) into a fresh store: instructionsPerCall, the algorithm alone (collection is
// off inside randombytes, the KAT DRBG, while a call is counted), with the DRBG's own instructions beside it.
// Independent: bench/icount-loop.c, built here by ONE gcc command from the scheme's clean/*.c and PQClean's
// common/fips202.c with the profile's flags — its own main, a trivial counter-fill randombytes, nothing of
// native/ linked — counted by `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=<API function>`
// over N calls minus 0 calls, divided by N.
// Prints one row per operation: ours, the independent count, the ratio, and our randombytes calls / bytes /
// instructions per call; exits 1 when a ratio is off 1 by more than 0.5 %.
// Options: --campaign FILE, --only ALG (repeatable), --calls N (ours, default 64), --loop N (independent, default 64);
// both sides use 64 key pairs and 64 ciphertexts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildCampaign,
  instructionsCampaign,
  loadCampaign,
  pqcleanRoot,
  resolveCampaign,
} from "../packages/runner/src/index.ts";
import { type InstructionsRecord, recordPath } from "../packages/schema/src/index.ts";

const TARGET = 0.005;
const root = fileURLToPath(new URL("../", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = args.flatMap((a, i) => (args[i - 1] === "--only" ? [a] : []));
const selected = only.length ? only : ["ml-kem-512", "ml-kem-768"];
const calls = Number(option("--calls") ?? "64");
const loop = Number(option("--loop") ?? "64");
const campaign = resolveCampaign(loadCampaign(option("--campaign") ?? join(root, "fixtures/campaigns/pqclean.yaml")));
// 64 key pairs and 64 ciphertexts on both sides (icount-loop.c's ICL_KEYS, ICL_POOL): ML-KEM's matrix expansion
// takes one more SHAKE128 block for some seeds, so a mean over 4 keys is not a mean over another 4 keys.
campaign.config.instructions = { ...campaign.config.instructions, calls, keys: 64, pool: 64 };

const OPS = [
  ["keygen", "crypto_kem_keypair"],
  ["enc", "crypto_kem_enc"],
  ["dec", "crypto_kem_dec"],
] as const;

function run(argv: string[], what: string): string {
  const r = spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return r.stdout;
}

const work = mkdtempSync(join(tmpdir(), "ngcc-bench-icount-agree-"));
let bad = 0;
try {
  const out = join(work, "store");
  await buildCampaign(campaign, { out, only: selected });
  await instructionsCampaign(campaign, { out, only: selected, asked: true });
  const pq = pqcleanRoot(campaign);
  const profile = campaign.defaultProfile;
  const cflags = campaign.profiles[profile]?.cflags ?? [];
  const rows: string[] = [];
  for (const alg of selected) {
    const scheme = join(pq, "crypto_kem", alg, "clean");
    const ns = `PQCLEAN_${alg.replace(/-/g, "").toUpperCase()}_CLEAN_`;
    const sources = readdirSync(scheme)
      .filter((f) => f.endsWith(".c"))
      .map((f) => join(scheme, f));
    const program = join(work, `${alg}-loop`);
    // The one gcc command.
    run(
      [
        "gcc",
        "-std=c99",
        ...cflags,
        `-DNS=${ns}`,
        "-I",
        scheme,
        "-I",
        join(pq, "common"),
        join(root, "bench/icount-loop.c"),
        ...sources,
        join(pq, "common/fips202.c"),
        "-o",
        program,
      ],
      "gcc",
    );
    for (const [op, api] of OPS) {
      const key = { system: campaign.system, algorithmId: alg, instance: alg, buildProfile: profile, operation: op };
      const ours = JSON.parse(
        readFileSync(recordPath(out, { kind: "instructions", key }), "utf8"),
      ) as InstructionsRecord;
      if (ours.status !== "ok" || ours.instructionsPerCall === undefined) {
        throw new Error(`${alg} ${op}: the instructions step failed: ${ours.failure?.message ?? "no count"}`);
      }
      const callgrind = (n: number) => {
        const file = join(work, `cg-${alg}-${op}-${n}`);
        run(
          [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            `--toggle-collect=${ns}${api}`,
            `--callgrind-out-file=${file}`,
            program,
            op,
            String(n),
          ],
          "callgrind",
        );
        return Number(/^totals: (\d+)/m.exec(readFileSync(file, "utf8"))?.[1] ?? Number.NaN);
      };
      const independent = (callgrind(loop) - callgrind(0)) / loop;
      const ratio = ours.instructionsPerCall / independent;
      if (!(Math.abs(ratio - 1) <= TARGET)) bad++;
      const rb = ours.randombytes;
      rows.push(
        [
          `${alg} ${op}`.padEnd(18),
          ours.instructionsPerCall.toFixed(1).padStart(12),
          independent.toFixed(1).padStart(12),
          ratio.toFixed(5).padStart(8),
          `${ours.perCall?.min ?? "-"}–${ours.perCall?.max ?? "-"}`.padStart(20),
          (rb ? `${rb.calls} / ${rb.bytes} / ${rb.instructions.toFixed(0)}` : "-").padStart(20),
        ].join("  "),
      );
    }
  }
  console.log(
    `profile ${profile} (${cflags.join(" ")}); ours over ${calls} calls (KAT DRBG, its instructions excluded), independent over ${loop} calls (counter-fill randombytes)`,
  );
  console.log(
    [
      "operation".padEnd(18),
      "ours".padStart(12),
      "independent".padStart(12),
      "ratio".padStart(8),
      "ours min–max".padStart(20),
      "DRBG calls/B/instr".padStart(20),
    ].join("  "),
  );
  for (const r of rows) console.log(r);
  console.log(
    bad === 0
      ? `\nevery operation within ${TARGET * 100} %`
      : `\n${bad} operation(s) off by more than ${TARGET * 100} %`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = bad === 0 ? 0 : 1;
