// Resolving a campaign's algorithms into instances: what to compile, with which headers and defines,
// and which names the API uses (plain NIST or PQClean's namespaced ones).
import { existsSync, readdirSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  checkName,
  formatFileProblem,
  MAX_NESTING,
  offsetToPosition,
  readSubmissionBytes,
  readSubmissionText,
  readTextFile,
  shortText,
  tooDeepAt,
  type ValidationError,
  validateText,
} from "@ngcc-perf/schema";
import { algorithmProfiles, type BuildProfile, type Campaign, pqcleanRoot } from "./campaign.ts";
import { InputError } from "./errors.ts";
import { declaredSignApi, resolveSignApi, type SignApi } from "./signapi.ts";
import {
  apiHeaderOf,
  checkInstanceInputs,
  MAX_API_HEADER_BYTES,
  plainRandombytesSources,
  specialFileIn,
  withoutOwnRandombytes,
} from "./submission-inputs.ts";

export type Category = "kem" | "sign" | "kex";

export interface Link {
  label: string;
  href?: string | null;
}

export interface InstanceSpec {
  algorithmId: string;
  algorithmName: string;
  category: Category;
  instance: string;
  implementation: string;
  /** Folder holding api.h (or the header `apiHeader` names). */
  apiDir: string;
  /**
   * The API header when it is not <apiDir>/api.h (meta.json's apiHeader names a kem.h, sign.h …): absolute; the
   * native parts include it through -DNGCC_API_HEADER (see instanceFlags). Absent: api.h in apiDir.
   */
  apiHeader?: string;
  /** What the build left out and why ("left out <path>: …"), said once on the console and in the records. */
  notes?: string[];
  /** C sources of the instance itself (absolute). */
  sources: string[];
  /**
   * Randomness/ICCS sources linked with it for timing builds (absolute): the ICCS library's, or ngcc-perf's plain
   * randombytes (native/randombytes) for a submission without `iccs`.
   */
  support: string[];
  includeDirs: string[];
  defines: string[];
  /**
   * Compiler flags the package's build needs besides defines and include folders (meta.json's cflags: -std=c11,
   * -mavx2 …), after the build profile's flags in every compile of the instance's code and of the parts that
   * include its API header.
   */
  cflags: string[];
  /** System libraries linked after the objects on every link line (meta.json's and the campaign's libraries). */
  libraries: string[];
  /**
   * The symbol the instance's code calls for randomness when a macro renames randombytes (meta.json's
   * api.randombytes): linked to ngcc-perf's randombytes. Absent: randombytes.
   */
  randombytesSymbol?: string;
  /** PQClean-style prefix of every API name, e.g. PQCLEAN_MLKEM512_CLEAN_, or "" for plain NIST names. */
  namespace: string;
  /** Signatures: the API ngcc-perf calls (meta.json's api.style, the context); absent: the round-3 NIST API. */
  signApi?: SignApi;
  /** The build profiles it is measured under, in the campaign's order for the algorithm. */
  profiles: BuildProfile[];
  /** KAT facts for the KAT step (files relative to the submission). */
  kat?: { file?: string; defines: string[]; randomness: string; manifest?: string };
  submissionDir: string;
}

export interface AlgorithmSpec {
  id: string;
  name: string;
  category: Category;
  implementations: string[];
  instances: InstanceSpec[];
  links: { security?: Link; submission?: Link };
  katManifest?: string;
  /** The submission's meta.json, read and checked once (readMeta); null for a PQClean scheme. */
  meta: { path: string; json: Readonly<Record<string, unknown>> } | null;
  /**
   * Every instance of the submission, whatever the campaign's `instances:` selection (the same as `instances`
   * without one), resolved from the meta.json already read; throws what resolving an unselected instance throws.
   */
  allInstances(): InstanceSpec[];
}

const posixPath = (p: string) => p.split(sep).join("/").replace(/^\.\//, "");

function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );
}

export function matchesAny(name: string, globs: readonly string[] | undefined): boolean {
  return !globs || globs.some((g) => globToRegExp(g).test(name));
}

/** The namespace prefix an api.h uses, found from its size macro's name. */
export function apiNamespace(apiHeaderText: string): string {
  const m = /#define\s+([A-Za-z0-9_]*?)CRYPTO_SECRETKEYBYTES\b/.exec(apiHeaderText);
  return m?.[1] ?? "";
}

