// The instructions step: instructions per call of every operation, counted under valgrind's callgrind — exact
// and repeatable where no hardware counter exists (docs/methodology.md, "Instruction counts"). For every
// instance × build profile: the timing build's instance objects linked with native/icount/ngcc_icount.c and
// the KAT DRBG (seeded, so every run makes the same inputs), run once per operation under
// `valgrind --tool=callgrind --collect-atstart=no`, which collects only between the program's client requests.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import {
  buildPath,
  type DriverIcountOutput,
  type InstanceKey,
  type InstructionsRecord,
  recordPath,
} from "@ngcc-perf/schema";
import { median } from "@ngcc-perf/stats";
import {
  buildInputsHash,
  buildInstance,
  type Command,
  cachedBuild,
  defineFlags,
  harnessFlags,
  linkLibraries,
  type Toolchain,
  toolchain,
} from "./build.ts";
import type { Campaign } from "./campaign.ts";
import { DriverError, interpret } from "./driver.ts";
import { InputError } from "./errors.ts";
import type { InstanceSpec } from "./instances.ts";
import { nativeDir } from "./native.ts";
import { commandOf, runProcess } from "./proc.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import { HOST_CONTEXT, type RunContext } from "./run-context.ts";
import { signApiFlags } from "./signapi.ts";
import { type Failure, failedRecord, type Job, runStep, type StepDefinition, type Unit } from "./step/run.ts";
import type { StepOptions, StepSummary } from "./step/types.ts";
import { sha256 } from "./store.ts";
import { emulated } from "./target.ts";
import { buildFacts, buildOrDriverFailure, instanceUnits, plannedOperations } from "./time.ts";
import { TOOL } from "./tool.ts";

/** Support files that stand for the system randomness; the counted build links the KAT DRBG in their place. */
const RANDOMNESS_SOURCES = new Set(["drng.c", "randombytes.c", "ngcc_randombytes.c"]);

export const ICOUNT_RANDOMNESS =
  "the KAT generator's AES-256 CTR_DRBG (native/katgen/ngcc_rng.c) seeded with 0x00..0x2F; its instructions are not in the operation's count (collection is off inside randombytes during a counted call) and are reported beside it (randombytes)";

/** What the campaign's `instructions` block sets, with defaults. */
export interface InstructionsSettings {
  enabled: boolean;
  calls: number;
  keys: number;
  pool: number;
}

export function instructionsSettings(campaign: Campaign): InstructionsSettings {
  const i = campaign.config.instructions ?? {};
  return { enabled: i.enabled ?? false, calls: i.calls ?? 16, keys: i.keys ?? 4, pool: i.pool ?? 16 };
}

/** -march values whose code uses AVX-512 (valgrind decodes up to AVX2: x86-64-v3). */
const AVX512_MARCH =
  /^-march=(x86-64-v4|knl|knm|skylake-avx512|cannonlake|cascadelake|cooperlake|icelake-client|icelake-server|tigerlake|rocketlake|alderlake-avx512|sapphirerapids|emeraldrapids|graniterapids(-d)?|znver4|znver5)$/;

/**
 * Why valgrind cannot run code built with these flags, or null: AVX-512 (-mavx512*, an -march that implies
 * it, -march=native on a processor that has it) is beyond what valgrind decodes.
 */
export function valgrindRefusal(flags: readonly string[], cpuHasAvx512: boolean): string | null {
  const bad = flags.filter(
    (f) => /^-mavx512|^-mamx/.test(f) || AVX512_MARCH.test(f) || (f === "-march=native" && cpuHasAvx512),
  );
  return bad.length
    ? `not counted: valgrind decodes x86-64 up to AVX2 (x86-64-v3), and ${bad.join(" ")} ${bad.includes("-march=native") ? "on this AVX-512 processor " : ""}allows AVX-512 instructions`
    : null;
}

export function cpuHasAvx512(): boolean {
  try {
    return /\bavx512f\b/.test(readFileSync("/proc/cpuinfo", "utf8"));
  } catch {
    return false;
  }
}

