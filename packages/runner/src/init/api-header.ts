// The API header chosen by what it compiles to, and its sizes by the same compiled evaluation the sizes step uses.
// Each candidate header is preprocessed (-E -dD, in the sandbox) with the instance's defines, cflags and include
// folders: api.h is taken when it compiles to the full API (the CRYPTO_* size macros and the keypair function,
// declared or renamed by a macro, as Kyber's kem.h does), else the first header that does. The sizes are then
// read by compiling native/printparams/ngcc_printparams.c against it (-DNGCC_API_HEADER, -DNGCC_CATEGORY_*,
// -DNGCC_NAMESPACE) and running it in the sandbox, so sizeof, expressions, other headers and build flags work.
import { existsSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Category } from "../instances.ts";
import { nativeDir } from "../native.ts";
import { runProcess } from "../proc.ts";
import { HOST_CONTEXT } from "../run-context.ts";
import { failureOf, filesIn, readSome, stripComments, unique } from "./util.ts";

/** What an instance is compiled with: the flags every read of its headers and sources uses. */
export interface CompileFlags {
  defines: string[];
  includeDirs: string[];
  cflags: string[];
}

export const flagArgs = (f: CompileFlags) => [
  ...f.cflags,
  ...f.defines.map((d) => `-D${d}`),
  ...f.includeDirs.flatMap((d) => ["-I", d]),
];

export const SIZE_MACROS = [
  "CRYPTO_SECRETKEYBYTES",
  "CRYPTO_PUBLICKEYBYTES",
  "CRYPTO_CIPHERTEXTBYTES",
  "CRYPTO_BYTES",
  "CRYPTO_KEX_PASSES",
  "CRYPTO_KEX_MSG1BYTES",
  "CRYPTO_KEX_MSG2BYTES",
  "CRYPTO_KEX_PUBLICKEYBYTES_A",
  "CRYPTO_KEX_PUBLICKEYBYTES_B",
  "CRYPTO_KEX_SECRETKEYBYTES_B",
] as const;
export type SizeMacro = (typeof SIZE_MACROS)[number];

/** A header as the compiler sees it with the instance's flags. */
export interface Preprocessed {
  header: string;
  /** The compiler's first error line when it does not preprocess. */
  error?: string;
  /** Every macro defined after the header (name → replacement text). */
  macros: Map<string, string>;
  /** The preprocessed code (declarations). */
  code: string;
  /** What the API names expand to after the header (a name renamed by macros: its final name). */
  expands: Map<string, string>;
}

/** The API names a probe expands after the header: what a macro renames them to (Dilithium's crypto_sign). */
const PROBED = ["crypto_sign", "crypto_sign_open", "crypto_sign_keypair", "crypto_kem_keypair"];
let probes = 0;

