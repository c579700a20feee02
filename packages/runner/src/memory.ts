// The memory step: stack and heap high-water of every operation over many inputs (docs/methodology.md, "Memory";
// the code and data size of the instance's objects are the code-size step's). For every instance × build profile: the build's
// memory executable (ngcc-driver-memory: the driver, the KAT DRBG in place of the system randomness and copies of
// the instance's objects whose allocation calls are renamed to counting wrappers) runs `memory --measure highwater
// --inputs 100` once per operation in a fresh process: for each input i, randombytes seeded with KAT count i's
// seed, the operation's inputs made from it, then the call on a painted stack, heap counting on around it. The
// record keeps the maxima, every input's figures and which input gave the maximum. The seeds' RSS proxies stay
// with the time step (its run says --measure rss).
import type { MemoryRecord } from "@ngcc-perf/schema";
import { quantile, sortedCopy } from "@ngcc-perf/stats";
import { HEAP_FUNCTIONS } from "./build.ts";
import type { Campaign } from "./campaign.ts";
import { type DriverMemory, driverRun } from "./driver.ts";
import { checkMemoryOutput } from "./plausibility.ts";
import { commandOf } from "./proc.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import {
  buildFacts,
  buildUnit,
  type Measurement,
  type MeasurementOptions,
  runMeasurement,
} from "./step/measurement.ts";

/** What the campaign's `memory` block sets, with defaults. */
export interface MemorySettings {
  enabled: boolean;
}

export function memorySettings(campaign: Campaign): MemorySettings {
  return { enabled: campaign.config.memory?.enabled ?? false };
}

/** Inputs per operation: every count of the KAT file (native/katgen makes 100). */
export const MEMORY_INPUTS = 100;

/**
 * The driver's time limit for the inputs of one operation, in ns: a quarter of the operation timeout, so a slow
 * operation stops after the inputs that fit (the record says so: inputs.limitedBy) instead of timing out.
 */
export function memoryTimeLimitNs(operationMs: number): number {
  return Math.max(1, Math.floor(operationMs / 4)) * 1_000_000;
}

/** The driver arguments of one measured operation (the RSS run left out). */
export function memoryArgs(op: string, messageBytes: number, operationMs: number): string[] {
  return [
    "memory",
    "--op",
    op,
    "--measure",
    "highwater",
    "--inputs",
    String(MEMORY_INPUTS),
    "--time-limit-ns",
    String(memoryTimeLimitNs(operationMs)),
    "--msg-bytes",
    String(messageBytes),
  ];
}

/** The inputs in words (the record's inputs.description). */
export function inputsDescription(source: "kat-seeds" | "build-randomness", sign: boolean): string {
  return source === "kat-seeds"
    ? `input i: randombytes (the KAT generator's AES-256 CTR_DRBG) seeded with KAT count i's 48-byte seed, then the operation's inputs made from it as the KAT generator makes count i's (keys, ciphertext or protocol messages)${sign ? "; the message is the driver's (msg-bytes long), not the KAT's" : ""}`
    : "the build's own randomness (the instance has no randomness source ngcc-perf could replace with the KAT DRBG): one input";
}

/** min, median, max, the first input that gave the max, and the values. */
export function memoryDistribution(values: readonly number[]) {
  if (values.length === 0) throw new Error("no values");
  const sorted = sortedCopy(values);
  const max = sorted[sorted.length - 1] as number;
  return {
    min: sorted[0] as number,
    median: quantile(sorted, 0.5),
    max,
    maxInput: values.indexOf(max),
    values: [...values],
  };
}

/** How the stack figure is obtained (native/driver/ngcc_hw.c). */
export const STACK_ENTRY = "makecontext / swapcontext onto an mmap'ed stack, a PROT_NONE guard page below it";
export const HEAP_TECHNIQUE =
  "objcopy --redefine-sym=<function>=ngcc_heap_<function> on copies of the instance's objects (the C library's own calls are not counted)";

/** What a build with these flags cannot give, or gives differently, in words (the record's limits). */
export function memoryLimits(flags: readonly string[], stack: boolean, heap: boolean): string[] {
  const limits: string[] = [];
  const asan = flags.some((f) => /^-fsanitize=(.*,)?address(,|$)/.test(f));
  if (!stack)
    limits.push(
      asan
        ? "no stack figure: AddressSanitizer does not support swapcontext, so the call ran on the process's own stack"
        : "no stack figure: the driver could not paint a stack of its own for this build",
    );
  else if (asan)
    limits.push(
      "the stack figure is the AddressSanitizer build's (its redzones enlarge the instrumented frames); ASan does not fully support the swapcontext the painted stack is entered with and warns so on stderr",
    );
  if (!heap)
    limits.push(
      flags.some((f) => f.startsWith("-flto"))
        ? "no heap figure: under -flto the objects hold compiler IR whose allocation calls objcopy cannot rename"
        : "no heap figure: the instance's allocation calls were not renamed in this build",
    );
  return limits;
}