export function categoryFromApi(apiHeaderText: string): Category | null {
  if (/CRYPTO_KEX_PASSES\b/.test(apiHeaderText)) return "kex";
  if (/CRYPTO_CIPHERTEXTBYTES\b/.test(apiHeaderText)) return "kem";
  if (/CRYPTO_BYTES\b/.test(apiHeaderText) && /crypto_sign/.test(apiHeaderText)) return "sign";
  return null;
}

function readApi(dir: string, what: string): string {
  const p = join(dir, "api.h");
  if (!existsSync(p)) throw new InputError(`${what}: no api.h in ${dir}`);
  const read = readSubmissionText(dir, p, MAX_API_HEADER_BYTES);
  if (read.error !== undefined) throw new InputError(`${what}: ${p} ${read.error}`);
  return read.text;
}

function cFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".c"))
    .sort()
    .map((f) => join(dir, f));
}

function pqcleanAlgorithm(campaign: Campaign, a: Campaign["config"]["algorithms"][number]): AlgorithmSpec {
  const src = a.source as { pqclean: string; implementation?: string; root?: string };
  const root = pqcleanRoot(campaign, src.root);
  const impl = src.implementation ?? "clean";
  const kemDir = join(root, "crypto_kem", src.pqclean, impl);
  const signDir = join(root, "crypto_sign", src.pqclean, impl);
  const dir = existsSync(kemDir) ? kemDir : existsSync(signDir) ? signDir : null;
  if (!dir)
    throw new InputError(`algorithm ${a.id}: PQClean scheme "${src.pqclean}" (${impl}) not found under ${root}`);
  const api = readApi(dir, `algorithm ${a.id}`);
  const category = dir === kemDir ? "kem" : "sign";
  const common = join(root, "common");
  const support = cFiles(common).filter((f) => !f.endsWith("randombytes.c") || true);
  const name = a.name ?? src.pqclean;
  const instanceName = a.instances?.[0] && !/[*?]/.test(a.instances[0]) ? a.instances[0] : src.pqclean;
  checkName(instanceName, `${campaign.file}: algorithm ${a.id}: instance`);
  const instance: InstanceSpec = {
    algorithmId: a.id,
    algorithmName: name,
    category,
    instance: instanceName,
    implementation: impl,
    apiDir: dir,
    sources: cFiles(dir),
    support,
    includeDirs: [dir, common],
    defines: [],
    cflags: [],
    libraries: [...(a.libraries ?? [])],
    namespace: apiNamespace(api),
    ...pqcleanSignApi(campaign, a, category, dir, apiNamespace(api)),
    profiles: algorithmProfiles(campaign, a),
    kat: { defines: [], randomness: "randombytes" },
    submissionDir: dir,
  };
  return {
    id: a.id,
    name,
    category,
    implementations: [impl],
    instances: [instance],
    links: a.links ?? {},
    meta: null,
    allInstances: () => [instance],
  };
}

interface MetaInstance {
  name: string;
  implementation?: string;
  folder?: string;
  apiHeader?: string;
  sources: string[];
  includeDirs?: string[];
  defines?: string[];
  cflags?: string[];
  libraries?: string[];
  randomness?: string;
  kat?: { file?: string; defines?: string[]; randomness?: string };
  /** The submitter's randombytes.c of this instance when it is not among its sources (left out all the same). */
  randombytesSource?: string;
  /** { style?: "nist" | "fips204", prefix?: string, context?: hex, randombytes?: symbol } (see signapi.ts). */
  api?: { style?: string; prefix?: string; context?: string; randombytes?: string };
}
interface Meta {
  id?: string;
  /** The ICCS functions the submission calls; absent or null: none (nothing of ICCS is linked). */
  iccs?: unknown;
  /** The submitter's randombytes.c when it is not among an instance's sources (left out all the same). */
  randombytesSource?: string;
  name: string;
  category: Category;
  implementations?: Array<{ name: string }>;
  instances: MetaInstance[];
  katManifest?: string;
}

/** meta.json files above this size are refused rather than read. */
const MAX_META_BYTES = 4 * 1024 * 1024;

