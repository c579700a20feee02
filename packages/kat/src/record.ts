// The kat record of one verification (record-schema.md): the verdict and outcome, the log it points at, the
// build, the manifest check, what was expected and what was generated, the checks, diagnosis and lengths.
import { relative } from "node:path";
import { type Campaign, type InstanceSpec, rootsOf, sha256, shownPaths, TOOL, type Toolchain } from "@ngcc-perf/runner";
import type { KatRecord } from "@ngcc-perf/schema";
import type { Expectation } from "./expect.ts";
import type { KatgenRun } from "./generator.ts";
import type { KatWork, Verification } from "./verify.ts";

const RNG_NAME = { nist: "nist-ctr-drbg", hqc: "hqc-shake256" } as const;

type Check = NonNullable<KatRecord["checks"]>[number];

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

function buildFacts(campaign: Campaign, tc: Toolchain, w: KatWork, v: Verification): KatRecord["build"] {
  if (!v.built) return undefined;
  const { plan, exe } = v.built;
  return {
    compiler: campaign.cc,
    compilerVersion: tc.version,
    flags: plan.flags,
    ...(plan.defines.length ? { defines: plan.defines } : {}),
    ...(w.profile.ldflags.length ? { ldflags: w.profile.ldflags } : {}),
    sourcesSha256: plan.inputsHash,
    artifact: exe,
  };
}

/** The manifest check, when a manifest was checked (expected hashes standing in for shipped files need none). */
function manifestOf(v: Verification): Pick<KatRecord, "manifest"> {
  const m = v.manifest;
  if (!m) return {};
  const mismatch =
    m.status === "mismatch" && m.listedAs && m.expected && m.actual !== m.expected
      ? { mismatches: [{ file: m.listedAs, expected: m.expected, actual: m.actual ?? null }] }
      : {};
  return { manifest: { path: m.display, status: m.status, ...mismatch } };
}

/** The corrupt-KAT problems with their files as the store shows them: <algorithm-id>/<path in the submission>. */
function corruptionOf(spec: InstanceSpec, v: Verification): Pick<KatRecord, "corruption"> {
  if (!v.corruption.length) return {};
  const shown = (file: string) => `${spec.algorithmId}/${relative(spec.submissionDir, file).split("\\").join("/")}`;
  return {
    corruption: v.corruption.map((p) => ({
      file: shown(p.file),
      ...(p.line ? { line: p.line } : {}),
      message: p.message,
    })),
  };
}

function expectedOf(spec: InstanceSpec, e: Expectation | undefined, check: Check | undefined) {
  if (!e) return {};
  return {
    expected: {
      source: e.path ? ("rsp-file" as const) : ("sha256" as const),
      ...(e.path ? { path: relative(spec.submissionDir, e.path).split("\\").join("/") } : {}),
      ...(check ? { sha256: check.expectedSha256 } : {}),
      form: e.form,
      entries: e.entries,
      ...(e.sha256 ? { note: e.source } : {}),
    },
  };
}

function generatedOf(run: KatgenRun | null, check: Check | undefined) {
  const rsp = run?.outputs.rsp;
  if (!run?.info || !rsp || !check) return {};
  return {
    generated: {
      sha256: check.generatedSha256,
      entries: run.info.entries,
      bytes: rsp.length,
      forms: {
        rsp: sha256(rsp),
        ...(run.outputs.single ? { single: sha256(run.outputs.single) } : {}),
        ...(run.outputs.all ? { all: sha256(run.outputs.all) } : {}),
      },
    },
  };
}

export interface RecordInput {
  campaign: Campaign;
  tc: Toolchain;
  work: KatWork;
  verification: Verification;
  /** The store's build folder (<out>/build), shown as <build> in the record's messages. */
  buildDir?: string;
  /** The log's path relative to data/<system>/ and its text. */
  log: { path: string; text: string };
  inputsHash: string | null;
}

export function katRecord({ campaign, tc, work, verification: v, log, inputsHash, buildDir }: RecordInput): KatRecord {
  const shown = (text: string) => shownPaths(text, rootsOf(work.spec, buildDir, campaign.iccsDir));
  const plan = "error" in work.expect ? null : work.expect;
  const primary = v.checks[0];
  const expectedPrimary = plan?.expectations[0];
  const build = buildFacts(campaign, tc, work, v);
  const lengths = lengthsOf(v.run);
  return {
    kind: "kat",
    schemaVersion: 1,
    provenance: { origin: "measured", tool: TOOL, createdAt: new Date().toISOString() },
    system: campaign.system,
    algorithmId: work.spec.algorithmId,
    instance: work.spec.instance,
    implementation: work.spec.implementation,
    buildProfile: work.profile.name,
    verdict: v.verdict,
    log: { path: log.path, sha256: sha256(log.text) },
    ...(inputsHash ? { inputsHash } : {}),
    ...(build ? { build } : {}),
    ...manifestOf(v),
    ...expectedOf(work.spec, expectedPrimary, primary),
    ...generatedOf(v.run, primary),
    ...(v.diagnosis ? { diagnosis: v.diagnosis } : {}),
    // The message as the page shows it, paths from the submission and the store; stderrTail stays as it was.
    ...(v.error ? { error: { ...v.error, message: shown(v.error.message) } } : {}),
    ...corruptionOf(work.spec, v),
    outcome: v.outcome,
    ...(plan ? { rng: RNG_NAME[plan.rng] } : {}),
    ...(v.checks.length ? { checks: v.checks } : {}),
    ...(lengths ? { lengths } : {}),
    ...(v.warnings.length ? { warnings: v.warnings } : {}),
    commands: v.commands,
  };
}
