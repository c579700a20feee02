// The package's layout: implementation folders (Reference_Implementation/ → reference, Optimized_Implementation/ →
// optimized, Additional_Implementations/<name>/ → <name>, else the folder itself) and, when no build system says
// what is compiled, the folder fallback: one folder per parameter set holding its API header, shared folders
// (common/ …) beside them.
import { basename, join, sep } from "node:path";
import { entries, filesIn, foldersUnder, isDir, isFile, readSome, stripComments } from "./util.ts";

const IMPLEMENTATION_DIR = /^(reference|optimized|optimised|additional)_implementations?$/i;

export interface Implementation {
  name: string;
  folder: string;
}

export function implementationsOf(dir: string): Implementation[] {
  const found: Implementation[] = [];
  for (const e of entries(dir)) {
    const p = join(dir, e);
    if (!isDir(p) || !IMPLEMENTATION_DIR.test(e)) continue;
    const kind = e.split("_")[0]?.toLowerCase() ?? "reference";
    if (kind === "additional") {
      for (const sub of entries(p).filter((s) => isDir(join(p, s)) && !s.startsWith("."))) {
        found.push({ name: sub.toLowerCase().replace(/[^a-z0-9.+-]+/g, "-"), folder: join(p, sub) });
      }
    } else found.push({ name: kind === "optimised" ? "optimized" : kind, folder: p });
  }
  const rank = (name: string) => (name === "reference" ? 0 : name === "optimized" ? 1 : 2);
  found.sort((a, b) => rank(a.name) - rank(b.name));
  return found.length > 0 ? found : [{ name: "reference", folder: dir }];
}

/** Does this header's text define the NIST API's secret-key size macro (possibly namespaced)? A first look only. */
function namesApiSizes(text: string): boolean {
  return /#\s*define\s+\w*CRYPTO_(SECRETKEYBYTES|KEX_SECRETKEYBYTES_B)\b/.test(stripComments(text));
}

/** A folder holding a parameter set's API header (api.h, or a header defining the size macros). */
export function isSetFolder(dir: string): boolean {
  return isFile(join(dir, "api.h")) || filesIn(dir, ".h").some((h) => namesApiSizes(readSome(h)));
}

export interface FolderLayout {
  setDirs: string[];
  shared: string[];
}

/** The folder fallback: parameter-set folders (the top-most holding an API header) and the shared folders. */
export function folderLayout(implFolder: string): FolderLayout {
  const folders = foldersUnder(implFolder);
  const setDirs: string[] = [];
  for (const f of folders) {
    if (setDirs.some((s) => f.startsWith(`${s}${sep}`))) continue;
    if (isSetFolder(f)) setDirs.push(f);
  }
  const shared = folders.filter(
    (f) =>
      !setDirs.some((s) => f === s || f.startsWith(`${s}${sep}`)) &&
      (filesIn(f, ".c").length > 0 || filesIn(f, ".h").length > 0),
  );
  return { setDirs, shared };
}

/** Folder names that never name an instance (the layout's, not the scheme's). */
export const LAYOUT_FOLDER =
  /^(include|inc|src|source|sources|ref|opt|avx2?|clean|lib|common|reference_implementation|optimized_implementation|optimised_implementation|additional_implementations?|implementation|code|impl)$/i;

export const folderName = (dir: string) => basename(dir);
