// The memory step: stack and heap high-water of every operation (docs/methodology.md, "Memory"). For every
// instance × build profile: the build's memory executable (ngcc-driver-memory: the driver and copies of the
// instance's objects whose allocation calls are renamed to counting wrappers) runs `memory --measure highwater`
// once per operation in a fresh process: the call on a painted stack of its own, heap counting on around it. The
// seeds' RSS proxies stay with the time step (its run says --measure rss).
import { buildPath, type InstanceKey, type MemoryRecord } from "@ngcc-perf/schema";
import { buildInputsHash, buildInstance, HEAP_FUNCTIONS, type Toolchain, toolchain } from "./build.ts";
import { type Campaign, campaignProfile } from "./campaign.ts";
import { DriverError, type DriverMemory, driverRun } from "./driver.ts";
import type { InstanceSpec } from "./instances.ts";
import { commandOf } from "./proc.ts";
import { type Failure, failedRecord, type Job, runStep, type StepDefinition, type Unit } from "./step/run.ts";
import type { StepOptions, StepSummary } from "./step/types.ts";
import { sha256 } from "./store.ts";
import { buildFacts, buildOrDriverFailure, instanceUnits, plannedOperations } from "./time.ts";
import { TOOL } from "./tool.ts";

/** What the campaign's `memory` block sets, with defaults. */
export interface MemorySettings {
  enabled: boolean;
}

export function memorySettings(campaign: Campaign): MemorySettings {
  return { enabled: campaign.config.memory?.enabled ?? false };
}

/** The driver arguments of one measured operation (the RSS run left out). */
export function memoryArgs(op: string, messageBytes: number): string[] {
  return ["memory", "--op", op, "--measure", "highwater", "--msg-bytes", String(messageBytes)];
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

interface Work {
  spec: InstanceSpec;
}

function baseRecord(campaign: Campaign, spec: InstanceSpec, profile: string, operation: string) {
  return {
    kind: "memory" as const,
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

/** The record of one measured operation, from the driver's output. */
export function memoryRecordOf(
  base: ReturnType<typeof baseRecord>,
  value: DriverMemory,
  facts: MemoryRecord["build"],
  extra: { inputsHash?: string; messageBytes?: number; commands: NonNullable<MemoryRecord["commands"]> },
): MemoryRecord {
  const stack = value.stackBytes !== undefined;
  const heap = value.heapPeakBytes !== undefined;
  const limits = memoryLimits(facts?.flags ?? [], stack, heap);
  return {
    ...base,
    status: "ok",
    ...(extra.inputsHash ? { inputsHash: extra.inputsHash } : {}),
    build: facts,
    ...(stack ? { stackBytes: value.stackBytes, stackBaselineBytes: value.stackBaselineBytes ?? 0 } : {}),
    ...(heap ? { heapPeakBytes: value.heapPeakBytes, heapAllocations: value.heapAllocations ?? 0 } : {}),
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

export function memoryStep(campaign: Campaign, tc: Toolchain, options: StepOptions): StepDefinition<Work> {
  const out = options.out;
  const profileOf = (name: string) => campaignProfile(campaign, name);
  const failureRecord = (unit: Unit<Work>, job: Job, f: Failure): MemoryRecord =>
    failedRecord(baseRecord(campaign, unit.work.spec, unit.key.buildProfile, job.operation), job, f);
  return {
    name: "memory",
    plan: () =>
      instanceUnits(
        campaign,
        (spec, profile, op, key) => ({
          operation: op,
          entry: { kind: "memory", key: { ...key, operation: op } },
          inputsHash: sha256(
            JSON.stringify({
              build: buildInputsHash(spec, profileOf(profile), tc),
              operation: op,
              args: memoryArgs(op, campaign.timing.messageBytes),
            }),
          ),
        }),
        (spec) => plannedOperations(spec, tc, campaign.timeouts.buildMs),
        (spec) => ({ spec }),
      ),
    failureOf: buildOrDriverFailure,
    outcomeOf: (r) => {
      const rec = r as MemoryRecord;
      return rec.status === "ok"
        ? null
        : { reason: rec.failure?.reason ?? "error", message: rec.failure?.message ?? "" };
    },
    failureRecord,
    run: async (unit, pending, ctx) => {
      const { spec } = unit.work;
      const key = unit.key as InstanceKey;
      const profile = profileOf(key.buildProfile);
      ctx.note(spec.notes ?? []);
      const built = await buildInstance(spec, profile, campaign.cc, buildPath(out, key), campaign.timeouts.buildMs);
      ctx.built(built.cached);
      const facts = { ...buildFacts(campaign, tc, key.buildProfile, built), artifact: built.memoryDriver };
      for (const job of pending) {
        try {
          const mem = await driverRun<DriverMemory>(
            built.memoryDriver,
            memoryArgs(job.operation, campaign.timing.messageBytes),
            campaign.timeouts.operationMs,
            `${spec.instance} ${job.operation}: memory`,
          );
          const base = baseRecord(campaign, spec, key.buildProfile, job.operation);
          ctx.write(
            job,
            memoryRecordOf(base, mem.value, facts, {
              ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
              ...(spec.category === "sign" ? { messageBytes: campaign.timing.messageBytes } : {}),
              commands: [commandOf(mem.result)],
            }),
          );
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
 * The memory step on its own. Off unless asked for (`--steps memory`) or the campaign sets
 * `memory: { enabled: true }`.
 */
export async function memoryCampaign(
  campaign: Campaign,
  options: StepOptions & { asked?: boolean },
): Promise<StepSummary & { notes?: string[] }> {
  if (!options.asked && !memorySettings(campaign).enabled) {
    return { planned: 0, records: 0, failed: 0, skipped: 0, failures: [], notes: ["off in this campaign"] };
  }
  return runStep(memoryStep(campaign, await toolchain(campaign.cc), options), options);
}
