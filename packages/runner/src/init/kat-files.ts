// KAT files: the .rsp files of the folder matched to instances by their sizes (the name PQC<category>KAT_<sk>.rsp
// and the first entry's pk/sk lengths), a path naming the instance winning when several fit; the manifest
// (kat.sha256) checked when there is one, else written next to them.
import { existsSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { readSubmissionBytes } from "@ngcc-perf/schema";
import { InputError } from "../errors.ts";
import type { Category } from "../instances.ts";
import { sha256 as sha256Hex } from "../store.ts";
import { entries, isDir, isFile, posix, readSome } from "./util.ts";

export interface RspFile {
  path: string;
  rel: string;
  category?: Category;
  nameBytes?: number;
  pkBytes?: number;
  skBytes?: number;
}

export function readRsp(dir: string, path: string): RspFile {
  const rel = posix(relative(dir, path));
  const m = /^PQC(kem|sign|kex)KAT_(\d+)\.rsp$/i.exec(basename(path));
  const f: RspFile = { path, rel };
  if (m) {
    f.category = (m[1] as string).toLowerCase() as Category;
    f.nameBytes = Number(m[2]);
  }
  const text = readSome(path, 4 * 1024 * 1024);
  const pk = /^pk(?:_b)? = ([0-9A-Fa-f]*)\s*$/m.exec(text);
  const sk = /^sk(?:_b)? = ([0-9A-Fa-f]*)\s*$/m.exec(text);
  if (pk?.[1] !== undefined) f.pkBytes = pk[1].length / 2;
  if (sk?.[1] !== undefined) f.skBytes = sk[1].length / 2;
  return f;
}

/** KAT files above this size are not hashed (a 100-entry .rsp of the largest NIST keys is tens of MB). */
const MAX_KAT_BYTES = 256 * 1024 * 1024;

export function findRsp(dir: string, depth = 5): string[] {
  const out: string[] = [];
  for (const e of entries(dir)) {
    const p = join(dir, e);
    if (e.startsWith(".")) continue;
    if (isDir(p)) {
      if (depth > 0) out.push(...findRsp(p, depth - 1));
    } else if (e.toLowerCase().endsWith(".rsp") && isFile(p)) out.push(p);
  }
  return out;
}

export interface KatCandidate {
  name: string;
  parameterSet: string;
  algname?: string;
  implementation: string;
  implFolder: string;
  sk?: number;
  pk?: number;
}

export interface KatMatch {
  file?: RspFile;
  /** One line for `undecided` when no file, or several, fit. */
  undecided?: string;
}

/** The .rsp file of each instance, by its sizes; a path naming it (or its implementation) wins among several. */
export function matchKat(c: KatCandidate, rsps: RspFile[], category: Category): KatMatch {
  const fits = rsps.filter(
    (f) =>
      (f.category === undefined || f.category === category) &&
      (f.nameBytes === undefined || f.nameBytes === c.sk) &&
      (f.skBytes === undefined || f.skBytes === c.sk) &&
      (f.pkBytes === undefined || c.pk === undefined || f.pkBytes === c.pk),
  );
  const words = [c.name, c.parameterSet, c.algname ?? ""].filter(Boolean).map((w) => w.toLowerCase());
  const score = (f: RspFile) => {
    const segs = f.rel.toLowerCase().split("/");
    const impl = [c.implementation, basename(c.implFolder).toLowerCase()];
    return (segs.some((s) => words.includes(s)) ? 2 : 0) + (segs.some((s) => impl.includes(s)) ? 1 : 0);
  };
  const best = Math.max(-1, ...fits.map(score));
  const top = fits.filter((f) => score(f) === best);
  if (top.length === 1 && (best > 0 || fits.length === 1)) return { file: top[0] as RspFile };
  if (top.length > 1 || fits.length > 1) {
    return {
      undecided: `${c.name}: several KAT files fit its sizes (${top.map((f) => f.rel).join(", ")}); set its kat.file by hand`,
    };
  }
  const file = `PQC${category}KAT_${c.sk ?? "<secret key bytes>"}.rsp`;
  return {
    undecided: `${c.name}: no KAT file found (expected ${file} with ${c.sk ?? "?"}-byte secret keys); the KAT step will have nothing to compare`,
  };
}

export function findManifest(dir: string): string | null {
  for (const p of [join(dir, "KAT", "kat.sha256"), join(dir, "kat.sha256"), join(dir, "KAT", "KAT.sha256")]) {
    if (existsSync(p)) return p;
  }
  return null;
}

function commonDir(dirs: string[]): string {
  let base = dirs[0] as string;
  while (!dirs.every((d) => d === base || d.startsWith(`${base}${sep}`))) base = dirname(base);
  return base;
}

export interface Manifest {
  path: string;
  action: "written" | "checked" | "none";
  problems: string[];
}

/** The manifest for the chosen files: an existing one checked (every listed file, every chosen file listed). */
export function planManifest(dir: string, chosen: RspFile[], rel: (p: string) => string, rewrite = false): Manifest {
  if (chosen.length === 0) return { path: "", action: "none", problems: [] };
  const existing = findManifest(dir);
  const kat = join(dir, "KAT");
  const base = existing
    ? dirname(existing)
    : chosen.every((f) => f.path.startsWith(`${kat}${sep}`))
      ? kat
      : commonDir(chosen.map((f) => dirname(f.path)));
  const path = existing ?? join(base, "kat.sha256");
  if (!existing || rewrite) return { path, action: "written", problems: [] };
  const problems: string[] = [];
  const listed = new Map<string, string>();
  for (const line of readSome(existing).split("\n")) {
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.trim());
    if (m?.[1] && m[2]) listed.set(posix(m[2]), m[1].toLowerCase());
  }
  for (const [file, digest] of listed) {
    const p = join(base, file);
    // Only the submission's own regular files are hashed: a listed ../../etc/shadow or a link out is not read.
    const read = existsSync(p) ? readSubmissionBytes(dir, p, MAX_KAT_BYTES) : null;
    if (!read) problems.push(`${rel(existing)}: lists ${file}, which does not exist`);
    else if (read.error !== undefined) problems.push(`${rel(existing)}: lists ${file}, which ${read.error}`);
    else if (sha256Hex(read.bytes) !== digest)
      problems.push(`${rel(existing)}: ${file}: SHA-256 differs from the manifest's (a changed or corrupt KAT file)`);
  }
  for (const f of chosen) {
    const r = posix(relative(base, f.path));
    if (!listed.has(r)) problems.push(`${rel(existing)}: does not list ${r}`);
  }
  return { path, action: "checked", problems };
}

/**
 * The manifest's text for the KAT files the instances name (paths relative to the manifest's folder). Each is
 * hashed as a submission file: a kat.file of an existing meta.json that leaves the folder (../../etc/shadow, a
 * link out), a FIFO or a file above MAX_KAT_BYTES is bad input naming it, never hashed.
 */
export function manifestText(dir: string, manifestPath: string, files: string[]): string {
  const base = dirname(manifestPath);
  const lines = [...new Set(files)].map((f) => {
    const read = readSubmissionBytes(dir, join(dir, f), MAX_KAT_BYTES);
    if (read.error !== undefined) {
      throw new InputError(
        `${join(dir, f)}: a KAT file to list in kat.sha256 ${read.error}; expected a regular file inside the submission`,
      );
    }
    return `${sha256Hex(read.bytes)}  ${posix(relative(base, join(dir, f)))}`;
  });
  return `${lines.join("\n")}\n`;
}
