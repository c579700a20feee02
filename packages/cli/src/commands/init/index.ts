// ngcc-perf init <submission-folder>: drafts meta.json from a folder laid out as NIST and NGCC submissions arrive.
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { type Category, draftMeta, type InitResult, initSubmission } from "@ngcc-perf/runner";
import { EXIT, type Io, UsageError } from "../../io.ts";

export const usage = `ngcc-perf init <submission-folder> [--id ID] [--category kem|sign|kex] [--force] [--dry-run] [--json]

Drafts <submission-folder>/meta.json from what the folder shows:
  implementations  Reference_Implementation/, Optimized_Implementation/, Additional_Implementations/<name>/
                   (or the folder itself);
  instances        one folder per parameter set with its API header (api.h, or the header defining
                   CRYPTO_SECRETKEYBYTES), or one source folder whose Makefile builds each set with -D<NAME>=<value>;
  sources          the set folder's .c files and the shared folders' (common/ …) whose headers it includes; a file
                   defining main() and the submitter's randombytes (randombytes.c, rng.c, or any file that
                   defines randombytes) are left out, with a note;
  category         from the API header's macros: CRYPTO_KEX_PASSES kex, CRYPTO_CIPHERTEXTBYTES kem,
                   CRYPTO_BYTES without a ciphertext sign (--category overrides);
  api              the signature API from crypto_sign's prototype (5 parameters nist, 7 fips204) and the
                   PQClean-style prefix of the API names;
  KAT              the .rsp files matched by the sizes in each API header (PQCkemKAT_<secret key bytes>.rsp …);
                   kat.sha256 written next to them, or an existing one checked (never rewritten);
  iccs             set when the code includes iccs.h or calls pseudohash, pseudoXOF or sm3*; left out otherwise;
  profiler         groups proposed from the compiled objects' symbols (SHA-3/SHAKE, SHA-2, AES, SM3, ChaCha,
                   the ICCS placeholders, randombytes).
Prints what it decided, what it could not decide, and size-catalog rows (not written) for external_sizes.csv.
Nothing of the submission is run: its headers are preprocessed and its sources compiled (not linked) in the
sandbox, as every build is. meta.json is never overwritten without --force; --dry-run writes nothing.

Exit codes: 0 drafted; 1 the existing kat.sha256 disagrees with the KAT files; 2 bad input (not a submission
folder, meta.json exists, no category).`;

const CATEGORIES = ["kem", "sign", "kex"];

export async function initCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      id: { type: "string" },
      category: { type: "string" },
      force: { type: "boolean", default: false },
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
  const dir = positionals[0] as string;
  const opts = {
    ...(values.id !== undefined ? { id: values.id } : {}),
    ...(values.category !== undefined ? { category: values.category as Category } : {}),
    force: values.force,
  };
  const r = values["dry-run"] ? await draftMeta(dir, opts) : await initSubmission(dir, opts);
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
      : `init: wrote ${shown(r.metaPath)} (${instances} instance(s))`,
  );
  if (dry) io.out(JSON.stringify(r.meta, null, 2));
  if (r.manifest.action === "written") io.out(`init: ${dry ? "would write" : "wrote"} ${shown(r.manifest.path)}`);
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
