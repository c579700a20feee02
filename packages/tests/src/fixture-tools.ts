/**
 * Helpers for the C fixtures in fixtures/: reading submission metadata,
 * building instances with gcc (argument arrays, never a shell), running the
 * round-trip driver and the interim KAT generator, parsing `.rsp` files and
 * `kat.sha256` manifests, and making the deliberately bad submissions that
 * the runner, KAT and profiler issues test against.
 *
 * Everything that builds writes into a directory the caller owns (normally a
 * fresh one from `makeTempDir`); nothing here writes into the repository
 * except `writeManifest` / `regenerateKats` when asked to.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const fixturesDir = join(repoRoot, "fixtures");
export const submissionsDir = join(fixturesDir, "submissions");
export const iccsDir = join(fixturesDir, "iccs");
export const toolsDir = join(fixturesDir, "tools");
export const catalogFile = join(fixturesDir, "catalog", "external_sizes.csv");
export const katgenDir = join(repoRoot, "native", "katgen");
export const nativeIncludeDir = join(repoRoot, "native", "include");
export const pqcleanDir = join(repoRoot, "node_modules", "pqclean", "deps", "PQClean");
/** The built ngcc-perf executable (run `pnpm build` before the tests). */
export const cliBin = join(repoRoot, "packages", "cli", "bin.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `ngcc-perf <args>` as a user would, in a child process, and returns its exit code and output. */
export function runCli(args: readonly string[], timeoutMs = 900_000): CliResult {
  const r = spawnSync(process.execPath, [cliBin, ...args], { encoding: "utf8", timeout: timeoutMs });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The warning set every fixture must pass (C99, PQClean's set). */
export const STRICT_CFLAGS = [
  "-std=c99",
  "-Wall",
  "-Wextra",
  "-Wpedantic",
  "-Werror",
  "-Wshadow",
  "-Wvla",
  "-Wmissing-prototypes",
];
export const SANITIZE_CFLAGS = [
  "-O1",
  "-g",
  "-fno-omit-frame-pointer",
  "-fsanitize=address,undefined",
  "-fno-sanitize-recover=all",
];

/** ICCS stand-in: the hash placeholders (sm3hash, pseudohash, pseudoXOF). */
export const ICCS_HASH_SOURCES = [join(iccsDir, "sm3.c"), join(iccsDir, "pseudo.c")];
/** ICCS stand-in DRNG (randombytes from the operating system). */
export const ICCS_DRNG_SOURCES = [join(iccsDir, "drng.c")];
/** The KAT DRBG (AES-256 CTR_DRBG; randombytes, randombytes_init, PQCLEAN_randombytes). */
export const KAT_RNG_SOURCES = [join(katgenDir, "ngcc_rng.c"), join(katgenDir, "ngcc_aes256.c")];

export type Category = "kem" | "sign" | "kex";

/** One instance (implementation x parameter set) of a submission's meta.json. Paths are relative to the submission folder. */
export interface InstanceMeta {
  name: string;
  implementation: string;
  parameterSet: string;
  /** folder holding api.h */
  folder: string;
  apiHeader: string;
  sources: string[];
  includeDirs: string[];
  /** -D flags without the -D (NAME or NAME=VALUE) */
  defines: string[];
  /** "randombytes": calls the ICCS DRNG; "self": draws its own randomness (no DRNG calls) */
  randomness: "randombytes" | "self";
  kat: { file: string; defines: string[]; randomness: "randombytes" };
  /** Signatures: the API the native parts call (sig-94: the FIPS 204 context API). */
  api?: { style?: "nist" | "fips204"; prefix?: string; context?: string };
  notes?: string;
}

export interface SubmissionMeta {
  schemaVersion: number;
  id: string;
  name: string;
  category: Category;
  summary: string;
  implementations: { name: string; folder: string }[];
  parameterSets: string[];
  iccs: { header: string; hash: string[]; drng: string[] };
  ownPrimitives: { name: string; source: string; instances: string[]; use: string }[];
  katManifest: string;
  instances: InstanceMeta[];
  links: Record<string, string>;
  interface?: string;
}

export interface Submission {
  dir: string;
  meta: SubmissionMeta;
}

export function loadSubmission(dir: string): Submission {
  const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")) as SubmissionMeta;
  return { dir, meta };
}

export function listSubmissions(root: string = submissionsDir): Submission[] {
  return readdirSync(root)
    .filter((name) => statSync(join(root, name, "meta.json"), { throwIfNoEntry: false })?.isFile())
    .sort()
    .map((name) => loadSubmission(join(root, name)));
}

export function getInstance(sub: Submission, name: string): InstanceMeta {
  const inst = sub.meta.instances.find((i) => i.name === name);
  if (!inst) throw new Error(`${sub.meta.id} has no instance ${name}`);
  return inst;
}

export function makeTempDir(prefix = "ngcc-fixtures-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

// ---------------------------------------------------------------------------
// Processes

export interface ProcResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

let running = 0;
const waiting: (() => void)[] = [];
/** At most this many child processes at once (builds and runs share the limit). */
export const PROCESS_LIMIT = Math.max(1, availableParallelism());

async function acquire(): Promise<void> {
  if (running < PROCESS_LIMIT) {
    running++;
    return;
  }
  await new Promise<void>((res) => waiting.push(res));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** Run a program with an argument array (no shell); never rejects. */
export async function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcResult> {
  await acquire();
  try {
    return await new Promise<ProcResult>((res) => {
      const child = spawn(cmd, args, {
        cwd: opts.cwd,
        env: opts.env ?? process.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timedOut = false;
      const timer =
        opts.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              timedOut = true;
              child.kill("SIGKILL");
            }, opts.timeoutMs);
      child.stdout.on("data", (d: Buffer) => out.push(d));
      child.stderr.on("data", (d: Buffer) => err.push(d));
      child.on("error", (e) => {
        if (timer) clearTimeout(timer);
        res({ status: null, signal: null, stdout: "", stderr: String(e), timedOut });
      });
      child.on("close", (status, signal) => {
        if (timer) clearTimeout(timer);
        res({
          status,
          signal,
          stdout: Buffer.concat(out).toString("utf8"),
          stderr: Buffer.concat(err).toString("utf8"),
          timedOut,
        });
      });
    });
  } finally {
    release();
  }
}

// ---------------------------------------------------------------------------
// Building

export type Driver = "roundtrip" | "katgen" | "printparams" | "objects";

export interface BuildOptions {
  driver: Driver;
  /** AddressSanitizer + UndefinedBehaviorSanitizer (with -O1 -g) */
  sanitize?: boolean;
  /** optimisation flag when not sanitizing (default -O2) */
  optimize?: string;
  extraFlags?: string[];
}

const DRIVER_DEFINE: Record<Driver, Record<Category, string>> = {
  roundtrip: { kem: "NGCC_RT_KEM", sign: "NGCC_RT_SIGN", kex: "NGCC_RT_KEX" },
  katgen: { kem: "NGCC_KAT_KEM", sign: "NGCC_KAT_SIGN", kex: "NGCC_KAT_KEX" },
  printparams: { kem: "NGCC_PP_KEM", sign: "NGCC_PP_SIGN", kex: "NGCC_PP_KEX" },
  objects: { kem: "", sign: "", kex: "" },
};

/**
 * The gcc argument array that builds `inst` with a driver into `out`
 * (an executable; for driver "objects", `out` is ignored and gcc is run with -c
 * in the caller's cwd).  KAT builds use the instance's KAT defines and link the
 * KAT DRBG instead of the DRNG stand-in.
 */
export function instanceGccArgs(sub: Submission, inst: InstanceMeta, opts: BuildOptions, out: string): string[] {
  const cat = sub.meta.category;
  const kat = opts.driver === "katgen";
  const args = [...STRICT_CFLAGS, ...(opts.sanitize ? SANITIZE_CFLAGS : [opts.optimize ?? "-O2"])];
  for (const d of kat ? inst.kat.defines : inst.defines) args.push(`-D${d}`);
  const drv = DRIVER_DEFINE[opts.driver][cat];
  if (drv) args.push(`-D${drv}`);
  // The FIPS 204 context API (native/include/ngcc_sign_api.h), for the programs that call crypto_sign.
  if (cat === "sign" && inst.api?.style === "fips204" && (opts.driver === "roundtrip" || kat)) {
    args.push("-DNGCC_SIGN_API_FIPS204");
  }
  for (const inc of inst.includeDirs) args.push("-I", join(sub.dir, inc));
  args.push("-I", iccsDir, "-I", nativeIncludeDir);
  if (kat) args.push("-I", katgenDir);
  args.push(...(opts.extraFlags ?? []));
  if (opts.driver === "printparams") {
    args.push(join(toolsDir, "printparams.c"), "-o", out);
    return args;
  }
  const sources = inst.sources.map((s) => join(sub.dir, s));
  if (opts.driver === "objects") {
    args.push("-c", ...sources);
    return args;
  }
  sources.push(...ICCS_HASH_SOURCES);
  if (kat) sources.push(...KAT_RNG_SOURCES, join(katgenDir, "katgen.c"));
  else sources.push(...ICCS_DRNG_SOURCES, join(toolsDir, "roundtrip.c"));
  args.push(...sources, "-o", out);
  return args;
}

export interface Built {
  ok: boolean;
  exe: string;
  args: string[];
  stderr: string;
}

export async function buildInstance(
  sub: Submission,
  inst: InstanceMeta,
  opts: BuildOptions,
  outDir: string,
): Promise<Built> {
  const tag = `${sub.meta.id}-${inst.name}-${opts.driver}${opts.sanitize ? "-san" : ""}`;
  const exe = join(outDir, tag);
  const args = instanceGccArgs(sub, inst, opts, exe);
  const r = await run("gcc", args, { cwd: outDir });
  return { ok: r.status === 0, exe, args, stderr: r.stderr };
}

/** Output of the round-trip driver (fixtures/tools/roundtrip.c). */
export interface RoundtripReport {
  category: Category;
  name: string;
  iterations: number;
  us: Record<string, number>;
  passes?: number;
  siglen?: { min: number; max: number; cap: number };
}

export async function runRoundtrip(
  exe: string,
  iterations: number,
  timeoutMs = 300_000,
): Promise<ProcResult & { report?: RoundtripReport }> {
  const r = await run(exe, [String(iterations)], { timeoutMs });
  const line = r.stdout.trim().split("\n").pop();
  let report: RoundtripReport | undefined;
  if (r.status === 0 && line) report = JSON.parse(line) as RoundtripReport;
  return { ...r, report };
}

/** API sizes of an instance, read by compiling fixtures/tools/printparams.c against its api.h. */
export async function readApiSizes(
  sub: Submission,
  inst: InstanceMeta,
  outDir: string,
): Promise<Record<string, number | string>> {
  const b = await buildInstance(sub, inst, { driver: "printparams" }, outDir);
  if (!b.ok) throw new Error(`printparams for ${inst.name} did not compile:\n${b.stderr}`);
  const r = await run(b.exe, []);
  if (r.status !== 0) throw new Error(`printparams for ${inst.name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, number | string>;
}

// ---------------------------------------------------------------------------
// KAT files and manifests

export function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

export interface ManifestLine {
  digest: string;
  path: string;
}

/** Parse sha256sum output ("<64 hex>  <path>" or "<64 hex> *<path>"). */
export function parseManifest(text: string): ManifestLine[] {
  const lines: ManifestLine[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(raw);
    if (!m?.[1] || !m[2]) throw new Error(`not a sha256sum line: ${JSON.stringify(raw)}`);
    lines.push({ digest: m[1].toLowerCase(), path: m[2] });
  }
  return lines;
}

export interface ManifestCheck {
  ok: boolean;
  /** files whose digest differs */
  mismatched: string[];
  /** files listed but missing */
  missing: string[];
}

/** Check a manifest like `sha256sum -c` does (paths relative to the manifest's folder). */
export function checkManifest(manifestFile: string): ManifestCheck {
  const base = dirname(manifestFile);
  const mismatched: string[] = [];
  const missing: string[] = [];
  for (const { digest, path } of parseManifest(readFileSync(manifestFile, "utf8"))) {
    let data: Buffer;
    try {
      data = readFileSync(join(base, path));
    } catch {
      missing.push(path);
      continue;
    }
    if (sha256Hex(data) !== digest) mismatched.push(path);
  }
  return { ok: mismatched.length === 0 && missing.length === 0, mismatched, missing };
}

/** Rewrite a submission's kat.sha256 over all its instances' .rsp files. */
export function writeManifest(sub: Submission): string {
  const manifest = join(sub.dir, sub.meta.katManifest);
  const base = dirname(manifest);
  const lines = sub.meta.instances
    .map((i) => join(sub.dir, i.kat.file))
    .sort()
    .map((f) => `${sha256Hex(readFileSync(f))}  ${relative(base, f)}\n`);
  writeFileSync(manifest, lines.join(""));
  return manifest;
}

export interface RspEntry {
  count: number;
  fields: [string, string][];
}

export interface Rsp {
  header: string;
  entries: RspEntry[];
}

/** Parse a NIST .rsp file (header line, entries of `key = value` lines separated by empty lines). */
export function parseRsp(text: string): Rsp {
  const lines = text.split("\n");
  let header = "";
  const entries: RspEntry[] = [];
  let cur: RspEntry | undefined;
  for (const line of lines) {
    if (line.startsWith("#")) {
      header = line;
      continue;
    }
    if (line === "") {
      cur = undefined;
      continue;
    }
    const m = /^(\w+) = (.*)$/.exec(line);
    if (!m?.[1] || m[2] === undefined) throw new Error(`bad .rsp line: ${JSON.stringify(line.slice(0, 80))}`);
    if (m[1] === "count") {
      cur = { count: Number(m[2]), fields: [] };
      entries.push(cur);
    }
    if (!cur) throw new Error(`field before count: ${m[1]}`);
    cur.fields.push([m[1], m[2]]);
  }
  return { header, entries };
}

/** The first entry and field in which two .rsp texts differ, or null if they are equal entry by entry. */
export function firstRspDifference(a: string, b: string): { entry: number; field: string } | null {
  const ra = parseRsp(a);
  const rb = parseRsp(b);
  const n = Math.max(ra.entries.length, rb.entries.length);
  for (let i = 0; i < n; i++) {
    const ea = ra.entries[i];
    const eb = rb.entries[i];
    if (!ea || !eb) return { entry: i, field: "(missing entry)" };
    const m = Math.max(ea.fields.length, eb.fields.length);
    for (let j = 0; j < m; j++) {
      const fa = ea.fields[j];
      const fb = eb.fields[j];
      if (!fa || !fb || fa[0] !== fb[0] || fa[1] !== fb[1]) return { entry: ea.count, field: (fa ?? fb)?.[0] ?? "?" };
    }
  }
  return null;
}

/** Every entry index whose fields differ (for checking a single-entry corruption). */
export function differingRspEntries(a: string, b: string): number[] {
  const ra = parseRsp(a);
  const rb = parseRsp(b);
  const out: number[] = [];
  const n = Math.max(ra.entries.length, rb.entries.length);
  for (let i = 0; i < n; i++) {
    if (JSON.stringify(ra.entries[i]) !== JSON.stringify(rb.entries[i])) out.push(i);
  }
  return out;
}

/** Generate one instance's .rsp with the interim KAT generator (native/katgen). */
export async function generateRsp(
  sub: Submission,
  inst: InstanceMeta,
  outDir: string,
  opts: { sanitize?: boolean } = {},
): Promise<{ text: string; fileName: string; build: Built; stderr: string }> {
  const build = await buildInstance(sub, inst, { driver: "katgen", sanitize: opts.sanitize }, outDir);
  if (!build.ok) throw new Error(`katgen for ${inst.name} did not compile:\n${build.stderr}`);
  const name = await run(build.exe, ["--filename"]);
  const r = await run(build.exe, [], { timeoutMs: 300_000 });
  if (r.status !== 0) throw new Error(`katgen for ${inst.name} failed (${r.status ?? r.signal}):\n${r.stderr}`);
  return { text: r.stdout, fileName: name.stdout.trim(), build, stderr: r.stderr };
}

/** Regenerate every .rsp of a submission into the submission folder and rewrite its manifest. */
export async function regenerateKats(sub: Submission, workDir: string): Promise<void> {
  await Promise.all(
    sub.meta.instances.map(async (inst) => {
      const { text } = await generateRsp(sub, inst, workDir);
      const file = join(sub.dir, inst.kat.file);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }),
  );
  writeManifest(sub);
}

// ---------------------------------------------------------------------------
// Bad submissions (made from the good ones, in a directory the caller owns)

export type BadKind = "no-compile" | "crash-dec" | "hang-sign" | "overflow-enc" | "kat-flip-37" | "bad-manifest";

export interface BadSubmission {
  kind: BadKind;
  sub: Submission;
  /** the instance that is broken */
  instance: InstanceMeta;
  /** what a harness should observe */
  expect: string;
}

/** Copy a good submission (by id) into destRoot/<id>. */
export function copySubmission(id: string, destRoot: string): Submission {
  const dest = join(destRoot, id);
  cpSync(join(submissionsDir, id), dest, { recursive: true });
  return loadSubmission(dest);
}

function patchFile(file: string, anchor: string, replacement: string): void {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(anchor);
  if (at < 0 || text.indexOf(anchor, at + 1) >= 0) {
    throw new Error(`fixture-tools: anchor not found exactly once in ${file}: ${anchor}`);
  }
  writeFileSync(file, text.slice(0, at) + replacement + text.slice(at + anchor.length));
}

const PUFFIN_KEM_C = "Reference_Implementation/common/kem.c";
const QUILL_SIGN_C = "Reference_Implementation/common/sign.c";

/** kem-90 with a syntax error in kem.c: every instance fails to compile. */
export function makeNoCompile(destRoot: string): BadSubmission {
  const sub = copySubmission("kem-90", destRoot);
  patchFile(join(sub.dir, PUFFIN_KEM_C), "int crypto_kem_keypair(", "int puffin_broken = ;\n\nint crypto_kem_keypair(");
  return { kind: "no-compile", sub, instance: getInstance(sub, "Puffin-128"), expect: "gcc exits non-zero" };
}

/** kem-90 whose crypto_kem_dec writes through a null pointer (SIGSEGV). */
export function makeCrashInDec(destRoot: string): BadSubmission {
  const sub = copySubmission("kem-90", destRoot);
  patchFile(
    join(sub.dir, PUFFIN_KEM_C),
    "    puffin_pke_dec(buf, ct, sk);",
    "    {\n        volatile unsigned char *volatile puffin_null = NULL;\n        *puffin_null = 1; /* deliberate SIGSEGV */\n    }\n    puffin_pke_dec(buf, ct, sk);",
  );
  return {
    kind: "crash-dec",
    sub,
    instance: getInstance(sub, "Puffin-128"),
    expect: "dec dies with SIGSEGV; keygen and enc work",
  };
}

/** sig-91 whose crypto_sign never returns. */
export function makeHangInSign(destRoot: string): BadSubmission {
  const sub = copySubmission("sig-91", destRoot);
  patchFile(
    join(sub.dir, QUILL_SIGN_C),
    "    pseudohash(mh, m, (size_t)mlen);\n    memcpy(buf, sk_prf, QUILL_N);",
    "    {\n        volatile int quill_spin = 1;\n        while (quill_spin) { /* deliberate hang */\n        }\n    }\n    pseudohash(mh, m, (size_t)mlen);\n    memcpy(buf, sk_prf, QUILL_N);",
  );
  return {
    kind: "hang-sign",
    sub,
    instance: getInstance(sub, "Quill-128"),
    expect: "sign never returns; keygen works",
  };
}

/** kem-90 whose crypto_kem_enc writes one byte past the end of ct. */
export function makeOverflowInEnc(destRoot: string): BadSubmission {
  const sub = copySubmission("kem-90", destRoot);
  patchFile(
    join(sub.dir, PUFFIN_KEM_C),
    "    puffin_kdf(ss, kr, ct);\n    return 0;\n}\n\nint crypto_kem_dec(",
    "    puffin_kdf(ss, kr, ct);\n    ct[CRYPTO_CIPHERTEXTBYTES] = 0x5a; /* deliberate overflow */\n    return 0;\n}\n\nint crypto_kem_dec(",
  );
  return {
    kind: "overflow-enc",
    sub,
    instance: getInstance(sub, "Puffin-128"),
    expect: "enc writes 1 byte past ct: canaries and AddressSanitizer catch it",
  };
}

/** Flip one byte (the first byte of field `field`) of entry `entry` in an .rsp text. */
export function flipRspByte(text: string, entry: number, field: string): string {
  const lines = text.split("\n");
  const start = lines.indexOf(`count = ${entry}`);
  if (start < 0) throw new Error(`no entry ${entry}`);
  for (let i = start + 1; i < lines.length && lines[i] !== ""; i++) {
    const line = lines[i] as string;
    const prefix = `${field} = `;
    if (line.startsWith(prefix)) {
      const byte = Number.parseInt(line.slice(prefix.length, prefix.length + 2), 16) ^ 0x01;
      const hex = byte.toString(16).toUpperCase().padStart(2, "0");
      lines[i] = prefix + hex + line.slice(prefix.length + 2);
      return lines.join("\n");
    }
  }
  throw new Error(`entry ${entry} has no field ${field}`);
}

/** kem-90 whose Puffin-128 .rsp has one flipped byte in entry 37 (field ct); the manifest matches the flipped file. */
export function makeFlippedKat(destRoot: string, entry = 37): BadSubmission {
  const sub = copySubmission("kem-90", destRoot);
  const instance = getInstance(sub, "Puffin-128");
  const file = join(sub.dir, instance.kat.file);
  writeFileSync(file, flipRspByte(readFileSync(file, "utf8"), entry, "ct"));
  writeManifest(sub);
  return {
    kind: "kat-flip-37",
    sub,
    instance,
    expect: `manifest verifies; regenerated KAT differs first in entry ${entry}, field ct`,
  };
}

/** kem-90 whose kat.sha256 does not match its (correct) Puffin-128 .rsp. */
export function makeBadManifest(destRoot: string): BadSubmission {
  const sub = copySubmission("kem-90", destRoot);
  const instance = getInstance(sub, "Puffin-128");
  const manifest = join(sub.dir, sub.meta.katManifest);
  const rel = relative(dirname(manifest), join(sub.dir, instance.kat.file));
  const lines = readFileSync(manifest, "utf8")
    .split("\n")
    .map((l) => {
      if (!l.endsWith(`  ${rel}`)) return l;
      const d = l.slice(0, 64);
      const flipped = (Number.parseInt(d[0] as string, 16) ^ 1).toString(16);
      return flipped + l.slice(1);
    });
  writeFileSync(manifest, lines.join("\n"));
  return {
    kind: "bad-manifest",
    sub,
    instance,
    expect: `sha256sum -c fails for ${rel}; the .rsp itself is correct`,
  };
}

/** All bad submissions, each in its own folder under destRoot. */
export function makeAllBadSubmissions(destRoot: string): BadSubmission[] {
  const makers: [BadKind, (d: string) => BadSubmission][] = [
    ["no-compile", makeNoCompile],
    ["crash-dec", makeCrashInDec],
    ["hang-sign", makeHangInSign],
    ["overflow-enc", makeOverflowInEnc],
    ["kat-flip-37", (d) => makeFlippedKat(d)],
    ["bad-manifest", makeBadManifest],
  ];
  return makers.map(([kind, make]) => {
    const d = join(destRoot, kind);
    mkdirSync(d, { recursive: true });
    return make(d);
  });
}

// ---------------------------------------------------------------------------
// Hostile submissions (packages/tests/src/hostile.test.ts): kem-90 with a hostile.c that misbehaves —
// at load time (a constructor, so in every process that runs the code: KAT generator, driver, workers),
// in keygen's randomness or at the end of crypto_kem_enc.

export type HostileKind =
  | "read-secrets"
  | "connect"
  | "write-outside"
  | "fork-outlive"
  | "setsid-daemon"
  | "segfault"
  | "endless-loop"
  | "overflow-small"
  | "overflow-large"
  | "abort"
  | "output-200mb"
  | "alloc-20gb"
  | "nonzero-return"
  | "nondeterministic";

export interface HostileOptions {
  /** Files whose bytes must never leave the sandbox (e.g. /etc/shadow and a file planted in $HOME). */
  secrets?: string[];
  /** A TCP port on 127.0.0.1 the code tries to connect to. */
  port?: number;
  /** Files the code tries to create (outside its folders: /tmp, $HOME, the repository …). */
  targets?: string[];
  /**
   * More C of a test's own (hostile-*.test.ts): `top` at file scope after the includes, `atLoad` in the
   * constructor, `atExit` in a destructor, `enc` at the end of crypto_kem_enc (ct and ss in scope); `files`
   * (paths relative to the submission) are written, and those in `sources` added to Puffin-128's sources.
   */
  code?: {
    top?: string[];
    atLoad?: string[];
    atExit?: string[];
    enc?: string[];
    files?: Record<string, string>;
    sources?: string[];
  };
}

/** A C string literal for an ASCII path (JSON's escapes are C's for these). */
const cString = (s: string) => JSON.stringify(s);

/** C run at load (in the constructor) per kind, in the order a file holds them. */
const HOSTILE_AT_LOAD: ReadonlyArray<readonly [HostileKind, (o: HostileOptions) => string[]]> = [
  [
    "read-secrets",
    (o) => [
      `  static const char *const secrets[] = { ${[...(o.secrets ?? []), "/etc/shadow"].map(cString).join(", ")} };`,
      "  for (size_t i = 0; i < sizeof secrets / sizeof *secrets; i++) {",
      "    char buf[512];",
      "    int fd = open(secrets[i], O_RDONLY);",
      "    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);",
      '    if (n < 0) { note("read", secrets[i], 0); if (fd >= 0) close(fd); continue; }',
      "    buf[n] = 0;",
      '    fprintf(stderr, "ngcc-hostile: read %s: got %ld bytes: %s\\n", secrets[i], (long)n, buf);',
      "    close(fd);",
      "  }",
    ],
  ],
  [
    "connect",
    (o) => [
      "  int s = socket(AF_INET, SOCK_STREAM, 0);",
      "  struct sockaddr_in a;",
      "  memset(&a, 0, sizeof a);",
      "  a.sin_family = AF_INET;",
      `  a.sin_port = htons(${o.port ?? 9});`,
      "  a.sin_addr.s_addr = htonl(0x7f000001);",
      '  if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) != 0) note("connect", "127.0.0.1", 0);',
      '  else { note("connect", "127.0.0.1", 1); (void)!write(s, "NGCC-LEAK", 9); }',
      "  if (s >= 0) close(s);",
    ],
  ],
  [
    "write-outside",
    (o) => [
      `  static const char *const targets[] = { ${(o.targets ?? []).map(cString).join(", ")} };`,
      "  for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {",
      '    FILE *f = fopen(targets[i], "w");',
      '    note("create", targets[i], f != NULL);',
      '    if (f) { fputs("ngcc-hostile was here\\n", f); fclose(f); }',
      "  }",
    ],
  ],
  [
    // A child that outlives its parent, its output closed (nothing ties it to the run).
    "fork-outlive",
    () => [
      "  pid_t p = fork();",
      '  if (p == 0) { prctl(PR_SET_NAME, "ngcc-hostile"); close(0); close(1); close(2); sleep(300); _exit(0); }',
    ],
  ],
  [
    // A daemon in a session of its own that keeps the run's stdout and stderr open.
    "setsid-daemon",
    () => [
      "  pid_t p = fork();",
      '  if (p == 0) { setsid(); if (fork() == 0) { prctl(PR_SET_NAME, "ngcc-hostile"); sleep(300); } _exit(0); }',
      "  if (p > 0) waitpid(p, NULL, 0);",
    ],
  ],
];

/** C at the end of crypto_kem_enc (ct and ss in scope) per kind, in the order a file holds them. */
const HOSTILE_AT_ENC: ReadonlyArray<readonly [HostileKind, string[]]> = [
  ["segfault", ["  *(volatile unsigned char *volatile)NULL = 1;"]],
  ["endless-loop", ["  for (volatile int spin = 1; spin;) {", "  }"]],
  ["overflow-small", ["  memset(ct + CRYPTO_CIPHERTEXTBYTES, 0x5a, 4);"]],
  ["overflow-large", ["  memset(ct + CRYPTO_CIPHERTEXTBYTES, 0x5a, 1 << 20);"]],
  ["abort", ["  abort();"]],
  [
    "output-200mb",
    [
      "  static int said;",
      "  if (!said) {",
      "    static char chunk[1 << 20];",
      "    said = 1;",
      "    memset(chunk, 'A', sizeof chunk);",
      "    for (int i = 0; i < 200; i++) fwrite(chunk, 1, sizeof chunk, stdout);",
      "    fflush(stdout);",
      "  }",
    ],
  ],
  [
    "alloc-20gb",
    [
      "  unsigned char *big = malloc((size_t)20 << 30);",
      '  fprintf(stderr, "ngcc-hostile: malloc(20 GiB) = %s\\n", big ? "a pointer" : "NULL");',
      "  if (!big) return -1;",
      "  big[0] = 1;",
      "  free(big);",
    ],
  ],
];

/** The includes, declarations and note() helper every hostile.c starts with. */
const HOSTILE_PREAMBLE = [
  "/* hostile.c -- made by packages/tests/src/fixture-tools.ts (makeHostileSubmission); deliberately hostile. */",
  "#define _GNU_SOURCE",
  "#include <errno.h>",
  "#include <fcntl.h>",
  "#include <stdio.h>",
  "#include <stdlib.h>",
  "#include <string.h>",
  "#include <time.h>",
  "#include <unistd.h>",
  "#include <arpa/inet.h>",
  "#include <netinet/in.h>",
  "#include <sys/prctl.h>",
  "#include <sys/socket.h>",
  "#include <sys/wait.h>",
  '#include "api.h"',
  "",
  "int ngcc_hostile_enc(unsigned char *ct, unsigned char *ss);",
  "void ngcc_hostile_seed(unsigned char *seed);",
  "",
  "static void note(const char *what, const char *path, int ok) {",
  '  fprintf(stderr, "ngcc-hostile: %s %s: %s\\n", what, path, ok ? "succeeded" : strerror(errno));',
  "}",
  "",
];

/** hostile.c for `kinds`: the C of each kind (tables above) and of the test's own `o.code`, in place. */
function hostileSource(kinds: readonly HostileKind[], o: HostileOptions): string {
  const has = (k: HostileKind) => kinds.includes(k);
  const atLoad = [...HOSTILE_AT_LOAD.filter(([k]) => has(k)).flatMap(([, c]) => c(o)), ...(o.code?.atLoad ?? [])];
  const enc = [...HOSTILE_AT_ENC.filter(([k]) => has(k)).flatMap(([, c]) => c), ...(o.code?.enc ?? [])];
  if (has("nonzero-return")) enc.push("  return -1;");
  const seed = has("nondeterministic")
    ? ["  struct timespec t;", "  clock_gettime(CLOCK_REALTIME, &t);", "  seed[0] ^= (unsigned char)(t.tv_nsec | 1);"]
    : ["  (void)seed;"];
  return [
    ...HOSTILE_PREAMBLE,
    ...(o.code?.top ?? []),
    "",
    ...(o.code?.atExit
      ? ["__attribute__((destructor)) static void ngcc_hostile_exit(void) {", ...o.code.atExit, "}", ""]
      : []),
    "__attribute__((constructor)) static void ngcc_hostile_load(void) {",
    "  (void)note;",
    ...atLoad,
    "}",
    "",
    "void ngcc_hostile_seed(unsigned char *seed) {",
    ...seed,
    "}",
    "",
    "int ngcc_hostile_enc(unsigned char *ct, unsigned char *ss) {",
    "  (void)ct;",
    "  (void)ss;",
    ...enc,
    "  return 0;",
    "}",
    "",
  ].join("\n");
}

/**
 * kem-90 (Puffin-128 only) with hostile.c linked in: `kinds` say what it does. Its committed KAT still matches
 * unless a kind changes the output (nondeterministic) or breaks an operation.
 */
export function makeHostileSubmission(
  destRoot: string,
  kinds: readonly HostileKind[],
  o: HostileOptions = {},
): { sub: Submission; instance: InstanceMeta } {
  const sub = copySubmission("kem-90", destRoot);
  const common = join(sub.dir, "Reference_Implementation/common");
  writeFileSync(join(common, "hostile.c"), hostileSource(kinds, o));
  const kem = join(sub.dir, PUFFIN_KEM_C);
  patchFile(
    kem,
    "int crypto_kem_keypair(",
    "int ngcc_hostile_enc(unsigned char *ct, unsigned char *ss);\nvoid ngcc_hostile_seed(unsigned char *seed);\n\nint crypto_kem_keypair(",
  );
  patchFile(
    kem,
    "    randombytes(seed, PUFFIN_SYMBYTES);\n    puffin_pke_keypair(pk, sk, seed);",
    "    randombytes(seed, PUFFIN_SYMBYTES);\n    ngcc_hostile_seed(seed);\n    puffin_pke_keypair(pk, sk, seed);",
  );
  patchFile(
    kem,
    "    puffin_kdf(ss, kr, ct);\n    return 0;\n}\n\nint crypto_kem_dec(",
    "    puffin_kdf(ss, kr, ct);\n    return ngcc_hostile_enc(ct, ss);\n}\n\nint crypto_kem_dec(",
  );
  const metaFile = join(sub.dir, "meta.json");
  const meta = JSON.parse(readFileSync(metaFile, "utf8")) as SubmissionMeta;
  const instance = meta.instances.find((i) => i.name === "Puffin-128");
  if (!instance) throw new Error("fixture-tools: kem-90 has no Puffin-128");
  instance.sources.push("Reference_Implementation/common/hostile.c", ...(o.code?.sources ?? []));
  for (const [rel, text] of Object.entries(o.code?.files ?? {})) {
    mkdirSync(dirname(join(sub.dir, rel)), { recursive: true });
    writeFileSync(join(sub.dir, rel), text);
  }
  meta.instances = [instance];
  writeFileSync(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
  return { sub: loadSubmission(sub.dir), instance };
}

/** Runs `ngcc-perf <args>` without blocking the event loop (a listener in the test keeps answering). */
export function runCliAsync(
  args: readonly string[],
  o: { timeoutMs?: number; detached?: boolean; env?: NodeJS.ProcessEnv; onStart?: (pid: number) => void } = {},
): Promise<CliResult & { signal: NodeJS.Signals | null }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [cliBin, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: o.detached ?? false,
      env: o.env ?? process.env,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), o.timeoutMs ?? 300_000);
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    if (child.pid !== undefined) o.onStart?.(child.pid);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}

/** Record files of a store's system folder (paths relative to data/<system>), without the index and environment. */
export function storeRecordFiles(out: string, system: string): string[] {
  const dir = join(out, "data", system);
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(relative(dir, p));
    }
  };
  if (existsSync(dir)) walk(dir);
  return files.filter((f) => f !== "index.json" && f !== "environment.json").sort();
}

/** Every file below a folder (none when it does not exist), depth first. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** The JSON records of a store (below <out>/data) whose kind matches. */
export function recordsOfKind(out: string, kind: RegExp): Array<Record<string, unknown>> {
  return filesUnder(join(out, "data"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(f, "utf8")) as Record<string, unknown>)
    .filter((r) => kind.test(String(r.kind)));
}

/**
 * An expected .rsp made by ngcc-perf's KAT generator compiled by hand (one gcc command: `gccArgs` name the scheme's
 * sources, flags and include folders; native/katgen and its DRBG are added, libraries after them), written to
 * `rsp`. Returns the compiler's and the generator's results for the test to assert on.
 */
export async function katByHand(
  gccArgs: readonly string[],
  rsp: string,
  linkAfter: readonly string[] = [],
): Promise<{ build: ProcResult; generate: ProcResult | null }> {
  const exe = `${rsp}.katgen-by-hand`;
  mkdirSync(dirname(rsp), { recursive: true });
  const build = await run("gcc", [
    "-DNGCC_KAT_KEM",
    ...gccArgs,
    "-I",
    katgenDir,
    ...KAT_RNG_SOURCES,
    join(katgenDir, "katgen.c"),
    "-o",
    exe,
    ...linkAfter,
  ]);
  if (build.status !== 0) return { build, generate: null };
  const generate = await run(exe, ["-o", rsp]);
  rmSync(exe, { force: true });
  return { build, generate };
}
