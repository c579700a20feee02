// Which signature API ngcc-perf calls for an instance (meta.json's `api`): the round-3 NIST pair
// crypto_sign(sm, smlen, m, mlen, sk) / crypto_sign_open(m, mlen, sm, smlen, pk), or the FIPS 204 context API
// crypto_sign(sm, smlen, m, mlen, ctx, ctxlen, sk) / crypto_sign_open(m, mlen, sm, smlen, ctx, ctxlen, pk).
// The native parts select it with -DNGCC_SIGN_API_FIPS204 (native/include/ngcc_sign_api.h); a build that fails
// because the header declares the other API says so and how to choose it.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { readSubmissionText, shortText } from "@ngcc-perf/schema";
import { InputError } from "./errors.ts";

export type SignApiStyle = "nist" | "fips204";

export interface SignApi {
  style: SignApiStyle;
  /** The context of timing, profiling and checks (hex, lower case; "" for none): the campaign's signContext, else api.context. */
  context: string;
  /** The context of the KAT (hex): meta.json's api.context, with which the submitter's .rsp was made. */
  katContext: string;
  /**
   * FIPS 204 only: the context functions are named crypto_sign_ctx / crypto_sign_open_ctx (PQClean's ML-DSA, whose
   * crypto_sign is the round-3 pair), found in the API header.
   */
  ctxNames: boolean;
}

/** FIPS 204: a context string of at most 255 bytes. */
export const MAX_SIGN_CONTEXT_BYTES = 255;

export const NIST_SIGN_API = "the round-3 NIST API crypto_sign(sm, smlen, m, mlen, sk)";
export const FIPS204_SIGN_API = "the FIPS 204 context API crypto_sign(sm, smlen, m, mlen, ctx, ctxlen, sk)";

const apiText = (style: SignApiStyle) => (style === "fips204" ? FIPS204_SIGN_API : NIST_SIGN_API);
const chooseText = (style: SignApiStyle) =>
  style === "fips204"
    ? `set "api": { "style": "fips204" } in meta.json`
    : `set "api": { "style": "nist" } in meta.json (or leave "style" out: nist is the default)`;

/** A hex context (even length, at most 255 bytes) in lower case; `where` names the field in an error. */
export function parseSignContext(hex: unknown, where: string): string {
  if (typeof hex !== "string" || !/^([0-9A-Fa-f]{2})*$/.test(hex)) {
    throw new InputError(
      `${where} must be a hex string of whole bytes (e.g. "0102ff"); got ${shortText(JSON.stringify(hex) ?? String(hex))}`,
    );
  }
  if (hex.length / 2 > MAX_SIGN_CONTEXT_BYTES) {
    throw new InputError(
      `${where} is ${hex.length / 2} bytes; FIPS 204 allows a context of at most ${MAX_SIGN_CONTEXT_BYTES} bytes`,
    );
  }
  return hex.toLowerCase();
}

/** Headers read for the signature API: each up to this size. */
const HEADER_BYTES = 1024 * 1024;

/**
 * The text of an API header and of the headers it includes with "…" from the same folders (one level). Each is read
 * as a submission file of `root` (the header's folder when not given): a regular file inside it, capped; a FIFO,
 * a link out (an `#include "../../etc/…"`) or a huge file is not read.
 */
