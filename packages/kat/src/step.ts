// The KAT step: for every instance × build profile, check the shipped KAT against its manifest, build the
// generator with the instance, generate, compare byte for byte (CRLF tolerated), and write the KAT log and
// the kat record. A failing instance yields its record and the step goes on.
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import {
  type AlgorithmSpec,
  BuildError,
  type Campaign,
  type Command,
  emptySummary,
  InputError,
  type InstanceSpec,
  inShard,
  resolveAlgorithms,
  type StepOptions,
  type StepSummary,
  selected,
  sha256,
  storePaths,
  TOOL,
  toolchain,
  writeFileAtomic,
  writeJsonAtomic,
} from "@ngcc-perf/runner";
import type { KatRecord } from "@ngcc-perf/schema";
import { type KatPlan, planExpectations } from "./expect.ts";
import { type BuiltKatgen, buildKatgen, type KatgenRun, runKatgen } from "./generator.ts";
import { formatLog, type LogInput } from "./log.ts";
import { checkManifestFor, type ManifestCheck } from "./manifest.ts";
import { deriveForm, diagnose, type Form, hasCrlf, toLf } from "./rsp.ts";

export interface KatOptions extends StepOptions {
  /** Instances verified at once (default: the machine's parallelism, at most 4). */
  jobs?: number;
}

export type KatVerdict = "PASS" | "FAIL" | "ERROR";

interface Unit {
  algorithm: AlgorithmSpec;
  spec: InstanceSpec;
  profile: string;
  /** File stem in the store: the instance, or <instance>~<profile> for a second build profile. */
  stem: string;
}

/** The store paths of one instance's KAT record and log (the first build profile keeps the plain name). */
export function katStem(spec: InstanceSpec, profile: string): string {
  return spec.buildProfiles[0] === profile ? spec.instance : `${spec.instance}~${profile}`;
}

function existing(path: string): { inputsHash?: string; verdict?: string } | null {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as { inputsHash?: string; verdict?: string };
  } catch {
    return null;
  }
}

const RNG_NAME = { nist: "nist-ctr-drbg", hqc: "hqc-shake256" } as const;

function lengthsOf(run: KatgenRun | null): KatRecord["lengths"] | undefined {
  const l = run?.info?.lengths;
  if (!l) return undefined;
  const out: NonNullable<KatRecord["lengths"]> = {};
  for (const k of ["publicKeyBytes", "ciphertextBytes", "signatureBytes"] as const) {
    const v = l[k];
    if (v && v.count > 0) out[k] = { min: v.min, mean: v.sum / v.count, max: v.max, samples: v.count };
  }
  return Object.keys(out).length ? out : undefined;
}

function runFailure(run: KatgenRun, timeoutMs: number): NonNullable<KatRecord["error"]> {
  const r = run.result;
  const stderr = r.stderr.trim();
  const last = stderr ? stderr.split("\n").slice(-3).join(" | ") : "";
  const tailOf = stderr ? { stderrTail: stderr.slice(-2000) } : {};
  if (r.spawnError) return { reason: "error", message: `cannot start the KAT generator (${r.spawnError})` };
  if (r.timedOut) {
    const at = run.info?.failed ? ` (in ${run.info.failed.operation})` : "";
    return {
      reason: "timeout",
      message: `KAT generation exceeded its time limit of ${timeoutMs / 1000} s${at}`,
      signal: r.signal,
      exitCode: null,
      ...tailOf,
    };
  }
  if (r.signal) {
    return {
      reason: "crash",
      message: `KAT generator killed by ${r.signal}${last ? `: ${last}` : ""}`,
      signal: r.signal,
      exitCode: null,
      ...tailOf,
    };
  }
  if (r.exitCode === 1) {
    return {
      reason: "check-failed",
      message: `KAT generation failed${last ? `: ${last}` : ""}`,
      signal: null,
      exitCode: 1,
      ...tailOf,
    };
  }
  return {
    reason: "error",
    message: `KAT generator exited with ${r.exitCode}${last ? `: ${last}` : ""}`,
    signal: null,
    exitCode: r.exitCode,
    ...tailOf,
  };
}

