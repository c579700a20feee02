// The constant-time step: a smoke test of each operation under valgrind's memcheck (docs/methodology.md,
// "Constant-time smoke test"). For every instance × build profile and every optimisation level of the campaign
// (constantTime.levels, default -O2 and -O3, each replacing the profile's -O flag, -g added): the instance's
// sources compiled with debug information and linked with native/ct/ngcc_ct.c and the seeded KAT DRBG, whose
// output — like the secret inputs — the program marks undefined while the tested call runs. Run once per operation
// under `valgrind --tool=memcheck --xml=yes`; each error memcheck reports (secret data in a branch, an address …)
// becomes a finding at its first source line inside the submission, accepted by the campaign's triage or open.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import type { ConstantTimeRecord, DriverCtOutput, InstanceKey } from "@ngcc-perf/schema";
import { type Command, defineFlags } from "./build.ts";
import type { Campaign } from "./campaign.ts";
import { buildCheckProgram, type CheckProgram, checkProgramFilesHash } from "./check-program.ts";
import { DriverError, interpret } from "./driver.ts";
import { InputError } from "./errors.ts";
import { type InstanceSpec, matchesAny } from "./instances.ts";
import {
  LEAK_OPERATIONS,
  LeakError,
  type LeakSettings,
  leakAccepted,
  leakFiles,
  leakNotRun,
  leakProgram,
  leakSettings,
  leakTest,
  type Statistical,
} from "./leak-test.ts";
import { nativeDir } from "./native.ts";
import { commandOf } from "./proc.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import {
  type InstanceWork,
  type MeasureEnv,
  MeasureError,
  type Measurement,
  type MeasurementOptions,
  runMeasurement,
} from "./step/measurement.ts";
import type { Job, Unit } from "./step/run.ts";
import { underValgrind, type ValgrindOperation, valgrindMeasurement, valgrindOperation } from "./valgrind.ts";
import { findVarlat, VARLAT_KIND, VARLAT_OPTIONS, type VarlatTool } from "./varlat.ts";

export const CT_RANDOMNESS =
  "the KAT generator's AES-256 CTR_DRBG (native/katgen/ngcc_rng.c) seeded with 0x00..0x2F, its output marked undefined (secret) while the tested call runs";

/** The valgrind options of a run (the XML file added per run). */
export const MEMCHECK_OPTIONS = [
  "--tool=memcheck",
  "--error-limit=no",
  "--track-origins=yes",
  "--xml=yes",
  "--child-silent-after-fork=yes",
] as const;

/** The two checks memcheck's findings belong to. */
export type CtCheck = "branch/index" | "variable latency";

export interface TriageEntry {
  file: string;
  line?: number;
  function?: string;
  /** Only findings of this check (default both). */
  check?: CtCheck;
  reason: string;
}

/** The check a memcheck error kind belongs to: the patched memcheck's UninitVarLat is variable latency. */
export const checkOfKind = (kind: string): CtCheck => (kind === VARLAT_KIND ? "variable latency" : "branch/index");

/** What the campaign's `constantTime` block sets, with defaults. */
export interface ConstantTimeSettings {
  enabled: boolean;
  levels: string[];
  keys: number;
  /** auto: run the variable-latency check when its memcheck is built; require: exit 2 when not; off: never. */
  variableLatency: "auto" | "require" | "off";
  triage: TriageEntry[];
  /** The fixed-vs-random timing test. */
  statistical: LeakSettings;
  /** Only the instances matching these globs (as --only: <algorithm-id>/<instance>, <instance>, <algorithm-id>). */
  only: string[] | null;
}

export function constantTimeSettings(campaign: Campaign): ConstantTimeSettings {
  const c = campaign.config.constantTime ?? {};
  return {
    enabled: c.enabled ?? false,
    levels: c.levels ?? ["-O2", "-O3"],
    keys: c.keys ?? 3,
    variableLatency: c.variableLatency ?? "auto",
    triage: (c.triage ?? []) as TriageEntry[],
    statistical: leakSettings(c),
    only: c.only ?? null,
  };
}

/** The profile's flags at one level: every -O flag removed, the level put first, -g added (once). */
export function levelFlags(cflags: readonly string[], level: string): string[] {
  const rest = cflags.filter((f) => !/^-O([0-3sgz]|fast)?$/.test(f) && f !== "-g");
  return [level, "-g", ...rest];
}

// ---------------------------------------------------------------- memcheck's XML

/** One stack frame of memcheck's XML. */
export interface MemcheckFrame {
  file?: string;
  line?: number;
  function?: string;
  object?: string;
}

