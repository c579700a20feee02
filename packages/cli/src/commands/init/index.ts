// ngcc-perf init <submission-folder>: drafts meta.json from a folder laid out as NIST and NGCC submissions arrive.
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { type Category, draftMeta, type InitResult, initSubmission } from "@ngcc-perf/runner";
import { EXIT, type Io, UsageError } from "../../io.ts";

export const usage = `ngcc-perf init <submission-folder> [--id ID] [--category kem|sign|kex] [--force | --update] [--dry-run] [--json]

Drafts <submission-folder>/meta.json from what the package's own build system compiles:
  build system     a Makefile: make -n -B (nothing built) of its PQCgenKAT_* programs, once per value of the
                   variables that choose a parameter set (PARAMS=…, values from ifeq, comments, params-*.h files);
                   a CMakeLists.txt: configured in a scratch folder, its targets read from the CMake file API;
                   both in the sandbox on a copy. Without one (or when it fails), the folders: one per parameter
                   set with its API header, shared folders (common/ …) whose headers it includes;
  instances        one per distinct compile set (sources, -D, -I, cflags, -l libraries), named from CRYPTO_ALGNAME,
                   the variables' values or the program; -O/-g/-W/-march=native are not carried (build profiles
                   choose those);
  sources          a file defining main and the submitter's randombytes (by the objects' symbols, a renamed one
                   as api.randombytes) left out, with a note;
  API header       the header that compiles to the full API with the instance's flags (api.h first); its sizes by
                   compiling and running native/printparams in the sandbox; category, prefix and signature API
                   from the preprocessed header;
  KAT              the .rsp files matched by the sizes (PQCkemKAT_<secret key bytes>.rsp …); kat.sha256 written
                   next to them, or an existing one checked (rewritten by --update); unused .rsp files said;
  iccs, profiler   ICCS use from the sources; profiler groups from the compiled objects' symbols.
Prints what it decided and from what, what it could not decide, and size-catalog rows (not written). The
submission's build system, preprocessor and compiler run in the sandbox with only a scratch folder writable.
meta.json is never overwritten without --force (a new draft) or --update (keeps every field a person set, adds
what is missing, rewrites kat.sha256); --dry-run writes nothing.

Exit codes: 0 drafted; 1 the existing kat.sha256 disagrees with the KAT files; 2 bad input (not a submission
folder, meta.json exists, --update without meta.json, no category).`;

const CATEGORIES = ["kem", "sign", "kex"];

export async function initCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      id: { type: "string" },
      category: { type: "string" },
      force: { type: "boolean", default: false },
      update: { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError("name one submission folder");
  if (values.category !== undefined && !CATEGORIES.includes(values.category)) {
    throw new UsageError(`--category "${values.category}": expected kem, sign or kex`);
  }
  if (values.force && values.update) throw new UsageError("--force replaces meta.json, --update keeps it: give one");
  const dir = positionals[0] as string;
  const opts = {
    ...(values.id !== undefined ? { id: values.id } : {}),
    ...(values.category !== undefined ? { category: values.category as Category } : {}),
    force: values.force,
    update: values.update,
  };
  const dry = values["dry-run"];
  const r = dry && !values.update ? await draftMeta(dir, opts) : await initSubmission(dir, opts, dry);
  if (values.json) io.out(JSON.stringify(r, null, 2));
  else printResult(r, io, values["dry-run"]);
  return r.manifest.problems.length > 0 ? EXIT.measuredFailure : EXIT.ok;
}

function printResult(r: InitResult, io: Io, dry: boolean): void {
  const shown = (p: string) => relative(process.cwd(), p) || ".";
  const instances = (r.meta.instances as unknown[]).length;
  io.out(
    dry
      ? `init: draft of ${shown(r.metaPath)} (${instances} instance(s)); nothing written (--dry-run):`
      : `init: ${r.update ? "updated" : "wrote"} ${shown(r.metaPath)} (${instances} instance(s))`,
  );
  if (dry) io.out(JSON.stringify(r.meta, null, 2));
  if (r.update) {
    io.out("\nKept (set in meta.json):");
    for (const l of r.update.kept) io.out(`  ${l}`);
    io.out("\nAdded (missing from meta.json):");
    for (const l of r.update.added) io.out(`  ${l}`);
    if (r.update.added.length === 0) io.out("  nothing");
    io.out(`\n${dry ? "Would rewrite" : "Rewrote"}:`);
    for (const l of r.update.rewrote) io.out(`  ${l}`);
    if (r.update.rewrote.length === 0) io.out("  nothing (no instance names a KAT file)");
  } else if (r.manifest.action === "written")
    io.out(`init: ${dry ? "would write" : "wrote"} ${shown(r.manifest.path)}`);
  io.out("\nDecided:");
  for (const l of r.decided) io.out(`  ${l}`);
  io.out("\nCould not decide (check these):");
  for (const l of r.undecided) io.out(`  ${l}`);
  if (r.manifest.problems.length > 0) {
    io.out("\nKAT manifest problems:");
    for (const l of r.manifest.problems) io.out(`  ${l}`);
  }
  io.out("\nSize-catalog rows (API figures; add them to your external_sizes.csv with the document's figures):");
  for (const l of r.catalogRows) io.out(`  ${l}`);
  io.out(
    `\nIn a campaign (source.submission is relative to the campaign file's folder):\n  algorithms:\n    - id: ${String(r.meta.id)}\n      source: { submission: ${r.dir} }`,
  );
}