/** The first line of `valgrind --version`, or null when valgrind is not installed. */
export async function valgrindVersion(): Promise<string | null> {
  const r = await runProcess(["valgrind", "--version"], { timeoutMs: 20_000, sandbox: false, context: HOST_CONTEXT });
  if (r.spawnError || r.exitCode !== 0) return null;
  return r.stdout.trim().split("\n")[0] ?? null;
}

function icountSources(): { main: string; rng: string[] } {
  const nd = nativeDir();
  return {
    main: join(nd, "icount", "ngcc_icount.c"),
    rng: [join(nd, "katgen", "ngcc_aes256.c"), join(nd, "katgen", "ngcc_rng.c")],
  };
}

function icountFilesHash(): string {
  const { main, rng } = icountSources();
  const katgen = join(nativeDir(), "katgen");
  return sha256(
    [main, ...rng, join(katgen, "rng.h"), join(katgen, "ngcc_aes256.h")]
      .map((f) => `${basename(f)}:${sha256(readFileSync(f, "utf8"))}`)
      .join("\n"),
  );
}

/** The valgrind options of a counted run (the output file added per run). */
export const CALLGRIND_OPTIONS = ["--tool=callgrind", "--collect-atstart=no"] as const;

/** A callgrind dump's trigger and its total of the first event (Ir). */
export interface CallgrindDump {
  trigger: string;
  ir: number;
}

/** Reads the dumps callgrind wrote as <prefix>, <prefix>.1, <prefix>.2 … */
export function readCallgrindDumps(dir: string, prefix: string): CallgrindDump[] {
  const dumps: CallgrindDump[] = [];
  for (const f of readdirSync(dir).filter((n) => n === prefix || n.startsWith(`${prefix}.`))) {
    const text = readFileSync(join(dir, f), "utf8");
    const trigger = /^desc: Trigger: (.*)$/m.exec(text)?.[1]?.trim() ?? "";
    const total = /^(?:totals|summary): (\d+)/m.exec(text)?.[1];
    if (total !== undefined) dumps.push({ trigger, ir: Number(total) });
  }
  return dumps;
}

/** What ngcc-icount prints (validated against its schema by interpret): the randombytes requests of each counted
 * call, call 1 first. */
type IcountOutput = DriverIcountOutput;

/** What a counted run's dumps give: per call, the algorithm alone; the DRBG's instructions beside. */
export interface CountedCalls {
  collectedIr: number;
  baselineIr: number;
  perCall: { instructions: number[]; min: number; max: number; median: number };
  instructionsPerCall: number;
  randombytes: { calls: number; bytes: number; instructions: number; replayIr: number };
}

/**
 * From the dumps of one counted run (ngcc-call-1..N, ngcc-baseline, ngcc-randombytes) and the program's
 * per-call randombytes requests: call c's instructions are its dump less one toggle pair per request pair in it
 * (its own, and one per randombytes call, inside which collection was off); the DRBG's instructions are the replay
 * dump less one pair. Means over the N calls. Throws when a dump is missing.
 */
export function countedCalls(
  dumps: readonly CallgrindDump[],
  rb: IcountOutput["randombytes"],
  calls: number,
): CountedCalls {
  const dump = (name: string) => dumps.find((d) => d.trigger === name || d.trigger.endsWith(`: ${name}`))?.ir;
  const baselineIr = dump("ngcc-baseline");
  const replayIr = dump("ngcc-randombytes");
  if (baselineIr === undefined || replayIr === undefined) throw new Error("no ngcc-baseline / ngcc-randombytes dump");
  if (rb.calls.length !== calls || rb.bytes.length !== calls)
    throw new Error("randombytes counts do not match the calls");
  const pair = baselineIr / calls;
  const raw = Array.from({ length: calls }, (_x, i) => {
    const ir = dump(`ngcc-call-${i + 1}`);
    if (ir === undefined) throw new Error(`no ngcc-call-${i + 1} dump`);
    return ir;
  });
  const instructions = raw.map((ir, i) => Math.max(0, ir - pair * (1 + (rb.calls[i] as number))));
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    collectedIr: sum(raw),
    baselineIr,
    perCall: {
      instructions,
      min: Math.min(...instructions),
      max: Math.max(...instructions),
      median: median(instructions),
    },
    instructionsPerCall: sum(instructions) / calls,
    randombytes: {
      calls: sum(rb.calls) / calls,
      bytes: sum(rb.bytes) / calls,
      // Nothing replayed when the calls drew nothing (the replay's dump is then its empty loop and toggles).
      instructions: sum(rb.calls) > 0 ? Math.max(0, replayIr - pair) / calls : 0,
      replayIr,
    },
  };
}