/** One finding: errors of one kind at one place (first frame inside the submission, and the top frame). */
export interface MemcheckFinding {
  kind: string;
  what: string;
  count: number;
  contexts: number;
  top: MemcheckFrame;
  location?: MemcheckFrame;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_m, e: string) =>
    e.startsWith("#x")
      ? String.fromCodePoint(Number.parseInt(e.slice(2), 16))
      : e.startsWith("#")
        ? String.fromCodePoint(Number(e.slice(1)))
        : (ENTITIES[e] ?? ""),
  );
}

function tag(block: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(block);
  return m?.[1] === undefined ? undefined : unescapeXml(m[1].trim());
}

/**
 * A function's source name: the symbol without the suffixes GCC gives its clones (rej_eta.constprop.0, f.isra.0,
 * f.part.0, f.cold), so one function has one name at every level and triage matches it by its source name.
 */
export function sourceFunction(symbol: string): string {
  return symbol.replace(/(\.(constprop|isra|part|cold|lto_priv|localalias)(\.\d+)?)+$/, "");
}

function blocks(text: string, name: string): string[] {
  return [...text.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, "g"))].map((m) => m[1] ?? "");
}

/** Whether a memcheck XML report is complete (valgrind writes the closing tag last). */
export function memcheckXmlComplete(text: string): boolean {
  return /<valgrindoutput>/.test(text) && /<\/valgrindoutput>\s*$/.test(text);
}

/** A source file (`file`, relative to `dir` unless absolute) relative to the submission folder, when inside it. */
function insideSubmission(submissionDir: string, dir: string, file: string): string | undefined {
  const full = isAbsolute(file) ? file : join(dir, file);
  const rel = relative(submissionDir, full);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : undefined;
}

type DeclassifiedSite = NonNullable<Level["declassifiedSites"]>[number];

/**
 * The submission's crypto_declassify sites the program reports: each file relative to the submission folder when
 * inside it (the compiler is given absolute paths), else as the compiler was given it.
 */
export function declassifiedSites(sites: DriverCtOutput["declassifySites"], submissionDir: string): DeclassifiedSite[] {
  return sites.map((x) => ({
    file: insideSubmission(submissionDir, submissionDir, x.file) ?? x.file,
    line: x.line,
    calls: x.calls,
    bytes: x.bytes,
  }));
}

/**
 * The findings of a memcheck XML report: errors grouped by kind, first frame inside `submissionDir` (its file
 * relative to that folder) and top frame, each with its count (the report's errorcounts summed over the group).
 */
export function parseMemcheckXml(text: string, submissionDir: string): MemcheckFinding[] {
  const counts = new Map<string, number>();
  const countsBlock = tag(text, "errorcounts") ?? "";
  for (const pair of blocks(countsBlock, "pair")) {
    const unique = tag(pair, "unique");
    if (unique) counts.set(unique, Number(tag(pair, "count") ?? "1"));
  }
  const inside = (dir: string, file: string) => insideSubmission(submissionDir, dir, file);
  const grouped = new Map<string, MemcheckFinding>();
  for (const error of blocks(text, "error")) {
    const kind = tag(error, "kind") ?? "unknown";
    const what = tag(error, "what") ?? tag(tag(error, "xwhat") ?? "", "text") ?? kind;
    // The error's own stack is the first <stack>; later ones are the origin's (auxwhat).
    const stack = /<stack>([\s\S]*?)<\/stack>/.exec(error)?.[1] ?? "";
    let top: MemcheckFrame | undefined;
    let location: MemcheckFrame | undefined;
    for (const f of blocks(stack, "frame")) {
      const dir = tag(f, "dir") ?? "";
      const file = tag(f, "file");
      const line = tag(f, "line");
      const symbol = tag(f, "fn");
      const fn = symbol === undefined ? undefined : sourceFunction(symbol);
      const frame: MemcheckFrame = {
        ...(file ? { file: dir ? `${dir}/${file}` : file } : {}),
        ...(line ? { line: Number(line) } : {}),
        ...(fn ? { function: fn } : {}),
        ...(!file && tag(f, "obj") ? { object: tag(f, "obj") as string } : {}),
      };
      top ??= frame;
      const rel = file ? inside(dir, file) : undefined;
      if (rel && !location) {
        location = { file: rel, ...(frame.line ? { line: frame.line } : {}), ...(fn ? { function: fn } : {}) };
        if (top === frame) top = { ...location };
        break;
      }
    }
    const t = top ?? {};
    const key = JSON.stringify([kind, location ?? null, t]);
    const count = counts.get(tag(error, "unique") ?? "") ?? 1;
    const g = grouped.get(key);
    if (g) {
      g.count += count;
      g.contexts++;
    } else {
      grouped.set(key, { kind, what, count, contexts: 1, top: t, ...(location ? { location } : {}) });
    }
  }
  return [...grouped.values()];
}