/**
 * Reads and checks a submission's meta.json before anything is built from it: UTF-8 JSON (read as validate reads
 * records), then its schema (@ngcc-perf/schema's meta.schema.json, as `ngcc-perf validate meta.json` checks it): an
 * unknown (misspelled) field or a duplicate key is refused first, then the fields the runner uses with their types,
 * instance names by the schema's name rule and every path relative and inside the submission folder, then anything
 * else the schema refuses. Each refusal is one line naming the file and the JSON pointer (exit 2).
 */
export function readMeta(metaPath: string, dir: string, algorithmId: string): Meta {
  const text = readMetaText(metaPath, dir, algorithmId);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${metaPath}: not valid JSON: ${shortText((err as Error).message, 160)}`);
  }
  const c = metaChecks(metaPath, dir);
  if (!isObject(value)) throw c.bad("", "must be an object (the submission's metadata)");
  const meta = value;
  // The schema first: a misspelled key is named before the missing field it hides (sourcse → sources is missing).
  const schema = validateText(text, metaPath, "meta").errors;
  const schemaError = (e: ValidationError) => {
    const more = schema.length > 1 ? ` (${schema.length - 1} more: ngcc-perf validate ${metaPath})` : "";
    return new InputError(`${formatFileProblem(metaPath, e)}${more}`);
  };
  const unknown = schema.find((e) => /^(unknown field|duplicate key) /.test(e.message));
  if (unknown) throw schemaError(unknown);
  c.str(meta.name, "/name", true);
  if (meta.category !== undefined && !["kem", "sign", "kex"].includes(meta.category as string)) {
    throw c.bad("/category", "must be kem, sign or kex");
  }
  c.inside(meta.katManifest, "/katManifest");
  c.inside(meta.randombytesSource, "/randombytesSource");
  if (!Array.isArray(meta.instances) || meta.instances.length === 0) {
    throw c.bad("/instances", "must list at least one instance");
  }
  for (const [i, m] of (meta.instances as unknown[]).entries()) checkMetaInstance(m, `/instances/${i}`, metaPath, c);
  const other = schema[0];
  if (other) throw schemaError(other);
  return meta as unknown as Meta;
}

/** meta.json's text: read as validate reads records, and refused when nested too deep to be one. */
function readMetaText(metaPath: string, dir: string, algorithmId: string): string {
  // A meta.json that is a link out of the submission (to /etc/shadow, a private key) is refused unread.
  const where = existsSync(metaPath) ? readSubmissionBytes(dir, metaPath, MAX_META_BYTES) : null;
  const read = where?.error !== undefined ? where : readTextFile(metaPath, MAX_META_BYTES, "meta.json files");
  if (read.error !== undefined) {
    throw new InputError(
      `${metaPath}: cannot read the submission's metadata (algorithm ${algorithmId}): ${read.error}`,
    );
  }
  const deep = tooDeepAt(read.text, "json");
  if (deep >= 0) {
    const { line, column } = offsetToPosition(read.text, deep);
    throw new InputError(`${metaPath}:${line}:${column} nested more than ${MAX_NESTING} levels deep: not a meta.json`);
  }
  return read.text;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The field checks of one meta.json: each throws an InputError naming the file and the JSON pointer. */
function metaChecks(metaPath: string, dir: string) {
  const bad = (pointer: string, expected: string) =>
    new InputError(`${metaPath}: ${pointer === "" ? "(root)" : pointer} ${expected}`);
  const str = (v: unknown, pointer: string, required: boolean): void => {
    if (v === undefined && !required) return;
    if (v === undefined) throw bad(pointer, "is missing; expected a string");
    if (typeof v !== "string" || v === "") throw bad(pointer, "must be a non-empty string");
  };
  const strings = (v: unknown, pointer: string): void => {
    if (v === undefined) return;
    if (!Array.isArray(v)) throw bad(pointer, "must be an array of strings");
    for (const [j, x] of v.entries()) str(x, `${pointer}/${j}`, true);
  };
  // A path of the submission: relative, and inside its folder once resolved.
  const inside = (v: unknown, pointer: string): void => {
    if (v === undefined) return;
    str(v, pointer, true);
    const p = v as string;
    const back = relative(dir, resolve(dir, p));
    if (isAbsolute(p) || back === ".." || back.startsWith(`..${sep}`) || isAbsolute(back)) {
      throw bad(pointer, `"${shortText(p)}" leaves the submission folder ${dir}; expected a path inside it`);
    }
  };
  return { bad, str, strings, inside };
}

