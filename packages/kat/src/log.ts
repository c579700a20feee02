// The KAT log: a plain-text account of one verification (commands, compiler, flags, generated and expected
// SHA-256, verdict and diagnosis). It is evidence: the kat record carries its SHA-256 and the report lists it in
// section 7.
import type { BuildProfile, Campaign, Command, InstanceSpec } from "@ngcc-perf/runner";
import { TOOL } from "@ngcc-perf/runner";
import type { KatRecord } from "@ngcc-perf/schema";
import type { KatPlan } from "./expect.ts";
import type { BuiltKatgen, KatgenRun } from "./generator.ts";
import type { ManifestCheck } from "./manifest.ts";

export interface LogInput {
  campaign: Campaign;
  spec: InstanceSpec;
  profile: BuildProfile;
  stem: string;
  started: Date;
  compilerVersion: string;
  plan: KatPlan | null;
  manifest: ManifestCheck | undefined;
  built: BuiltKatgen | undefined;
  run: KatgenRun | null;
  commands: Command[];
  checks: NonNullable<KatRecord["checks"]>;
  verdict: "PASS" | "FAIL" | "ERROR";
  outcome: NonNullable<KatRecord["outcome"]>;
  message: string | undefined;
  diagnosis: KatRecord["diagnosis"];
  warnings: string[];
}

/** An argv as a reader would type it (quoted where needed); the process itself never saw a shell. */
export function showArgv(argv: readonly string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_./:=+,@%-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
}

const RNG_TEXT = {
  nist: "NIST AES-256 CTR_DRBG (rng.c), seeded with 0x00..0x2F",
  hqc: "HQC SHAKE256 KAT RNG, seeded with 0x00..0x2F",
} as const;

export function formatLog(x: LogInput): string {
  const out: string[] = [];
  const kv = (k: string, v: string) => out.push(`${`${k}:`.padEnd(18)}${v}`);
  out.push(`# ngcc-perf KAT log — ${x.spec.algorithmId}/${x.spec.instance} [${x.profile.name}]`, "");
  kv("tool", `${TOOL.name} ${TOOL.version}`);
  kv("started", x.started.toISOString());
  kv("finished", new Date().toISOString());
  kv("campaign", `${x.campaign.name} (${x.campaign.file})`);
  kv("system", x.campaign.system);
  kv("algorithm", `${x.spec.algorithmId} ${x.spec.algorithmName} (${x.spec.category})`);
  kv("instance", `${x.spec.instance} (${x.spec.implementation})`);
  kv(
    "build profile",
    `${x.profile.name}: ${x.profile.cflags.join(" ")}${x.profile.ldflags.length ? ` | ldflags ${x.profile.ldflags.join(" ")}` : ""}`,
  );
  kv("compiler", `${x.campaign.cc} — ${x.compilerVersion}`);
  if (x.built) {
    kv("flags", x.built.plan.flags.join(" ") || "(none)");
    kv("KAT defines", x.built.plan.defines.join(" ") || "(none)");
    kv("generator", x.built.plan.katgenFlags.join(" "));
    kv("build", `${x.built.dir}${x.built.cached ? " (cached)" : ""}`);
    kv("inputs SHA-256", x.built.plan.inputsHash);
  }
  if (x.plan) {
    kv("randomness", RNG_TEXT[x.plan.rng]);
    kv("entries", String(x.plan.entries));
  }
  out.push("", "## Manifest");
  if (!x.manifest)
    out.push(x.plan?.expectations.some((e) => e.sha256) ? "not applicable: expected hashes are compared" : "none");
  else {
    kv("manifest", `${x.manifest.display}: ${x.manifest.status}`);
    if (x.manifest.listedAs) kv("file", x.manifest.listedAs);
    if (x.manifest.expected) kv("listed SHA-256", x.manifest.expected);
    if (x.manifest.actual !== undefined) kv("file SHA-256", x.manifest.actual ?? "(file missing)");
    for (const p of x.manifest.problems) out.push(`problem: ${p}`);
  }
  out.push("", "## Expected and generated");
  for (const e of x.plan?.expectations ?? []) {
    out.push(
      `- expect ${e.form} (${e.entries} ${e.entries === 1 ? "entry" : "entries"}) from ${e.path ?? e.source}${e.sha256 ? `: ${e.sha256}` : ""}`,
    );
  }
  for (const c of x.checks) {
    out.push(
      `- ${c.match ? "match   " : "MISMATCH"} ${c.form} (${c.entries}): expected ${c.expectedSha256}, generated ${c.generatedSha256}`,
    );
  }
  if (x.run) {
    out.push(`generated files: ${x.run.paths.rsp} (+ .single.txt, .all.txt, .info)`);
    const l = x.run.info?.lengths;
    if (l) {
      for (const [k, v] of Object.entries(l)) {
        if (v)
          out.push(`lengths ${k}: min ${v.min}, mean ${(v.sum / v.count).toFixed(1)}, max ${v.max} over ${v.count}`);
      }
    }
  }
  out.push("", "## Commands");
  for (const c of x.commands) {
    out.push(`$ ${showArgv(c.argv)}`);
    out.push(
      `  exit ${c.exitCode ?? "-"}${c.signal ? `, signal ${c.signal}` : ""}${c.timedOut ? ", TIMED OUT" : ""}, ${c.durationMs.toFixed(0)} ms${c.timeLimitMs ? ` (limit ${c.timeLimitMs / 1000} s)` : ""}`,
    );
    if (c.stderrTail && (c.exitCode !== 0 || c.signal)) {
      for (const line of c.stderrTail.trimEnd().split("\n").slice(-12)) out.push(`  | ${line}`);
    }
  }
  out.push("", "## Verdict");
  kv("verdict", x.verdict);
  kv("outcome", x.outcome);
  if (x.message) kv("reason", x.message);
  if (x.diagnosis) {
    const d = x.diagnosis;
    if (d.firstCount !== undefined) kv("first count", String(d.firstCount));
    if (d.field) kv("field", d.field);
    if (d.expected) kv("expected", d.expected);
    if (d.actual) kv("generated", d.actual);
    kv("entries differ", String(d.differingEntries));
  }
  for (const w of x.warnings) out.push(`warning: ${w}`);
  return `${out.join("\n")}\n`;
}