/** The triage entry that accepts a finding, or undefined (then it is open). */
export function triageOf(f: MemcheckFinding, triage: readonly TriageEntry[]): TriageEntry | undefined {
  const at = f.location;
  if (!at) return undefined;
  return triage.find(
    (t) =>
      (t.check === undefined || t.check === checkOfKind(f.kind)) &&
      t.file === at.file &&
      (t.line === undefined || t.line === at.line) &&
      (t.function === undefined || t.function === at.function),
  );
}

// ---------------------------------------------------------------- the program

/** ngcc-ct's harness files. */
const ctFiles = () => ({
  main: join(nativeDir(), "ct", "ngcc_ct.c"),
  more: [],
  headers: [join(nativeDir(), "declassify", "crypto_declassify.h")],
});

/** ngcc-ct at one level: its objects built with debug information, its randombytes marking what it returns. */
export function ctProgram(spec: InstanceSpec, level: string): CheckProgram {
  return {
    name: "ngcc-ct",
    folder: `ct-${spec.instance}-${level.replace(/^-/, "")}`,
    ...ctFiles(),
    mainOpt: ["-O2", "-g"],
    drbgPrefix: "ngcc_ct_drbg",
    instanceDefines: ["-DNGCC_CT_CHECKER"],
    what: `${spec.algorithmId}/${spec.instance} for the constant-time test (${level})`,
  };
}

/** What ngcc-ct prints (validated against its schema by interpret). */
type CtOutput = DriverCtOutput;

/** The valgrind options of a run with the variable-latency memcheck, or stock memcheck's. */
const memcheckOptions = (varlat: VarlatTool | null): string[] =>
  varlat ? [...MEMCHECK_OPTIONS, ...VARLAT_OPTIONS] : [...MEMCHECK_OPTIONS];

/**
 * One operation at one level: the program under memcheck (the variable-latency one when it is built) in a scratch
 * folder, its XML report read.
 */
async function testOperation(
  at: ValgrindOperation,
  keys: number,
  submissionDir: string,
  what: string,
  varlat: VarlatTool | null,
) {
  return underValgrind({
    ...at,
    ...(varlat ? { valgrind: varlat.valgrind } : {}),
    options: (dir) => [...memcheckOptions(varlat), `--xml-file=${join(dir, "memcheck.xml")}`],
    args: ["--keys", String(keys)],
    read: (result, dir) => {
      const value = interpret<CtOutput>(result, what, "driver-ct");
      const xml = join(dir, "memcheck.xml");
      const text = existsSync(xml) ? readFileSync(xml, "utf8") : "";
      if (!value.onValgrind || !memcheckXmlComplete(text)) {
        throw new DriverError("error", `${what}: valgrind wrote no complete XML report`, result);
      }
      return { value, findings: parseMemcheckXml(text, submissionDir), command: commandOf(result) };
    },
  });
}

type Level = NonNullable<ConstantTimeRecord["levels"]>[number];

/** The tested programs, one per level, and what the records say of the build. */
interface CtBuild {
  builds: Array<{ level: string; flags: string[]; program: string }>;
  /** ngcc-leak, built with the profile's flags when the statistical test is on and the category has classes. */
  leak: { program: string; flags: string[] } | null;
  facts: NonNullable<ConstantTimeRecord["build"]>;
}

/** A finding with the campaign's triage: accepted (with the reason) or open; open ones first, most errors first. */
function triaged(findings: MemcheckFinding[], triage: readonly TriageEntry[]) {
  return findings
    .map((f) => {
      const accepted = triageOf(f, triage);
      return {
        kind: f.kind,
        check: checkOfKind(f.kind),
        what: f.what,
        count: f.count,
        contexts: f.contexts,
        top: f.top,
        ...(f.location ? { location: f.location } : {}),
        status: accepted ? ("accepted" as const) : ("open" as const),
        ...(accepted ? { reason: accepted.reason } : {}),
      };
    })
    .sort((a, b) => (a.status === b.status ? b.count - a.count : a.status === "open" ? -1 : 1));
}

/** What the step finds before planning: valgrind's version and the variable-latency memcheck, or why not. */
export interface CtPrepared {
  valgrind: string;
  varlat: VarlatTool | null;
  /** Why the variable-latency check does not run (varlat null). */
  varlatReason?: string;
}