/** One entry of meta.json's instances, at JSON pointer `at`: the fields the runner uses, with their types. */
function checkMetaInstance(m: unknown, at: string, metaPath: string, c: ReturnType<typeof metaChecks>): void {
  if (!isObject(m)) throw c.bad(at, "must be an object");
  // The name becomes part of store and build paths: checked before anything else is done with it.
  checkName(m.name, `${metaPath}: ${at}/name`);
  if (!Array.isArray(m.sources) || m.sources.length === 0)
    throw c.bad(`${at}/sources`, "must list the instance's C files");
  for (const [j, src] of m.sources.entries()) c.inside(src, `${at}/sources/${j}`);
  for (const key of ["folder", "apiHeader", "randombytesSource"] as const) c.inside(m[key], `${at}/${key}`);
  c.strings(m.includeDirs, `${at}/includeDirs`);
  for (const [j, d] of ((m.includeDirs as unknown[] | undefined) ?? []).entries())
    c.inside(d, `${at}/includeDirs/${j}`);
  c.strings(m.defines, `${at}/defines`);
  c.strings(m.cflags, `${at}/cflags`);
  c.strings(m.libraries, `${at}/libraries`);
  c.str(m.implementation, `${at}/implementation`, false);
  if (m.kat !== undefined) {
    if (!isObject(m.kat)) throw c.bad(`${at}/kat`, "must be an object");
    c.inside(m.kat.file, `${at}/kat/file`);
    c.strings(m.kat.defines, `${at}/kat/defines`);
    c.str(m.kat.randomness, `${at}/kat/randomness`, false);
  }
}

/**
 * The ICCS folder a submission is built with: the campaign's iccs.dir when its meta.json has `iccs` (refused
 * without one), else null — a submission that calls no ICCS function links nothing of ICCS.
 */
function usedIccs(campaign: Campaign, meta: Meta, algorithmId: string): string | null {
  if (meta.iccs === undefined || meta.iccs === null) return null;
  if (!campaign.iccsDir) {
    throw new InputError(
      `${campaign.file}: algorithm ${algorithmId}: its meta.json has "iccs" (it calls ICCS functions); set iccs.dir to the ICCS library, or drop "iccs" from meta.json if it calls none`,
    );
  }
  return campaign.iccsDir;
}

type CampaignAlgorithm = Campaign["config"]["algorithms"][number];

/** The campaign's signContext of an algorithm (hex), if any, and where it is for errors. */
function campaignSignContext(campaign: Campaign, a: CampaignAlgorithm): { value?: string; where: string } {
  const at = campaign.config.algorithms.indexOf(a);
  const value = (a as { signContext?: string }).signContext;
  return { ...(value !== undefined ? { value } : {}), where: `${campaign.file}: /algorithms/${at}/signContext` };
}

/**
 * The API names and signature API of a submission's instance: meta.json's api.prefix, else the prefix found in
 * the header (PQCLEAN_MLDSA44_CLEAN_ …, "" for plain NIST names); for signatures api.style and the context.
 */
function instanceApi(
  campaign: Campaign,
  a: CampaignAlgorithm,
  category: Category,
  api: MetaInstance["api"],
  where: string,
  h: { header: string; dirs: string[]; root: string },
): { namespace: string; signApi?: SignApi } {
  // A header that defines the plain CRYPTO_SECRETKEYBYTES uses the NIST names, whatever else it defines.
  const text =
    category !== "kex" && existsSync(h.header)
      ? (readSubmissionText(h.root, h.header, MAX_API_HEADER_BYTES).text ?? "")
      : "";
  const detected = /#define\s+CRYPTO_SECRETKEYBYTES\b/.test(text) ? "" : apiNamespace(text);
  const namespace = api?.prefix ?? detected;
  const ctx = campaignSignContext(campaign, a);
  if (category !== "sign") {
    if (api?.style !== undefined || api?.context !== undefined || ctx.value !== undefined) {
      throw new InputError(
        `${api?.style !== undefined || api?.context !== undefined ? where : ctx.where}: the signature API (style, context) applies to signatures only; this algorithm is a ${category}`,
      );
    }
    return { namespace };
  }
  const signApi = resolveSignApi({
    api,
    where,
    campaignContext: ctx.value,
    campaignWhere: ctx.where,
    header: h.header,
    dirs: h.dirs,
    root: h.root,
    namespace,
  });
  return { namespace, ...(signApi.style === "fips204" ? { signApi } : {}) };
}