export async function katCampaign(campaign: Campaign, options: KatOptions): Promise<StepSummary> {
  const algorithms = resolveAlgorithms(campaign);
  const paths = storePaths(options.out, campaign.system);
  const tc = await toolchain(campaign.cc);
  const progress = options.onProgress ?? (() => {});
  const summary = emptySummary();
  const units: Unit[] = algorithms.flatMap((algorithm) =>
    algorithm.instances
      .filter((spec) => selected(spec, options.only))
      .flatMap((spec) =>
        spec.buildProfiles
          .filter((profile) => inShard(`${spec.algorithmId}/${spec.instance}/${profile}`, options.shard))
          .map((profile) => ({ algorithm, spec, profile, stem: katStem(spec, profile) })),
      ),
  );
  for (const u of units) {
    if (!campaign.profiles[u.profile]) throw new InputError(`${campaign.file}: unknown build profile ${u.profile}`);
  }
  const total = units.length;
  progress({ type: "plan", step: "kat", total });
  let done = 0;

  const verify = async (u: Unit): Promise<void> => {
    const { algorithm, spec, profile: profileName, stem } = u;
    const profile = campaign.profiles[profileName];
    if (!profile) throw new InputError(`unknown build profile ${profileName}`);
    const recordPath = paths.katRecord(spec.algorithmId, stem);
    const logPath = paths.katLog(spec.algorithmId, stem);
    const logRel = relative(paths.dataDir, logPath).split("\\").join("/");
    const started = new Date();
    const commands: Command[] = [];
    const warnings: string[] = [];
    const plan = planExpectations(campaign, algorithm, spec);
    let verdict: KatVerdict = "ERROR";
    let outcome: NonNullable<KatRecord["outcome"]> = "error";
    let error: KatRecord["error"];
    let manifest: ManifestCheck | undefined;
    let built: BuiltKatgen | undefined;
    let run: KatgenRun | null = null;
    let inputsHash: string | undefined;
    const checks: NonNullable<KatRecord["checks"]> = [];
    let diagnosis: KatRecord["diagnosis"];
    let diagnosisText: string | undefined;

    const finish = (status: "ok" | "failed" | "skipped", message?: string) => {
      done++;
      progress({
        type: "job",
        step: "kat",
        algorithmId: spec.algorithmId,
        instance: spec.instance,
        profile: profileName,
        operation: "kat",
        status,
        done,
        total,
        ...(message ? { message } : {}),
      });
    };

    if ("error" in plan) {
      outcome = "no-expected-kat";
      error = { reason: "error", message: plan.error };
    } else {
      // 1. The shipped KAT against its manifest.
      const rspExpectation = plan.expectations.find((e) => e.path);
      if (plan.manifest && rspExpectation?.path) {
        manifest = checkManifestFor(plan.manifest.path, rspExpectation.path, plan.manifest.display);
        warnings.push(...manifest.warnings);
      }
      // 2. Build.
      try {
        built = await buildKatgen(spec, profile, tc, join(paths.buildDir, spec.algorithmId), campaign.timeouts.buildMs);
        commands.push(...built.commands);
        progress({
          type: "build",
          step: "kat",
          algorithmId: spec.algorithmId,
          instance: spec.instance,
          profile: profileName,
          cached: built.cached,
        });
      } catch (err) {
        if (!(err instanceof BuildError)) throw err;
        commands.push(...err.commands);
        error = {
          reason: "compile-error",
          message: err.message,
          exitCode: err.result.exitCode,
          signal: err.result.signal,
        };
      }
      if (built) {
        inputsHash = sha256(
          JSON.stringify({
            build: built.plan.inputsHash,
            rng: plan.rng,
            entries: plan.entries,
            expectations: plan.expectations.map((e) => ({
              form: e.form,
              entries: e.entries,
              sha256: e.sha256 ?? (e.path && existsSync(e.path) ? sha256(readFileSync(e.path)) : null),
            })),
            manifest: plan.manifest && existsSync(plan.manifest.path) ? sha256(readFileSync(plan.manifest.path)) : null,
          }),
        );
        const prior = options.resume ? existing(recordPath) : null;
        if (prior && prior.inputsHash === inputsHash && prior.verdict !== "ERROR" && existsSync(logPath)) {
          summary.skipped++;
          finish("skipped");
          return;
        }
        // 3. Generate every form in one run.
        run = await runKatgen(built.exe, {
          entries: plan.entries,
          rng: plan.rng,
          algname: spec.instance,
          outDir: join(paths.buildDir, "kat-output", spec.algorithmId, stem),
          timeoutMs: campaign.timeouts.katMs,
        });
        commands.push(run.command);
        if (run.result.exitCode !== 0 || run.result.timedOut || run.result.signal) {
          error = runFailure(run, campaign.timeouts.katMs);
        } else {
          // 4. Compare.
          const compared = compare(plan, run, warnings);
          checks.push(...compared.checks);
          diagnosis = compared.diagnosis;
          diagnosisText = compared.text;
          const corrupt = manifest?.status === "mismatch";
          if (corrupt) {
            verdict = "FAIL";
            outcome = "corrupt-kat";
          } else if (compared.checks.every((c) => c.match)) {
            verdict = "PASS";
            outcome = "match";
          } else {
            verdict = "FAIL";
            outcome = "output-differs";
          }
        }
      }
    }

    const message =
      outcome === "corrupt-kat"
        ? `corrupt KAT file: ${manifest?.problems.join("; ")}`
        : outcome === "output-differs"
          ? `KAT mismatch: ${diagnosisText ?? "the generated output differs from the expected one"}`
          : error?.message;
    const primary = checks[0];
    const expectedPrimary = !("error" in plan) ? plan.expectations[0] : undefined;
    const lengths = lengthsOf(run);
    const build = built
      ? {
          compiler: campaign.cc,
          compilerVersion: tc.version,
          flags: built.plan.flags,
          ...(built.plan.defines.length ? { defines: built.plan.defines } : {}),
          ...(profile.ldflags.length ? { ldflags: profile.ldflags } : {}),
          sourcesSha256: built.plan.inputsHash,
          artifact: built.exe,
        }
      : undefined;
    const logInput: LogInput = {
      campaign,
      spec,
      profile,
      stem,
      started,
      compilerVersion: tc.version,
      plan: "error" in plan ? null : plan,
      manifest,
      built,
      run,
      commands,
      checks,
      verdict,
      outcome,
      message,
      diagnosis,
      warnings,
    };
    const log = formatLog(logInput);
    writeFileAtomic(logPath, log);
    const record: KatRecord = {
      kind: "kat",
      schemaVersion: 1,
      provenance: { origin: "measured", tool: TOOL, createdAt: new Date().toISOString() },
      system: campaign.system,
      algorithmId: spec.algorithmId,
      instance: spec.instance,
      implementation: spec.implementation,
      buildProfile: profileName,
      verdict,
      log: { path: logRel, sha256: sha256(log) },
      ...(inputsHash ? { inputsHash } : {}),
      ...(build ? { build } : {}),
      ...(manifest
        ? {
            manifest: {
              path: manifest.display,
              status: manifest.status,
              ...(manifest.status === "mismatch" && manifest.listedAs && manifest.expected
                ? {
                    mismatches: [
                      { file: manifest.listedAs, expected: manifest.expected, actual: manifest.actual ?? null },
                    ],
                  }
                : {}),
            },
          }
        : expectedPrimary?.sha256
          ? { manifest: { path: "(none)", status: "not-applicable" as const } }
          : {}),
      ...(expectedPrimary
        ? {
            expected: {
              source: expectedPrimary.path ? ("rsp-file" as const) : ("sha256" as const),
              ...(expectedPrimary.path
                ? { path: relative(spec.submissionDir, expectedPrimary.path).split("\\").join("/") }
                : {}),
              ...(primary ? { sha256: primary.expectedSha256 } : {}),
              form: expectedPrimary.form,
              entries: expectedPrimary.entries,
              ...(expectedPrimary.sha256 ? { note: expectedPrimary.source } : {}),
            },
          }
        : {}),
      ...(run?.info && run.outputs.rsp && primary
        ? {
            generated: {
              sha256: primary.generatedSha256,
              entries: run.info.entries,
              bytes: run.outputs.rsp.length,
              forms: {
                rsp: sha256(run.outputs.rsp),
                ...(run.outputs.single ? { single: sha256(run.outputs.single) } : {}),
                ...(run.outputs.all ? { all: sha256(run.outputs.all) } : {}),
              },
            },
          }
        : {}),
      ...(diagnosis ? { diagnosis } : {}),
      ...(error ? { error } : {}),
      outcome,
      ...("error" in plan ? {} : { rng: RNG_NAME[plan.rng] }),
      ...(checks.length ? { checks } : {}),
      ...(lengths ? { lengths } : {}),
      ...(warnings.length ? { warnings } : {}),
      commands,
    };
    writeJsonAtomic(recordPath, record);
    if (verdict === "PASS") {
      summary.records++;
      finish("ok");
    } else {
      summary.records++;
      summary.failed++;
      summary.failures.push({
        algorithmId: spec.algorithmId,
        instance: spec.instance,
        operation: "kat",
        reason: outcome === "error" ? (error?.reason ?? "error") : outcome,
        message: `${verdict}: ${message ?? outcome}`,
      });
      finish("failed", `${verdict}: ${message ?? outcome}`);
    }
  };

  // A small pool: instances are independent, and most of a KAT is one single-threaded process.
  const jobs = Math.max(1, options.jobs ?? Math.min(4, availableParallelism()));
  let next = 0;
  const worker = async () => {
    while (next < units.length) {
      const u = units[next++] as Unit;
      await verify(u);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, units.length) }, worker));
  return summary;
}

