// ngcc-perf init: drafts a submission's meta.json from its folder as real packages arrive — what the package's
// own build system compiles (make -n -B per documented variable value, CMake's file API), else its folders; the
// API header and sizes by compiling them; symbols, KAT files, ICCS use, libraries, profiler groups. Every
// decision is listed with what it was read from, and what it could not decide. It never overwrites meta.json
// without force; --update keeps what a person set and fills what is missing.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { readSubmissionText, shortText } from "@ngcc-perf/schema";
import { InputError } from "../errors.ts";
import { writeFileAtomic } from "../store.ts";
import { draftMeta, type InitOptions, type InitResult } from "./draft.ts";
import { manifestText } from "./kat-files.ts";
import { mergeMeta } from "./update.ts";
import { isFile, relTo } from "./util.ts";

/** meta.json files above this size are not read (as readMeta's cap). */
const MAX_META_BYTES = 4 * 1024 * 1024;

export { draftMeta, type InitGroup, type InitOptions, type InitResult, KAT_SWITCHES, katSwitchOf } from "./draft.ts";

/**
 * Drafts meta.json (draftMeta) and writes it, and kat.sha256 when there is none; refuses to overwrite an existing
 * meta.json unless force (replace) or update (merge: keep every field set, add what is missing, rewrite the
 * manifest). An existing kat.sha256 is checked, never rewritten, except by update.
 */
export async function initSubmission(folder: string, opts: InitOptions = {}, dry = false): Promise<InitResult> {
  const dir = resolve(folder);
  const metaPath = join(dir, "meta.json");
  const exists = existsSync(metaPath);
  if (opts.update && !exists) {
    throw new InputError(
      `${metaPath}: does not exist; --update refreshes an existing meta.json (run init without --update to draft one)`,
    );
  }
  if (exists && !opts.force && !opts.update) {
    throw new InputError(
      `${metaPath}: exists; init never overwrites it (--force to replace it with a new draft, --update to keep its fields and fill what is missing)`,
    );
  }
  let mine: Record<string, unknown> | null = null;
  if (opts.update) {
    // Read as readMeta reads it: a meta.json that is a FIFO (it hung init) or a link out is named, never read.
    const read = readSubmissionText(dir, metaPath, MAX_META_BYTES);
    if (read.error !== undefined) {
      throw new InputError(`${metaPath}: ${read.error}; expected the meta.json to update (a regular file)`);
    }
    try {
      const v = JSON.parse(read.text) as unknown;
      if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("expected a JSON object");
      mine = v as Record<string, unknown>;
    } catch (err) {
      throw new InputError(
        `${metaPath}: not valid JSON (${shortText((err as Error).message, 120)}); expected the meta.json to update`,
      );
    }
  }
  const r = await draftMeta(dir, opts);
  const rel = relTo(dir);
  let meta = r.meta;
  if (mine) {
    const merged = mergeMeta(mine, r.meta);
    meta = merged.meta;
    const files = ((meta.instances as Array<{ kat?: { file?: string } }>) ?? [])
      .map((i) => i.kat?.file)
      .filter((f): f is string => typeof f === "string" && isFile(join(dir, f)));
    const manifestRel =
      typeof meta.katManifest === "string" ? meta.katManifest : r.manifest.path ? rel(r.manifest.path) : "";
    const rewrote: string[] = [];
    let manifest = r.manifest;
    if (manifestRel && files.length > 0) {
      const path = join(dir, manifestRel);
      if (!dry) writeFileAtomic(path, manifestText(dir, path, files));
      rewrote.push(`${manifestRel} (${[...new Set(files)].length} KAT file(s): ${[...new Set(files)].join(", ")})`);
      manifest = { path, action: "written", problems: [] };
      if (!("katManifest" in meta)) meta.katManifest = manifestRel;
    }
    if (!dry) writeFileAtomic(metaPath, `${JSON.stringify(meta, null, 2)}\n`);
    return { ...r, meta, manifest, wrote: !dry, update: { kept: merged.kept, added: merged.added, rewrote } };
  }
  if (dry) return r;
  if (r.manifest.action === "written") {
    const files = (meta.instances as Array<{ kat: { file?: string } }>)
      .map((i) => i.kat.file)
      .filter((f): f is string => f !== undefined);
    writeFileAtomic(r.manifest.path, manifestText(dir, r.manifest.path, files));
  }
  writeFileAtomic(metaPath, `${JSON.stringify(meta, null, 2)}\n`);
  return { ...r, wrote: true };
}
