// The KAT log: a plain-text account of one verification (commands, compiler, flags, generated and expected
// SHA-256, verdict and diagnosis). It is evidence: the kat record carries its SHA-256 and the report lists it in
// section 7.
import type { BuildProfile, Campaign, Command, InstanceSpec } from "@ngcc-perf/runner";
import { TOOL } from "@ngcc-perf/runner";
import type { KatPlan } from "./expect.ts";
import { problemText } from "./rsp-check.ts";
import type { Verification } from "./verify.ts";

/** A verification with what it was of: the campaign, the instance, the build profile and the comparison plan. */
export interface LogInput extends Verification {
  campaign: Campaign;
  spec: InstanceSpec;
  profile: BuildProfile;
  compilerVersion: string;
  plan: KatPlan | null;
}

/** An argv as a reader would type it (quoted where needed); the process itself never saw a shell. */
export function showArgv(argv: readonly string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_./:=+,@%-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
}

const RNG_TEXT = {
  nist: "NIST AES-256 CTR_DRBG (rng.c), seeded with 0x00..0x2F",
  hqc: "HQC SHAKE256 KAT RNG, seeded with 0x00..0x2F",
} as const;

/** A `key:   value` line of the log. */
const kv = (k: string, v: string) => `${`${k}:`.padEnd(18)}${v}`;

function heading(x: LogInput): string[] {
  const p = x.profile;
  const out = [
    `# ngcc-perf KAT log — ${x.spec.algorithmId}/${x.spec.instance} [${p.name}]`,
    "",
    kv("tool", `${TOOL.name} ${TOOL.version}`),
    kv("started", x.started.toISOString()),
    kv("finished", new Date().toISOString()),
    kv("campaign", `${x.campaign.name} (${x.campaign.file})`),
    kv("system", x.campaign.system),
    kv("algorithm", `${x.spec.algorithmId} ${x.spec.algorithmName} (${x.spec.category})`),
    kv("instance", `${x.spec.instance} (${x.spec.implementation})`),
    kv(
      "build profile",
      `${p.name}: ${p.cflags.join(" ")}${p.ldflags.length ? ` | ldflags ${p.ldflags.join(" ")}` : ""}`,
    ),
    kv("compiler", `${x.campaign.cc} — ${x.compilerVersion}`),
  ];
  if (x.built) {
    const b = x.built;
    out.push(
      kv("flags", b.plan.flags.join(" ") || "(none)"),
      kv("KAT defines", b.plan.defines.join(" ") || "(none)"),
      kv("generator", b.plan.katgenFlags.join(" ")),
      kv("build", `${b.dir}${b.cached ? " (cached)" : ""}`),
      kv("inputs SHA-256", b.plan.inputsHash),
    );
  }
  if (x.plan) out.push(kv("randomness", RNG_TEXT[x.plan.rng]), kv("entries", String(x.plan.entries)));
  return out;
}

function manifestSection(x: LogInput): string[] {
  const m = x.manifest;
  if (!m) return [x.plan?.expectations.some((e) => e.sha256) ? "not applicable: expected hashes are compared" : "none"];
  return [
    kv("manifest", `${m.display}: ${m.status}`),
    ...(m.listedAs ? [kv("file", m.listedAs)] : []),
    ...(m.expected ? [kv("listed SHA-256", m.expected)] : []),
    ...(m.actual !== undefined ? [kv("file SHA-256", m.actual ?? "(file missing)")] : []),
    ...m.problems.map((p) => `problem: ${p}`),
  ];
}

/** The shipped .rsp checked as a KAT file, and every problem that makes the KAT corrupt (manifest ones included). */
function shippedSection(x: LogInput): string[] {
  const files = (x.plan?.expectations ?? []).flatMap((e) => (e.path ? [e.path] : []));
  if (!files.length) return ["not applicable: expected hashes are compared"];
  const rsp = x.corruption.filter((p) => files.includes(p.file));
  return [
    ...files.map((f) => kv("file", `${f}: ${rsp.some((p) => p.file === f) ? "CORRUPT" : "well-formed"}`)),
    ...rsp.map((p) => `problem: ${problemText(p)}`),
  ];
}

function comparisons(x: LogInput): string[] {
  const entries = (n: number) => `${n} ${n === 1 ? "entry" : "entries"}`;
  const out = [
    ...(x.plan?.expectations ?? []).map(
      (e) => `- expect ${e.form} (${entries(e.entries)}) from ${e.path ?? e.source}${e.sha256 ? `: ${e.sha256}` : ""}`,
    ),
    ...x.checks.map(
      (c) =>
        `- ${c.match ? "match   " : "MISMATCH"} ${c.form} (${c.entries}): expected ${c.expectedSha256}, generated ${c.generatedSha256}`,
    ),
  ];
  if (x.run) {
    out.push(
      `generated files: ${x.run.paths.rsp} (the .rsp as read from the generator's stdout; + .single.txt, .all.txt, .info as it wrote them, checked against it)`,
    );
    for (const p of x.run.inconsistencies) out.push(`INCONSISTENT: ${p}`);
    for (const [k, v] of Object.entries(x.run.info?.lengths ?? {})) {
      if (v) out.push(`lengths ${k}: min ${v.min}, mean ${(v.sum / v.count).toFixed(1)}, max ${v.max} over ${v.count}`);
    }
  }
  return out;
}

function commandLines(c: Command): string[] {
  const status = `${c.signal ? `, signal ${c.signal}` : ""}${c.timedOut ? ", TIMED OUT" : ""}`;
  const limit = c.timeLimitMs ? ` (limit ${c.timeLimitMs / 1000} s)` : "";
  const failed = c.stderrTail && (c.exitCode !== 0 || c.signal);
  return [
    `$ ${showArgv(c.argv)}`,
    `  exit ${c.exitCode ?? "-"}${status}, ${c.durationMs.toFixed(0)} ms${limit}`,
    ...(failed && c.stderrTail
      ? c.stderrTail
          .trimEnd()
          .split("\n")
          .slice(-12)
          .map((line) => `  | ${line}`)
      : []),
  ];
}

function verdictSection(x: LogInput): string[] {
  const d = x.diagnosis;
  return [
    kv("verdict", x.verdict),
    kv("outcome", x.outcome),
    ...(x.message ? [kv("reason", x.message)] : []),
    ...(d
      ? [
          ...(d.firstCount !== undefined ? [kv("first count", String(d.firstCount))] : []),
          ...(d.field ? [kv("field", d.field)] : []),
          ...(d.expected ? [kv("expected", d.expected)] : []),
          ...(d.actual ? [kv("generated", d.actual)] : []),
          kv("entries differ", String(d.differingEntries)),
        ]
      : []),
    ...x.warnings.map((w) => `warning: ${w}`),
  ];
}

export function formatLog(x: LogInput): string {
  const out = [
    ...heading(x),
    "",
    "## Manifest",
    ...manifestSection(x),
    "",
    "## Shipped KAT file",
    ...shippedSection(x),
    "",
    "## Expected and generated",
    ...comparisons(x),
    "",
    "## Commands",
    ...x.commands.flatMap(commandLines),
    "",
    "## Verdict",
    ...verdictSection(x),
  ];
  return `${out.join("\n")}\n`;
}