interface Compared {
  checks: NonNullable<KatRecord["checks"]>;
  diagnosis?: KatRecord["diagnosis"];
  text?: string;
}

/** A form of the generated output over `entries` entries: as written, or cut from the .rsp when fewer. */
function formOf(run: KatgenRun, form: Form, entries: number): Buffer | undefined {
  if (run.info?.entries === entries || (form === "single" && run.outputs.single)) return run.outputs[form];
  if (!run.outputs.rsp) return undefined;
  return Buffer.from(deriveForm(run.outputs.rsp.toString("latin1"), form, entries), "latin1");
}

/** Every expectation against the generated forms; the first mismatch of a shipped file is diagnosed. */
function compare(plan: KatPlan, run: KatgenRun, warnings: string[]): Compared {
  const checks: Compared["checks"] = [];
  let diagnosis: KatRecord["diagnosis"];
  let text: string | undefined;
  for (const e of plan.expectations) {
    const generated = formOf(run, e.form, e.entries) ?? Buffer.alloc(0);
    const generatedSha256 = sha256(generated);
    if (e.path) {
      if (!existsSync(e.path)) {
        checks.push({
          form: e.form,
          entries: e.entries,
          expectedSha256: sha256(""),
          generatedSha256,
          match: false,
          source: e.source,
        });
        diagnosis = { differingEntries: e.entries };
        text = `the expected KAT file ${e.source} does not exist`;
        continue;
      }
      const raw = readFileSync(e.path, "latin1");
      const expectedText = toLf(raw);
      if (hasCrlf(raw)) warnings.push(`${e.source} has CRLF line endings; compared as LF`);
      const generatedText = generated.toString("latin1");
      const match = expectedText === generatedText;
      checks.push({
        form: e.form,
        entries: e.entries,
        expectedSha256: sha256(Buffer.from(expectedText, "latin1")),
        generatedSha256,
        match,
        source: e.source,
      });
      if (!match && !diagnosis) {
        const d = diagnose(expectedText, generatedText);
        diagnosis = {
          differingEntries: d.differingEntries,
          ...(d.firstCount !== undefined ? { firstCount: d.firstCount } : {}),
          ...(d.field ? { field: d.field } : {}),
          ...(d.expected ? { expected: d.expected } : {}),
          ...(d.actual ? { actual: d.actual } : {}),
        };
        text = d.summary;
      }
    } else if (e.sha256) {
      const match = generatedSha256 === e.sha256;
      checks.push({
        form: e.form,
        entries: e.entries,
        expectedSha256: e.sha256,
        generatedSha256,
        match,
        source: e.source,
      });
      if (!match && !text) {
        text = `the ${e.form} form (${e.entries} ${e.entries === 1 ? "entry" : "entries"}) hashes to ${generatedSha256}, expected ${e.sha256} (${e.source}); an expected hash cannot say which entry differs`;
      }
    }
  }
  return { checks, ...(diagnosis ? { diagnosis } : {}), ...(text ? { text } : {}) };
}
