// The KAT step: for every instance × build profile, one job — check the shipped KAT against its manifest, build
// the generator with the instance, generate, compare (every entry line byte for byte), and write the KAT log and
// the kat record. Run by the runner's runStep; a failing instance yields its record and the step goes on.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import {
  type AlgorithmSpec,
  type BuildProfile,
  type Campaign,
  type InstanceSpec,
  instanceNames,
  type Job,
  type PipelineStep,
  type ResolvedCampaign,
  rootsOf,
  runStep,
  type StepDefinition,
  type StepOptions,
  type StepSummary,
  sha256,
  shownPaths,
  type Toolchain,
  toolchain,
  type Unit,
  type UnitContext,
  writeFileAtomic,
} from "@ngcc-perf/runner";
import { buildPath, type InstanceKey, type KatRecord, recordPath, relativeRecordPath } from "@ngcc-perf/schema";
import { type KatPlan, planExpectations } from "./expect.ts";
import { type KatBuildPlan, planKatBuild } from "./generator.ts";
import { formatLog } from "./log.ts";
import { katRecord } from "./record.ts";
import { readShipped } from "./shipped.ts";
import { type KatError, type KatWork, unverified, type Verification, verify } from "./verify.ts";

export interface KatOptions extends StepOptions {
  /** Instances verified at once (default: the machine's parallelism, at most 4). */
  jobs?: number;
}

/** The hash of everything a KAT verdict depends on: the generator's build, the randomness and every expectation. */
export function katInputsHash(plan: KatPlan, build: KatBuildPlan): string {
  const fileHash = (path: string | undefined, root?: string) => {
    const read = path ? readShipped(path, root) : null;
    return read?.bytes ? sha256(read.bytes) : null;
  };
  return sha256(
    JSON.stringify({
      build: build.inputsHash,
      rng: plan.rng,
      entries: plan.entries,
      expectations: plan.expectations.map((e) => ({
        form: e.form,
        entries: e.entries,
        sha256: e.sha256 ?? fileHash(e.path, e.root),
      })),
      manifest: fileHash(plan.manifest?.path, plan.manifest?.root),
      used: plan.manifest?.used ?? null,
    }),
  );
}

/** One unit per instance × build profile, its one job's inputs hashed before anything is built. */
function katUnit(
  campaign: Campaign,
  tc: Toolchain,
  spec: InstanceSpec,
  expect: KatWork["expect"],
  profile: BuildProfile,
): Unit<KatWork> {
  const key: InstanceKey = {
    system: campaign.system,
    algorithmId: spec.algorithmId,
    instance: spec.instance,
    buildProfile: profile.name,
  };
  const build = "error" in expect ? null : planKatBuild(spec, profile, tc);
  const inputsHash = build && !("error" in expect) ? katInputsHash(expect, build) : null;
  return {
    key,
    profile,
    names: instanceNames(spec.algorithmId, spec.instance),
    jobs: [{ operation: "kat", entry: { kind: "kat", key }, inputsHash }],
    work: { spec, profile, expect, build },
  };
}

/**
 * The KAT file (absolute) of every instance of an algorithm's submission, whatever the campaign's `instances:`
 * selection (a file an unselected instance uses is used); null when the submission cannot be resolved whole.
 */
function katFilesOf(campaign: Campaign, algorithm: AlgorithmSpec): string[] | null {
  const cfg = campaign.config.algorithms.find((a) => a.id === algorithm.id);
  const files = (specs: readonly InstanceSpec[]) =>
    specs.flatMap((s) => (s.kat?.file ? [join(s.submissionDir, s.kat.file)] : []));
  if (!cfg || "pqclean" in cfg.source) return null;
  if (!cfg.instances) return files(algorithm.instances);
  try {
    return files(algorithm.allInstances());
  } catch {
    return null; // an instance the campaign leaves out does not resolve: say nothing about unused files
  }
}

/** Every unit of the campaign, in campaign order (the runner selects and shards them). */
export function katUnits(campaign: ResolvedCampaign, tc: Toolchain): Array<Unit<KatWork>> {
  return campaign.algorithms.flatMap((algorithm) => {
    const used = katFilesOf(campaign, algorithm) ?? undefined;
    return algorithm.instances.flatMap((spec) => {
      const expect = planExpectations(campaign, algorithm, spec, used);
      return spec.profiles.map((profile) => katUnit(campaign, tc, spec, expect, profile));
    });
  });
}