/** The record of one measured operation, from the driver's output. */
export function memoryRecordOf(
  value: DriverMemory,
  facts: MemoryRecord["build"],
  extra: {
    messageBytes?: number;
    commands: NonNullable<MemoryRecord["commands"]>;
  },
): Partial<MemoryRecord> {
  const stack = value.stackBytes !== undefined;
  const heap = value.heapPeakBytes !== undefined;
  const limits = memoryLimits(facts?.flags ?? [], stack, heap);
  const inputs = value.inputs;
  if (inputs?.limitedBy === "time-limit")
    limits.push(
      `${inputs.count} of ${inputs.asked} inputs: the run stopped at its time limit (a quarter of the operation timeout)`,
    );
  const dist = (values: number[] | undefined) => (values?.length ? memoryDistribution(values) : undefined);
  const stackDist = stack ? dist(value.stackBytesPerInput) : undefined;
  const heapDist = heap ? dist(value.heapPeakBytesPerInput) : undefined;
  const allocDist = heap ? dist(value.heapAllocationsPerInput) : undefined;
  return {
    build: facts,
    ...(inputs
      ? {
          inputs: {
            count: inputs.count,
            asked: inputs.asked,
            limitedBy: inputs.limitedBy,
            source: inputs.source,
            description: inputsDescription(inputs.source, extra.messageBytes !== undefined),
          },
        }
      : {}),
    ...(stack ? { stackBytes: value.stackBytes, stackBaselineBytes: value.stackBaselineBytes ?? 0 } : {}),
    ...(heap ? { heapPeakBytes: value.heapPeakBytes, heapAllocations: value.heapAllocations ?? 0 } : {}),
    ...(stackDist || heapDist || allocDist
      ? {
          distribution: {
            ...(stackDist ? { stackBytes: stackDist } : {}),
            ...(heapDist ? { heapPeakBytes: heapDist } : {}),
            ...(allocDist ? { heapAllocations: allocDist } : {}),
          },
        }
      : {}),
    method: {
      ...(stack
        ? {
            stack: {
              regionBytes: value.stackRegionBytes ?? 0,
              pattern: value.stackPattern ?? "",
              entry: STACK_ENTRY,
            },
          }
        : {}),
      ...(heap ? { heap: { functions: [...HEAP_FUNCTIONS], technique: HEAP_TECHNIQUE } } : {}),
    },
    ...(limits.length ? { limits } : {}),
    ...(extra.messageBytes !== undefined ? { messageBytes: extra.messageBytes } : {}),
    commands: extra.commands,
  };
}

/** The built instance's memory executable and what its records say of the build. */
interface MemoryBuild {
  facts: NonNullable<MemoryRecord["build"]>;
  driver: string;
}

/**
 * The memory step: off unless asked for (`--steps memory`) or the campaign sets `memory: { enabled: true }`.
 */
export const memoryMeasurement: Measurement<undefined, MemoryBuild> = {
  name: "memory",
  kind: "memory",
  enabled: (campaign) => memorySettings(campaign).enabled,
  inputs: ({ campaign }, _spec, _profile, op) => ({
    operation: op,
    args: memoryArgs(op, campaign.timing.messageBytes, campaign.timeouts.operationMs),
  }),
  build: async (env, unit) => {
    const built = await buildUnit(env, unit);
    const facts = { ...buildFacts(env.campaign, env.tc, unit.profile, built), artifact: built.memoryDriver };
    return {
      cached: built.cached,
      facts,
      driver: built.memoryDriver,
    };
  },
  failureFields: (_env, built) => ({ build: built.facts }),
  measure: async ({ campaign }, unit, built, job) => {
    const { spec } = unit.work;
    const mem = await driverRun<DriverMemory>(
      campaign.context,
      built.driver,
      memoryArgs(job.operation, campaign.timing.messageBytes, campaign.timeouts.operationMs),
      campaign.timeouts.operationMs,
      `${spec.instance} ${job.operation}: memory`,
      "driver-memory",
      checkMemoryOutput,
    );
    return memoryRecordOf(mem.value, built.facts, {
      ...(spec.category === "sign" ? { messageBytes: campaign.timing.messageBytes } : {}),
      commands: [commandOf(mem.result)],
    });
  },
};

/** The memory step on its own. */
export const memoryCampaign = (campaign: ResolvedCampaign, options: MeasurementOptions) =>
  runMeasurement(memoryMeasurement, campaign, options);