/**
 * A PQClean signature scheme measured with the campaign's signContext: the FIPS 204 context API (PQClean's
 * crypto_sign_ctx / crypto_sign_open_ctx); without signContext the round-3 pair, as before.
 */
function pqcleanSignApi(
  campaign: Campaign,
  a: CampaignAlgorithm,
  category: Category,
  dir: string,
  namespace: string,
): { signApi?: SignApi } {
  const ctx = campaignSignContext(campaign, a);
  if (ctx.value === undefined) return {};
  const header = join(dir, "api.h");
  const declared = declaredSignApi(header, [dir], namespace, dir);
  if (category !== "sign" || (!declared.ctxNames && declared.style !== "fips204")) {
    throw new InputError(
      `${ctx.where}: ${a.id} has no FIPS 204 context API (no ${namespace}crypto_sign_ctx in ${header})`,
    );
  }
  return {
    signApi: resolveSignApi({
      api: { style: "fips204" },
      where: ctx.where,
      campaignContext: ctx.value,
      campaignWhere: ctx.where,
      header,
      dirs: [dir],
      root: dir,
      namespace,
    }),
  };
}

function submissionAlgorithm(campaign: Campaign, a: Campaign["config"]["algorithms"][number]): AlgorithmSpec {
  const src = a.source as { submission: string };
  const dir = resolve(campaign.dir, src.submission);
  const metaPath = join(dir, "meta.json");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError(`algorithm ${a.id}: submission folder ${dir} does not exist`);
  }
  const meta = readMeta(metaPath, dir, a.id);
  const category = a.category ?? meta.category;
  const iccs = usedIccs(campaign, meta, a.id);
  const sub: SubmissionContext = { dir, metaPath, meta, category, iccs };
  const instances: InstanceSpec[] = [];
  meta.instances.forEach((m, i) => {
    if (!matchesAny(m.name, a.instances)) return;
    instances.push(submissionInstance(campaign, a, sub, m, i));
  });
  if (instances.length === 0)
    throw new InputError(`algorithm ${a.id}: no instance matches ${JSON.stringify(a.instances)}`);
  // Anything else that would block whoever opens it (a header the compiler finds below an include folder, a KAT
  // file): a source package holds regular files, folders and links only.
  const special = specialFileIn(dir);
  if (special) {
    throw new InputError(
      `${join(dir, special.path)}: is ${special.what} in the submission of algorithm ${a.id}; a submission holds regular files and folders only (one that blocks when opened would hang the build or the harness)`,
    );
  }
  return {
    id: a.id,
    name: a.name ?? meta.name,
    category,
    implementations: [...new Set(instances.map((x) => x.implementation))],
    instances,
    links: a.links ?? {},
    // As the page names it: the algorithm's id, then the manifest's path inside the submission (kem-90/KAT/kat.sha256).
    ...(meta.katManifest ? { katManifest: `${a.id}/${posixPath(meta.katManifest)}` } : {}),
    meta: { path: metaPath, json: meta as unknown as Record<string, unknown> },
    allInstances: a.instances
      ? once(() => meta.instances.map((m, i) => submissionInstance(campaign, a, sub, m, i)))
      : () => instances,
  };
}

/** A function that computes its value on the first call and returns it (or throws the same error) after. */
function once<T>(f: () => T): () => T {
  let done: { value: T } | { error: unknown } | null = null;
  return () => {
    done ??= (() => {
      try {
        return { value: f() };
      } catch (error) {
        return { error };
      }
    })();
    if ("error" in done) throw done.error;
    return done.value;
  };
}

/** What every instance of one submission shares: its folder, its meta.json (read), its category and ICCS folder. */
interface SubmissionContext {
  dir: string;
  metaPath: string;
  meta: Meta;
  category: Category;
  iccs: string | null;
}