const logEntry = (key: InstanceKey) => ({ kind: "kat-log", key }) as const;

/** The KAT step as the runner runs it. */
export function defineKat(campaign: ResolvedCampaign, tc: Toolchain, options: KatOptions): StepDefinition<KatWork> {
  const { out } = options;
  // The failure message of each written record that failed (its diagnosis in words is not a record field).
  const told = new WeakMap<KatRecord, string>();
  /** Warnings said on the console in this run. */
  const warned = new Set<string>();
  /** Writes the log of a verification and returns its record. */
  const settle = (unit: Unit<KatWork>, job: Job, v: Verification, writeFile: UnitContext["writeFile"]) => {
    const key = unit.key as InstanceKey;
    const w = unit.work;
    const plan = "error" in w.expect ? null : w.expect;
    const text = formatLog({ campaign, spec: w.spec, profile: w.profile, compilerVersion: tc.version, plan, ...v });
    writeFile(logEntry(key), text);
    const log = { path: relativeRecordPath(logEntry(key)), text };
    const buildDir = resolve(out, "build");
    const record = katRecord({ campaign, tc, work: w, verification: v, log, inputsHash: job.inputsHash, buildDir });
    const message = v.message && shownPaths(v.message, rootsOf(w.spec, buildDir, campaign.iccsDir));
    if (v.verdict !== "PASS") told.set(record, `${v.verdict}: ${message ?? v.outcome}`);
    return record;
  };
  return {
    name: "kat",
    plan: () => katUnits(campaign, tc),
    // A small pool: instances are independent, and most of a KAT is one single-threaded process.
    concurrency: Math.max(1, options.jobs ?? Math.min(4, availableParallelism())),
    // PASS and FAIL stand for identical inputs while their log is there; an ERROR is always redone, and so is a
    // corrupt KAT (cheap: the build is cached), as what makes it corrupt may lie outside the inputs hash (a file
    // the manifest lists but that was missing).
    isCurrent: (r, job) => {
      const rec = r as Partial<KatRecord> | null;
      return (
        !!rec &&
        job.inputsHash !== null &&
        rec.inputsHash === job.inputsHash &&
        rec.verdict !== "ERROR" &&
        rec.outcome !== "corrupt-kat" &&
        job.entry?.kind === "kat" &&
        existsSync(recordPath(out, logEntry(job.entry.key)))
      );
    },
    run: async (unit, [job], ctx) => {
      if (!job) return;
      const key = unit.key as InstanceKey;
      const v = await verify(unit.work, {
        campaign,
        tc,
        buildRoot: buildPath(out, key),
        outputDir: buildPath(out, key, "kat-output", key.instance),
        onBuilt: (cached) => ctx.built(cached),
      });
      const record = settle(unit, job, v, (entry, data) => ctx.writeFile(entry, data));
      // Warnings (a missing manifest, files it lists that no instance uses, CRLF, a difference outside the entries)
      // on the console as well as in the log and the record; one the manifest gives every instance, once.
      const fresh = v.warnings.filter((w) => !warned.has(w));
      for (const w of fresh) warned.add(w);
      ctx.note(fresh.map((w) => `KAT [${key.buildProfile}] warning: ${w}`));
      ctx.write(job, record);
    },
    // Only reached if the runner fails a unit itself: an ERROR record with its log like any other.
    failureRecord: (unit, job, f) => {
      const error: KatError = { reason: f.reason as KatError["reason"], message: f.message };
      const writeFile: UnitContext["writeFile"] = (entry, data) => writeFileAtomic(recordPath(out, entry), data);
      return settle(unit, job, unverified(new Date(), error), writeFile);
    },
    outcomeOf: (r) => {
      const rec = r as KatRecord;
      if (rec.verdict === "PASS") return null;
      const reason = rec.outcome && rec.outcome !== "error" ? rec.outcome : (rec.error?.reason ?? "error");
      return { reason, message: told.get(rec) ?? `${rec.verdict}: ${rec.error?.message ?? rec.outcome}` };
    },
  };
}

/** The KAT step on its own: every selected instance × build profile verified, a kat record and log each. */
export async function katCampaign(campaign: ResolvedCampaign, options: KatOptions): Promise<StepSummary> {
  return runStep(defineKat(campaign, await toolchain(campaign.context), options), options);
}

/** The KAT step of the pipeline (`runPipeline`). */
export const katStep: PipelineStep = { name: "kat", run: (c, o) => katCampaign(c, o) };