function headerTexts(header: string, dirs: readonly string[], root = dirname(header)): string[] {
  if (!existsSync(header)) return [];
  const text = readSubmissionText(root, header, HEADER_BYTES).text;
  if (text === undefined) return [];
  const out = [text];
  for (const m of text.matchAll(/#\s*include\s*"([^"]+)"/g)) {
    const name = m[1] as string;
    const found = dirs.map((d) => join(d, name)).find((p) => existsSync(p));
    const more = found && found !== header ? readSubmissionText(root, found, HEADER_BYTES).text : undefined;
    if (more !== undefined) out.push(more);
  }
  return out;
}

/** The number of parameters of `name`'s prototype in C text, or null when it is not declared there. */
export function parameterCount(text: string, name: string): number | null {
  const stripped = text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
  const m = new RegExp(`\\b${name}\\s*\\(([^)]*)\\)`).exec(stripped);
  if (!m) return null;
  const params = (m[1] as string).trim();
  if (params === "" || params === "void") return 0;
  return params.split(",").length;
}

/** What the API header declares: the style of its `<prefix>crypto_sign`, and whether it has the _ctx names. */
export function declaredSignApi(
  header: string,
  dirs: readonly string[],
  namespace: string,
  root?: string,
): { style: SignApiStyle | null; ctxNames: boolean } {
  const text = headerTexts(header, dirs, root).join("\n");
  const n = parameterCount(text, `${namespace}crypto_sign`);
  const ctx = parameterCount(text, `${namespace}crypto_sign_ctx`);
  return { style: n === 5 ? "nist" : n === 7 ? "fips204" : null, ctxNames: ctx === 7 };
}

/**
 * The signature API of an instance from meta.json's `api` (already checked for its shape by the schema) and the
 * campaign's signContext. `where` is "<meta.json>: /instances/<i>/api" for errors.
 */
export function resolveSignApi(o: {
  api: unknown;
  where: string;
  campaignContext?: string | undefined;
  campaignWhere?: string;
  header: string;
  dirs: readonly string[];
  /** The submission folder the headers are read from (only its own regular files are read). */
  root?: string;
  namespace: string;
}): SignApi {
  const api = (o.api ?? {}) as { style?: unknown; context?: unknown };
  const style = api.style ?? "nist";
  if (style !== "nist" && style !== "fips204") {
    throw new InputError(
      `${o.where}/style: unknown signature API ${shortText(JSON.stringify(style))}; expected "nist" (the round-3 crypto_sign(sm, smlen, m, mlen, sk)) or "fips204" (the FIPS 204 context API)`,
    );
  }
  const katContext = api.context === undefined ? "" : parseSignContext(api.context, `${o.where}/context`);
  const context =
    o.campaignContext === undefined
      ? katContext
      : parseSignContext(o.campaignContext, o.campaignWhere ?? "the campaign's signContext");
  if (style === "nist" && (katContext !== "" || context !== "")) {
    throw new InputError(
      `${api.context !== undefined ? `${o.where}/context` : (o.campaignWhere ?? "the campaign's signContext")}: a context needs the FIPS 204 context API; the round-3 NIST API has none: set "api": { "style": "fips204" } in meta.json`,
    );
  }
  const declared = style === "fips204" ? declaredSignApi(o.header, o.dirs, o.namespace, o.root) : { ctxNames: false };
  // PQClean's form: crypto_sign is the round-3 pair and crypto_sign_ctx the context API.
  const ctxNames = style === "fips204" && declared.ctxNames && (declared as { style: unknown }).style !== "fips204";
  return { style, context, katContext, ctxNames };
}

/** A context in hex as the C initializer NGCC_SIGN_CONTEXT wants: 0x01,0x02. */
function contextBytes(hex: string): string {
  return (hex.match(/../g) ?? []).map((b) => `0x${b}`).join(",");
}

/**
 * The defines that select an instance's signature API in the native parts (driver, KAT generator, profiler):
 * none for the round-3 NIST API. `kat` picks the KAT's context.
 */
export function signApiFlags(api: SignApi | undefined, kat = false): string[] {
  if (api?.style !== "fips204") return [];
  const ctx = kat ? api.katContext : api.context;
  return [
    "-DNGCC_SIGN_API_FIPS204",
    ...(api.ctxNames ? ["-DNGCC_SIGN_API_CTX_NAMES"] : []),
    ...(ctx ? [`-DNGCC_SIGN_CONTEXT=${contextBytes(ctx)}`] : []),
  ];
}

/** The API of the call in a "too few / too many arguments" error: what ngcc-perf called, what the header has. */
function mismatchOf(stderr: string): { called: SignApiStyle; header: string | null; fn: string } | null {
  const m = /too (few|many) arguments to function [‘'"`]?([A-Za-z0-9_]*crypto_sign(?:_open)?(?:_ctx)?)[’'"`]?/.exec(
    stderr,
  );
  if (!m) return null;
  // A "declared here" note names the header that declares the function.
  const decl = /^([^\s:][^:\n]*\.h):\d+:\d+: note: declared here/m.exec(stderr);
  return { called: m[1] === "few" ? "nist" : "fips204", header: decl?.[1] ?? null, fn: m[2] as string };
}

/**
 * The sentence for a build that failed because the API header declares the other signature API (from the
 * compiler's "too few / too many arguments to function crypto_sign…"), or null when that is not the cause.
 */
export function signApiMismatch(stderr: string): string | null {
  const m = mismatchOf(stderr);
  if (!m) return null;
  const other: SignApiStyle = m.called === "nist" ? "fips204" : "nist";
  const header = m.header ? `this header (${m.header})` : "this header";
  return `API mismatch: ngcc-perf expects ${apiText(m.called)}; ${header} declares ${m.fn} with ${other === "fips204" ? "the FIPS 204 context API" : "the round-3 NIST API"}: ${chooseText(other)}`;
}

/**
 * The same judgement from the header's prototype, before anything is compiled: the sentence when the header's
 * `<prefix>crypto_sign` takes the other API's arguments (and, for fips204, has no crypto_sign_ctx), else null.
 */
export function signApiHeaderMismatch(
  api: SignApi | undefined,
  header: string,
  dirs: readonly string[],
  namespace: string,
): string | null {
  const style = api?.style ?? "nist";
  const declared = declaredSignApi(header, dirs, namespace);
  if (declared.style === null || declared.style === style) return null;
  if (style === "fips204" && declared.ctxNames) return null;
  return `API mismatch: ngcc-perf expects ${apiText(style)}; this header (${header}) declares ${namespace}crypto_sign with ${declared.style === "fips204" ? "the FIPS 204 context API" : "the round-3 NIST API"}: ${chooseText(declared.style)}`;
}