/** Each check's outcome over every level: pass, open (an open finding), accepted (all accepted), not run. */
function checkOutcomes(levels: readonly Level[], prepared: CtPrepared): NonNullable<ConstantTimeRecord["checks"]> {
  const outcome = (check: CtCheck) => {
    const fs = levels.flatMap((l) => l.findings.filter((f) => f.check === check));
    const open = fs.filter((f) => f.status === "open").length;
    const accepted = fs.length - open;
    return { status: open ? ("open" as const) : accepted ? ("accepted" as const) : ("pass" as const), open, accepted };
  };
  return {
    branchIndex: outcome("branch/index"),
    variableLatency: prepared.varlat
      ? outcome("variable latency")
      : { status: "not run", open: 0, accepted: 0, reason: prepared.varlatReason ?? "not run" },
  };
}

/** Builds the tested program at every level of the campaign. */
async function buildLevels(
  env: MeasureEnv<CtPrepared>,
  unit: Unit<InstanceWork>,
): Promise<CtBuild & { cached: boolean }> {
  const { campaign, tc, out } = env;
  const { spec } = unit.work;
  const { profile } = unit;
  const builds: CtBuild["builds"] = [];
  let cached = true;
  for (const level of constantTimeSettings(campaign).levels) {
    const flags = levelFlags(profile.cflags, level);
    const b = await buildCheckProgram(
      campaign,
      spec,
      unit.key as InstanceKey,
      flags,
      profile.ldflags,
      tc,
      out,
      ctProgram(spec, level),
    );
    cached &&= b.cached;
    builds.push({ level, flags, program: b.program });
  }
  let leak: CtBuild["leak"] = null;
  const s = constantTimeSettings(campaign);
  if (s.statistical.enabled && (LEAK_OPERATIONS[spec.category] ?? []).length > 0) {
    const flags = [...profile.cflags];
    const key = unit.key as InstanceKey;
    const b = await buildCheckProgram(campaign, spec, key, flags, profile.ldflags, tc, out, leakProgram(spec));
    cached &&= b.cached;
    leak = { program: b.program, flags };
  }
  const facts = {
    compiler: campaign.cc,
    compilerVersion: tc.version,
    flags: builds[0]?.flags ?? [],
    ...(spec.defines.length ? { defines: defineFlags(spec.defines) } : {}),
    ...(profile.ldflags.length ? { ldflags: profile.ldflags } : {}),
    artifact: builds[0]?.program ?? "",
    linkage: "static-objects" as const,
  };
  return { cached, builds, leak, facts };
}

/** The statistical test of one operation, or why it is not run (its failed workers' commands go to `commands`). */
async function statisticalTest(
  env: MeasureEnv<CtPrepared>,
  unit: Unit<InstanceWork>,
  built: CtBuild,
  job: Job,
  commands: Command[],
): Promise<Statistical> {
  const { campaign, out } = env;
  const { spec } = unit.work;
  const s = constantTimeSettings(campaign).statistical;
  const why = leakNotRun(spec.category, job.operation, s);
  if (why || !built.leak) return { status: "not run", reason: why ?? "ngcc-leak was not built" };
  const at = { out, key: unit.key as InstanceKey, ...built.leak };
  try {
    const st = await leakTest(campaign, at, job.operation, s, `${spec.instance} ${job.operation}: statistical test`);
    const accepted =
      st.status === "leak" || st.status === "leak likely" ? leakAccepted(s, job.operation, unit.names) : undefined;
    return accepted ? { ...st, accepted } : st;
  } catch (err) {
    if (!(err instanceof LeakError)) throw err;
    commands.push(...err.commands);
    return { status: "not run", reason: `its program failed (${err.reason}): ${err.message}` };
  }
}

