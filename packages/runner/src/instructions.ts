// The instructions step: instructions per call of every operation, counted under valgrind's callgrind — exact
// and repeatable where no hardware counter exists (docs/methodology.md, "Instruction counts"). For every
// instance × build profile: the timing build's instance objects linked with native/icount/ngcc_icount.c and
// the KAT DRBG (seeded, so every run makes the same inputs), run once per operation under
// `valgrind --tool=callgrind --collect-atstart=no`, which collects only between the program's client requests.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import {
  buildPath,
  type DriverIcountOutput,
  type InstanceKey,
  type InstructionsRecord,
  recordPath,
} from "@ngcc-perf/schema";
import { median } from "@ngcc-perf/stats";
import { type Command, cachedBuild, harnessCompileArgv, linkLibraries, RANDOMNESS_SOURCE_NAMES } from "./build.ts";
import type { Campaign } from "./campaign.ts";
import { DriverError, interpret } from "./driver.ts";
import type { InstanceSpec } from "./instances.ts";
import { nativeDir } from "./native.ts";
import { commandOf } from "./proc.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import {
  buildFacts,
  buildUnit,
  defineMeasurement,
  type MeasureEnv,
  type Measurement,
  type MeasurementOptions,
  runMeasurement,
} from "./step/measurement.ts";
import type { Job } from "./step/run.ts";
import { sha256 } from "./store.ts";
import { underValgrind, type ValgrindOperation, valgrindMeasurement, valgrindOperation } from "./valgrind.ts";

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
  const ownObjects = built.staticObjects.filter((_o, i) => !RANDOMNESS_SOURCE_NAMES.has(basename(sources[i] ?? "")));
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
      const linked = [...driverObjects, ...ownObjects].map((o, i) => {
        const to = join("obj", `${i}-${basename(o)}`);
        copyFileSync(o, join(work, to));
        return join(work, to);
      });
      const includes = ["-I", join(nd, "include"), "-I", join(nd, "driver"), "-I", join(nd, "katgen")];
      await run(
        harnessCompileArgv(cc, spec, ["-O2"], includes, main, join(work, "ngcc_icount.o")),
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
async function countOperation(at: ValgrindOperation, s: InstructionsSettings, what: string) {
  return underValgrind({
    ...at,
    options: (dir) => [...CALLGRIND_OPTIONS, `--callgrind-out-file=${join(dir, "callgrind.out")}`],
    args: ["--calls", String(s.calls), "--keys", String(s.keys), "--pool", String(s.pool)],
    read: (result, dir) => {
      const value = interpret<IcountOutput>(result, what, "driver-icount");
      const dumps = readCallgrindDumps(dir, "callgrind.out");
      let counted: CountedCalls;
      try {
        if (!value.onValgrind) throw new Error("the program did not run under valgrind");
        counted = countedCalls(dumps, value.randombytes, value.calls);
      } catch (err) {
        throw new DriverError("error", `${what}: callgrind's dumps are incomplete (${(err as Error).message})`, result);
      }
      return { value, counted, command: commandOf(result) };
    },
  });
}

/** The built counter and what its records say of the build. */
interface IcountBuild {
  facts: NonNullable<InstructionsRecord["build"]>;
  program: string;
}

/**
 * The instructions step: refuses (InputError, exit 2) when valgrind is missing. Off unless asked for
 * (`--steps instructions`) or the campaign sets `instructions: { enabled: true }`. env.prepared: valgrind's version.
 */
export const instructionsMeasurement: Measurement<string, IcountBuild> = {
  ...valgrindMeasurement("instructions", instructionsSettings, (s: InstructionsSettings) => ({
    icount: icountFilesHash(),
    settings: { calls: s.calls, keys: s.keys, pool: s.pool },
  })),
  // What the time step's pre-pass counted in this run is not counted again.
  alreadyDone: ({ out }, job) => countedEarlier(out, job),
  build: async (env, unit) => {
    const { profile } = unit;
    const built = await buildUnit(env, unit);
    const icount = await buildIcount(
      env.campaign,
      unit.work.spec,
      unit.key as InstanceKey,
      built,
      profile.ldflags,
      env.out,
    );
    const facts = { ...buildFacts(env.campaign, env.tc, profile, built), artifact: icount.program };
    return { cached: built.cached, facts, program: icount.program };
  },
  failureFields: (_env, built) => ({ build: built.facts }),
  measure: async ({ campaign, prepared, out }, unit, built, job) => {
    const { spec } = unit.work;
    const at = valgrindOperation(
      campaign,
      { out, key: unit.key as InstanceKey, name: "icount" },
      built.program,
      job.operation,
    );
    const c = await countOperation(
      at,
      instructionsSettings(campaign),
      `${spec.instance} ${job.operation}: instructions`,
    );
    return {
      build: built.facts,
      tool: { name: "callgrind", version: prepared, options: [...CALLGRIND_OPTIONS] },
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
  },
};

/** The instructions step as a step definition over a campaign (the time step's pre-pass runs part of it). */
export const defineInstructions = (env: MeasureEnv<string>) => defineMeasurement(instructionsMeasurement, env);

/** The instructions step on its own. */
export const instructionsCampaign = (campaign: ResolvedCampaign, options: MeasurementOptions) =>
  runMeasurement(instructionsMeasurement, campaign, options);