interface Work {
  spec: InstanceSpec;
}

/** The records the time step's pre-pass (time-campaign.ts) counted or found current in this process: path → inputsHash. */
const countedByPrepass = new Map<string, string>();

/** Notes that the time step's pre-pass left this job's record current (the instructions step then skips it). */
export function markCountedByPrepass(out: string, job: Job): void {
  if (job.entry && job.inputsHash) countedByPrepass.set(recordPath(out, job.entry), job.inputsHash);
}

/** Whether the pre-pass of this process wrote (or found) this job's record, ok, for the same inputs, still on disk. */
function countedEarlier(out: string, job: Job): boolean {
  if (!job.entry || !job.inputsHash) return false;
  const path = recordPath(out, job.entry);
  if (countedByPrepass.get(path) !== job.inputsHash || !existsSync(path)) return false;
  try {
    // A failure is run again, so that this step reports it as its own.
    const r = JSON.parse(readFileSync(path, "utf8")) as { inputsHash?: string; status?: string };
    return r.status === "ok" && r.inputsHash === job.inputsHash;
  } catch {
    return false;
  }
}

/** Links ngcc-icount for a built instance (cached by every input), in the unit's build folder. */
async function buildIcount(
  campaign: Campaign,
  spec: InstanceSpec,
  key: InstanceKey,
  built: { dir: string; inputsHash: string; flags: string[]; staticObjects: string[] },
  ldflags: readonly string[],
  out: string,
): Promise<{ program: string; commands: Command[] }> {
  const cc = campaign.cc;
  const nd = nativeDir();
  const { main, rng } = icountSources();
  const sources = [...spec.sources, ...spec.support];
  // The timing build's objects, in the order of its sources, without the system randomness.
  const instanceObjects = built.staticObjects.filter((_o, i) => !RANDOMNESS_SOURCES.has(basename(sources[i] ?? "")));
  const driverObjects = ["ngcc_ops_kem.o", "ngcc_ops_sign.o", "ngcc_ops_kex.o", "ngcc_buf.o", "ngcc_common.o"].map(
    (o) => join(built.dir, "obj-driver", o),
  );
  const hash = sha256(JSON.stringify({ built: built.inputsHash, icount: icountFilesHash(), ldflags }));
  const b = await cachedBuild(
    campaign.context,
    buildPath(out, key),
    `icount-${spec.instance}`,
    hash,
    campaign.timeouts.buildMs,
    async (work, run) => {
      const what = `the instruction counter for ${spec.algorithmId}/${spec.instance}`;
      // The timing build's objects are copied in: a sandboxed build sees only its own folder (and a private /tmp).
      mkdirSync(join(work, "obj"), { recursive: true });
      const linked = [...driverObjects, ...instanceObjects].map((o, i) => {
        const to = join("obj", `${i}-${basename(o)}`);
        copyFileSync(o, join(work, to));
        return join(work, to);
      });
      await run(
        [
          cc,
          "-std=c99",
          "-O2",
          "-D_GNU_SOURCE",
          `-DNGCC_CATEGORY_${spec.category.toUpperCase()}`,
          ...defineFlags(spec.defines),
          ...(spec.namespace ? [`-DNGCC_NAMESPACE=${spec.namespace}`] : []),
          ...signApiFlags(spec.signApi),
          ...harnessFlags(spec),
          ...["-I", join(nd, "include"), "-I", join(nd, "driver"), "-I", join(nd, "katgen")],
          "-c",
          main,
          "-o",
          join(work, "ngcc_icount.o"),
        ],
        `compiling ${what}`,
      );
      // The DRBG under another name: ngcc_icount.c's randombytes wraps it (collection off inside it).
      const rename = ["-Drandombytes=ngcc_icount_drbg", "-DPQCLEAN_randombytes=ngcc_icount_drbg_pqclean"];
      for (const src of rng) {
        const o = join(work, `${basename(src, ".c")}.o`);
        await run(
          [cc, "-std=c99", "-O2", ...rename, "-I", join(nd, "katgen"), "-c", src, "-o", o],
          `compiling ${what}`,
        );
      }
      await run(
        [
          cc,
          ...built.flags,
          ...ldflags,
          "-o",
          join(work, "ngcc-icount"),
          join(work, "ngcc_icount.o"),
          ...rng.map((s) => join(work, `${basename(s, ".c")}.o`)),
          ...linked,
          ...linkLibraries(spec),
        ],
        `linking ${what}`,
      );
      return { program: "ngcc-icount" };
    },
  );
  return { program: join(b.dir, b.result.program), commands: b.commands };
}