/** One operation at every level: each level's verdict and findings, the record's body. */
async function testLevels(env: MeasureEnv<CtPrepared>, unit: Unit<InstanceWork>, built: CtBuild, job: Job) {
  const { campaign, out, prepared } = env;
  const { varlat } = prepared;
  const s = constantTimeSettings(campaign);
  const { spec } = unit.work;
  const commands: Command[] = [];
  const levels: Level[] = [];
  let output: CtOutput | undefined;
  for (const b of built.builds) {
    const what = `${spec.instance} ${job.operation} (${b.level}): constant-time test`;
    let t: Awaited<ReturnType<typeof testOperation>>;
    try {
      const at = valgrindOperation(
        campaign,
        { out, key: unit.key as InstanceKey, name: "ct" },
        b.program,
        job.operation,
      );
      t = await testOperation(at, s.keys, spec.submissionDir, what, varlat);
    } catch (err) {
      if (!(err instanceof DriverError)) throw err;
      const extra = { commands: [...commands, commandOf(err.result)] };
      throw new MeasureError({ reason: err.reason, message: err.message, extra });
    }
    commands.push(t.command);
    output = t.value;
    const findings = triaged(t.findings, s.triage);
    levels.push({
      level: b.level,
      flags: b.flags,
      verdict: findings.some((f) => f.status === "open") ? "leaks found" : "pass",
      errorsReported: findings.reduce((n, f) => n + f.count, 0),
      findings,
      command: t.command,
      declassifiedSites: declassifiedSites(t.value.declassifySites, spec.submissionDir),
      ...(t.value.declassifyOtherCalls ? { declassifyOtherCalls: t.value.declassifyOtherCalls } : {}),
    });
  }
  const statistical = await statisticalTest(env, unit, built, job, commands);
  const leaks =
    levels.some((l) => l.verdict === "leaks found") || (statistical.status === "leak" && !statistical.accepted);
  return {
    verdict: leaks ? "leaks found" : "pass",
    build: built.facts,
    tool: {
      name: "memcheck",
      version: varlat?.version ?? prepared.valgrind,
      options: memcheckOptions(varlat),
      ...(varlat ? { valgrind: varlat.valgrind, patchSha256: varlat.patchSha256 } : {}),
    },
    checks: checkOutcomes(levels, prepared),
    statistical,
    randomness: CT_RANDOMNESS,
    secret: output?.secret ?? [],
    declassified: output?.declassified ?? [],
    ...(output?.note ? { note: output.note } : {}),
    calls: output?.calls ?? s.keys,
    randomBytesMarked: output?.randomBytesMarked ?? 0,
    ...(spec.category === "sign" ? { messageBytes: campaign.timing.messageBytes } : {}),
    levels,
    ...(s.triage.length ? { triage: s.triage } : {}),
    commands,
  };
}

const shared = valgrindMeasurement("constant-time", constantTimeSettings, (s: ConstantTimeSettings) => ({
  ct: checkProgramFilesHash(ctFiles()),
  options: MEMCHECK_OPTIONS,
  leak: checkProgramFilesHash(leakFiles()),
  settings: {
    levels: s.levels,
    keys: s.keys,
    triage: s.triage,
    variableLatency: s.variableLatency,
    statistical: s.statistical,
  },
}));

/**
 * The constant-time step: refuses (InputError, exit 2) when valgrind is missing, or the variable-latency memcheck
 * when the campaign requires it. Off unless asked for (`--steps constant-time`) or the campaign sets
 * `constantTime: { enabled: true }`. env.prepared: valgrind's version and the variable-latency memcheck.
 */
export const constantTimeMeasurement: Measurement<CtPrepared, CtBuild> = {
  ...shared,
  prepare: async (campaign): Promise<CtPrepared> => {
    const valgrind = await shared.prepare();
    const setting = constantTimeSettings(campaign).variableLatency;
    if (setting === "off") {
      return { valgrind, varlat: null, varlatReason: "off in this campaign (constantTime.variableLatency: off)" };
    }
    const found = await findVarlat();
    if ("tool" in found) return { valgrind, varlat: found.tool };
    if (setting === "require") {
      throw new InputError(
        `${campaign.file}: /constantTime/variableLatency: require, but ${found.reason}: ${join(nativeDir(), "valgrind-varlat", "build.sh")}`,
      );
    }
    return { valgrind, varlat: null, varlatReason: found.reason };
  },
  // A record made with another tool (the variable-latency memcheck built, rebuilt or gone) is made again.
  inputs: (env, spec, profile, operation) => ({
    ...shared.inputs({ campaign: env.campaign, prepared: env.prepared.valgrind }, spec, profile, operation),
    varlat: env.prepared.varlat
      ? { version: env.prepared.varlat.version, patch: env.prepared.varlat.patchSha256 }
      : null,
  }),
  select: ({ campaign }, unit) => {
    const only = constantTimeSettings(campaign).only;
    return only === null || unit.names.some((n) => matchesAny(n, only));
  },
  build: buildLevels,
  failureFields: (_env, built) => ({ verdict: "tool error", build: built.facts }),
  measure: testLevels,
};

/** The constant-time step on its own. */
export const constantTimeCampaign = (campaign: ResolvedCampaign, options: MeasurementOptions) =>
  runMeasurement(constantTimeMeasurement, campaign, options);