export async function preprocess(cc: string, header: string, flags: CompileFlags, work: string): Promise<Preprocessed> {
  const probe = join(work, `ngcc-init-pp-${probes++}.c`);
  writeFileSync(
    probe,
    [`#include "${header}"`, ...PROBED.map((n, k) => `ngcc_init_probe_${k} = ${n} ngcc_init_end`), ""].join("\n"),
  );
  const r = await runProcess([cc, "-E", "-dD", ...flagArgs(flags), probe], {
    context: HOST_CONTEXT,
    timeoutMs: 60_000,
    cwd: work,
    writable: [work],
  });
  const out: Preprocessed = { header, macros: new Map(), code: "", expands: new Map() };
  if (r.exitCode !== 0) {
    out.error = failureOf(r);
    return out;
  }
  const code: string[] = [];
  for (const line of r.stdout.split("\n")) {
    const m = /^#define\s+([A-Za-z_]\w*)(\([^)]*\))?\s*(.*)$/.exec(line);
    if (m) out.macros.set(m[1] as string, (m[3] as string).trim());
    else if (/^#undef\s+(\w+)/.test(line)) out.macros.delete(/^#undef\s+(\w+)/.exec(line)?.[1] as string);
    else if (line.startsWith("ngcc_init_probe_")) {
      const p = /^ngcc_init_probe_(\d+) = (.*) ngcc_init_end$/.exec(line);
      const name = PROBED[Number(p?.[1])];
      if (name && p?.[2] !== undefined) out.expands.set(name, p[2].trim());
    } else if (!line.startsWith("#")) code.push(line);
  }
  out.code = code.join("\n");
  return out;
}

/** What a preprocessed header gives of the NIST API. */
export interface ApiShape {
  /** The namespace prefix of the size macros (PQCLEAN_MLKEM768_CLEAN_), "" for the plain names. */
  prefix: string;
  category: Category | null;
  /** Defines the size macros and the keypair function (declared, or a macro renaming it). */
  full: boolean;
  /** What is missing, when not full. */
  missing: string[];
  style?: "nist" | "fips204";
  styleWhy?: string;
}

export function apiShape(pp: Preprocessed): ApiShape {
  const names = [...pp.macros.keys()];
  const sk = names.find((n) => /^(\w*?)CRYPTO_(SECRETKEYBYTES|KEX_SECRETKEYBYTES_B)$/.test(n));
  const prefix = sk && !sk.startsWith("CRYPTO_KEX") ? (/^(\w*?)CRYPTO_SECRETKEYBYTES$/.exec(sk)?.[1] ?? "") : "";
  const has = (m: string) => pp.macros.has(`${prefix}${m}`);
  const category: Category | null =
    has("CRYPTO_KEX_PASSES") || pp.macros.has("CRYPTO_KEX_PASSES")
      ? "kex"
      : has("CRYPTO_CIPHERTEXTBYTES")
        ? "kem"
        : has("CRYPTO_BYTES")
          ? "sign"
          : null;
  const fn =
    category === "kex"
      ? "crypto_kex"
      : category === "kem"
        ? `${prefix}crypto_kem_keypair`
        : `${prefix}crypto_sign_keypair`;
  const declared = (f: string) => pp.macros.has(f) || new RegExp(`\\b${f}\\w*\\s*\\(`).test(pp.code);
  const missing: string[] = [];
  if (!sk) missing.push("CRYPTO_SECRETKEYBYTES");
  if (category === null) missing.push("CRYPTO_CIPHERTEXTBYTES or CRYPTO_BYTES");
  else if (!declared(fn)) missing.push(`${fn}()`);
  const shape: ApiShape = { prefix, category, full: missing.length === 0, missing };
  // The signature API: crypto_sign's prototype as declared — 5 parameters round-3 NIST, 7 (ctx, ctxlen) FIPS 204.
  const code = pp.code.replace(/\s+/g, " ");
  const renamed = prefix ? undefined : pp.expands.get("crypto_sign");
  const signName = renamed && /^\w+$/.test(renamed) ? renamed : `${prefix}crypto_sign`;
  const proto = new RegExp(`\\b${signName}\\s*\\(([^;{)]*)\\)\\s*(?:__attribute__\\s*\\(\\(.*?\\)\\)\\s*)?;`).exec(
    code,
  );
  if (proto?.[1] !== undefined) {
    const params = proto[1].split(",").map((p) => p.trim());
    const ctx = params.some((p) => /\bctx\w*\b|context/i.test(p));
    shape.style = params.length >= 7 || ctx ? "fips204" : "nist";
    shape.styleWhy = `${prefix}crypto_sign has ${params.length} parameters${ctx ? " with a context" : ""}`;
  }
  return shape;
}

/** Headers that may be an instance's API header, api.h first: those of its folders naming CRYPTO_* or crypto_*. */
export function candidateHeaders(folders: string[]): string[] {
  const all = unique(folders.flatMap((d) => filesIn(d, ".h")));
  const named = all.filter((h) => /CRYPTO_|crypto_(kem|sign|kex)/.test(stripComments(readSome(h))));
  const api = all.filter((h) => basename(h) === "api.h");
  return unique([...api, ...named]);
}

export interface ApiChoice {
  header: string;
  pp: Preprocessed;
  shape: ApiShape;
  /** Other headers that compile to the full API too. */
  others: string[];
  /** Why headers tried before the chosen one were not taken. */
  passedOver: string[];
}

/** The first candidate that compiles to the full API (api.h first), or the reasons none does. */
export async function chooseApiHeader(
  cc: string,
  candidates: string[],
  flags: CompileFlags,
  work: string,
  rel: (p: string) => string,
): Promise<{ choice: ApiChoice | null; partial: ApiChoice | null; passedOver: string[] }> {
  const passedOver: string[] = [];
  let choice: ApiChoice | null = null;
  let partial: ApiChoice | null = null;
  for (const h of candidates) {
    const pp = await preprocess(cc, h, flags, work);
    if (pp.error) {
      passedOver.push(`${rel(h)} does not compile: ${pp.error}`);
      continue;
    }
    const shape = apiShape(pp);
    if (!shape.full) {
      if (!partial && shape.category !== null && !shape.missing.includes("CRYPTO_SECRETKEYBYTES")) {
        partial = { header: h, pp, shape, others: [], passedOver: [...passedOver] };
      }
      if (basename(h) === "api.h" || shape.category !== null)
        passedOver.push(`${rel(h)} lacks ${shape.missing.join(", ")}`);
      continue;
    }
    if (choice) {
      if (basename(h) !== "api.h" && basename(choice.header) !== "api.h") choice.others.push(h);
      continue;
    }
    choice = { header: h, pp, shape, others: [], passedOver: [...passedOver] };
  }
  return { choice, partial, passedOver };
}

export interface ApiSizes {
  sizes: Partial<Record<SizeMacro, number>>;
  algname?: string;
  error?: string;
}

const FIELD_MACRO: Record<string, SizeMacro> = {
  publicKeyBytes: "CRYPTO_PUBLICKEYBYTES",
  secretKeyBytes: "CRYPTO_SECRETKEYBYTES",
  ciphertextBytes: "CRYPTO_CIPHERTEXTBYTES",
  sharedSecretBytes: "CRYPTO_BYTES",
  signatureBytes: "CRYPTO_BYTES",
  passes: "CRYPTO_KEX_PASSES",
  msg1Bytes: "CRYPTO_KEX_MSG1BYTES",
  msg2Bytes: "CRYPTO_KEX_MSG2BYTES",
  publicKeyABytes: "CRYPTO_KEX_PUBLICKEYBYTES_A",
  publicKeyBBytes: "CRYPTO_KEX_PUBLICKEYBYTES_B",
  secretKeyBBytes: "CRYPTO_KEX_SECRETKEYBYTES_B",
};

/** The sizes as the compiler evaluates them: printparams compiled against the header and run, in the sandbox. */
export async function compiledSizes(
  cc: string,
  header: string,
  shape: ApiShape,
  flags: CompileFlags,
  work: string,
  tag: string,
): Promise<ApiSizes> {
  if (!shape.category) return { sizes: {}, error: "no category" };
  const nd = nativeDir();
  const src = join(nd, "printparams", "ngcc_printparams.c");
  if (!existsSync(src)) return { sizes: {}, error: `cannot find ${src}` };
  const exe = join(work, `printparams-${tag}`);
  // The header by its path, so another api.h on the include path is never picked up.
  const b = await runProcess(
    [
      cc,
      "-O0",
      ...flags.cflags,
      `-DNGCC_CATEGORY_${shape.category.toUpperCase()}`,
      ...(shape.prefix && shape.category !== "kex" ? [`-DNGCC_NAMESPACE=${shape.prefix}`] : []),
      `-DNGCC_API_HEADER="${header}"`,
      ...flags.defines.map((d) => `-D${d}`),
      ...flags.includeDirs.flatMap((d) => ["-I", d]),
      "-I",
      join(nd, "include"),
      src,
      "-o",
      exe,
    ],
    { timeoutMs: 120_000, cwd: work, writable: [work], context: HOST_CONTEXT },
  );
  if (b.exitCode !== 0) return { sizes: {}, error: failureOf(b) };
  const r = await runProcess([exe], { timeoutMs: 30_000, cwd: work, writable: [work], context: HOST_CONTEXT });
  if (r.exitCode !== 0) return { sizes: {}, error: `printparams: ${failureOf(r)}` };
  try {
    const v = JSON.parse(r.stdout) as { algname?: unknown; sizes?: Record<string, unknown> };
    const sizes: Partial<Record<SizeMacro, number>> = {};
    for (const [k, x] of Object.entries(v.sizes ?? {})) {
      const m = FIELD_MACRO[k];
      if (m && typeof x === "number" && Number.isSafeInteger(x) && x >= 0) sizes[m] = x;
    }
    return { sizes, ...(typeof v.algname === "string" && v.algname ? { algname: v.algname } : {}) };
  } catch {
    return { sizes: {}, error: "printparams printed no JSON" };
  }
}