/** Instance `i` of a submission's meta.json, its files checked before any is read. */
function submissionInstance(
  campaign: Campaign,
  a: CampaignAlgorithm,
  sub: SubmissionContext,
  m: MetaInstance,
  i: number,
): InstanceSpec {
  const { dir, metaPath, meta, category, iccs } = sub;
  const header = apiHeaderOf(dir, m, { metaPath, pointer: `/instances/${i}/apiHeader` });
  const listed = m.sources.map((s) => resolve(dir, s));
  listed.forEach((s, j) => {
    if (!existsSync(s)) {
      throw new InputError(`${metaPath}: /instances/${i}/sources/${j}: ${shortText(m.sources[j] ?? s)} does not exist`);
    }
  });
  // Every file the harness reads or hashes for this instance, checked before any is read.
  checkInstanceInputs(dir, m, {
    metaPath,
    index: i,
    apiDir: header.apiDir,
    ...(header.apiHeader ? { apiHeader: header.apiHeader } : {}),
  });
  const own = withoutOwnRandombytes(listed, dir, {
    metaPath,
    pointer: `/instances/${i}/sources`,
    ...((m.randombytesSource ?? meta.randombytesSource) !== undefined
      ? { randombytesSource: (m.randombytesSource ?? meta.randombytesSource) as string }
      : {}),
  });
  const sources = own.sources;
  const apiDir = header.apiDir;
  return {
    algorithmId: a.id,
    algorithmName: a.name ?? meta.name,
    category,
    instance: m.name,
    implementation: m.implementation ?? "reference",
    apiDir,
    ...(header.apiHeader ? { apiHeader: header.apiHeader } : {}),
    ...(own.notes.length ? { notes: own.notes } : {}),
    sources,
    support: iccs ? cFiles(iccs) : plainRandombytesSources(),
    includeDirs: [...(m.includeDirs ?? []).map((d) => resolve(dir, d)), ...(iccs ? [iccs] : [])],
    defines: m.defines ?? [],
    cflags: m.cflags ?? [],
    libraries: [...new Set([...(m.libraries ?? []), ...(a.libraries ?? [])])],
    ...(m.api?.randombytes && m.api.randombytes !== "randombytes" ? { randombytesSymbol: m.api.randombytes } : {}),
    ...instanceApi(campaign, a, category, m.api, `${metaPath}: /instances/${i}/api`, {
      header: header.apiHeader ?? join(apiDir, "api.h"),
      dirs: [apiDir, ...(m.includeDirs ?? []).map((d) => resolve(dir, d))],
      root: dir,
    }),
    profiles: algorithmProfiles(campaign, a),
    kat: {
      ...(m.kat?.file ? { file: m.kat.file } : {}),
      // Absent, the KAT build has the instance's own defines (kat.defines replace them when given).
      defines: m.kat?.defines ?? m.defines ?? [],
      randomness: m.kat?.randomness ?? "randombytes",
      ...(meta.katManifest ? { manifest: meta.katManifest } : {}),
    },
    submissionDir: dir,
  };
}

/**
 * Refuses --only patterns that select nothing of the campaign (a typo would otherwise run nothing, exit 0 and write
 * a site of what was there): each pattern must match an instance's "<algorithm-id>/<instance>", its instance or its
 * algorithm id. The message names the pattern and what it could match.
 */
export function checkOnly(algorithms: ReadonlyArray<AlgorithmSpec>, only: readonly string[] | undefined): void {
  if (!only?.length) return;
  const names = algorithms.flatMap((a) => a.instances.map((i) => [`${a.id}/${i.instance}`, i.instance, a.id]));
  for (const pattern of only) {
    if (names.some((n) => n.some((x) => matchesAny(x, [pattern])))) continue;
    const choices = names.map((n) => n[0] as string);
    const shown = choices.slice(0, 12).join(", ") + (choices.length > 12 ? `, … (${choices.length} in all)` : "");
    throw new InputError(
      `--only "${shortText(pattern)}" matches no instance of the campaign; it could match <algorithm-id>/<instance>, <instance> or <algorithm-id> of: ${shown || "(none)"}`,
    );
  }
}

export function resolveAlgorithms(campaign: Campaign): AlgorithmSpec[] {
  return campaign.config.algorithms.map((a) =>
    "pqclean" in a.source ? pqcleanAlgorithm(campaign, a) : submissionAlgorithm(campaign, a),
  );
}

/** The operations timed for a category (KEX: the steps its api.h has, then exchange). */
export function operationsOf(category: Category, passes = 1): string[] {
  if (category === "kem") return ["keygen", "enc", "dec"];
  if (category === "sign") return ["keygen", "sign", "verify"];
  return ["exchange", "init_a", "init_b", "pass1", ...(passes >= 2 ? ["pass2"] : []), "derive_a", "derive_b"];
}