/** One operation counted: the program under callgrind in a scratch folder, its two dumps read. */
async function countOperation(
  context: RunContext,
  program: string,
  scratch: string,
  op: string,
  s: InstructionsSettings,
  messageBytes: number,
  timeoutMs: number,
  what: string,
) {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    // The program is copied into the scratch folder, the one folder the sandboxed run sees of the store.
    const copy = join(scratch, basename(program));
    copyFileSync(program, copy);
    const argv = [
      "valgrind",
      ...CALLGRIND_OPTIONS,
      `--callgrind-out-file=${join(scratch, "callgrind.out")}`,
      copy,
      ...["--op", op, "--calls", String(s.calls), "--keys", String(s.keys), "--pool", String(s.pool)],
      ...["--msg-bytes", String(messageBytes)],
    ];
    const result = await runProcess(argv, { timeoutMs, cwd: scratch, writable: [scratch], context });
    const value = interpret<IcountOutput>(result, what, "driver-icount");
    const dumps = readCallgrindDumps(scratch, "callgrind.out");
    let counted: CountedCalls;
    try {
      if (!value.onValgrind) throw new Error("the program did not run under valgrind");
      counted = countedCalls(dumps, value.randombytes, value.calls);
    } catch (err) {
      throw new DriverError("error", `${what}: callgrind's dumps are incomplete (${(err as Error).message})`, result);
    }
    return { value, counted, command: commandOf(result) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function baseRecord(campaign: Campaign, spec: InstanceSpec, profile: string, operation: string) {
  return {
    kind: "instructions" as const,
    schemaVersion: 1 as const,
    provenance: { origin: "measured" as const, tool: TOOL, createdAt: new Date().toISOString() },
    system: campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    implementation: spec.implementation,
    buildProfile: profile,
    operation,
  };
}

export function defineInstructions(
  campaign: ResolvedCampaign,
  tc: Toolchain,
  valgrind: string,
  options: StepOptions,
): StepDefinition<Work> {
  const out = options.out;
  const s = instructionsSettings(campaign);
  const avx512 = cpuHasAvx512();
  const failureRecord = (unit: Unit<Work>, job: Job, f: Failure): InstructionsRecord =>
    failedRecord(baseRecord(campaign, unit.work.spec, unit.key.buildProfile, job.operation), job, f);
  return {
    name: "instructions",
    plan: () =>
      instanceUnits(
        campaign,
        (spec, profile, op, key) => ({
          operation: op,
          entry: { kind: "instructions", key: { ...key, operation: op } },
          inputsHash: sha256(
            JSON.stringify({
              build: buildInputsHash(spec, profile, tc),
              icount: icountFilesHash(),
              valgrind,
              operation: op,
              settings: { calls: s.calls, keys: s.keys, pool: s.pool },
              messageBytes: campaign.timing.messageBytes,
            }),
          ),
        }),
        (spec) => plannedOperations(spec, tc, campaign.timeouts.buildMs),
        (spec) => ({ spec }),
      ),
    gate: (unit) => {
      // valgrind here runs the host's code only: an emulated campaign's programs are the target's.
      if (emulated(campaign.target)) {
        return {
          reason: "error",
          message: `not available: valgrind runs programs of this host's architecture only, and this campaign's programs run under the emulator ${campaign.target.emulator[0]}; count instructions on a native host of the target`,
        };
      }
      const why = valgrindRefusal(unit.profile.cflags, avx512);
      return why ? { reason: "error", message: why } : null;
    },
    failureOf: buildOrDriverFailure,
    outcomeOf: (r) => {
      const rec = r as InstructionsRecord;
      return rec.status === "ok"
        ? null
        : { reason: rec.failure?.reason ?? "error", message: rec.failure?.message ?? "" };
    },
    failureRecord,
    run: async (unit, jobs, ctx) => {
      // What the time step's pre-pass counted in this run is not counted again.
      const earlier = jobs.filter((j) => countedEarlier(out, j));
      for (const job of earlier) ctx.done(job, "skipped");
      const pending = jobs.filter((j) => !earlier.includes(j));
      if (pending.length === 0) return;
      const { spec } = unit.work;
      const key = unit.key as InstanceKey;
      const { profile } = unit;
      ctx.note(spec.notes ?? []);
      const built = await buildInstance(spec, profile, tc, buildPath(out, key), campaign.timeouts.buildMs);
      ctx.built(built.cached);
      const build = buildFacts(campaign, tc, profile, built);
      const icount = await buildIcount(campaign, spec, key, built, profile.ldflags, out);
      const facts = { ...build, artifact: icount.program };
      for (const job of pending) {
        const what = `${spec.instance} ${job.operation}: instructions`;
        const scratch = buildPath(out, key, `icount-run-${process.pid}`);
        try {
          const c = await countOperation(
            campaign.context,
            icount.program,
            scratch,
            job.operation,
            s,
            campaign.timing.messageBytes,
            campaign.timeouts.operationMs * 20,
            what,
          );
          const record: InstructionsRecord = {
            ...baseRecord(campaign, spec, key.buildProfile, job.operation),
            status: "ok",
            ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
            build: facts,
            tool: { name: "callgrind", version: valgrind, options: [...CALLGRIND_OPTIONS] },
            randomness: ICOUNT_RANDOMNESS,
            calls: c.value.calls,
            warmupCalls: c.value.warmupCalls,
            chunks: c.value.chunks,
            inputs: c.value.inputs,
            collectedIr: c.counted.collectedIr,
            baselineIr: c.counted.baselineIr,
            instructionsPerCall: c.counted.instructionsPerCall,
            perCall: c.counted.perCall,
            randombytes: c.counted.randombytes,
            ...(spec.category === "sign" ? { messageBytes: campaign.timing.messageBytes } : {}),
            commands: [c.command],
          };
          ctx.write(job, record);
        } catch (err) {
          if (!(err instanceof DriverError)) throw err;
          const f = { reason: err.reason, message: err.message };
          ctx.write(
            job,
            failureRecord(unit, job, { ...f, extra: { build: facts, commands: [commandOf(err.result)] } }),
          );
        }
      }
    },
  };
}

/**
 * The instructions step on its own: refuses (InputError, exit 2) when valgrind is missing. Off unless asked
 * for (`--steps instructions`) or the campaign sets `instructions: { enabled: true }`.
 */
export async function instructionsCampaign(
  campaign: ResolvedCampaign,
  options: StepOptions & { asked?: boolean },
): Promise<StepSummary & { notes?: string[] }> {
  if (!options.asked && !instructionsSettings(campaign).enabled) {
    return { planned: 0, records: 0, failed: 0, skipped: 0, failures: [], notes: ["off in this campaign"] };
  }
  const valgrind = await valgrindVersion();
  if (!valgrind) {
    throw new InputError(
      "the instructions step needs valgrind (callgrind), which is not installed: install it (apt-get install valgrind) or leave the step out",
    );
  }
  const tc = await toolchain(campaign.context);
  return runStep(defineInstructions(campaign, tc, valgrind, options), options);
}
