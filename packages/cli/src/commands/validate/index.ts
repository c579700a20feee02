// ngcc-perf validate <file-or-dir>...: checks records and campaigns against @ngcc-perf/schema, the figures of every
// timing record against each other, and every record of a store against the SHA-256 its index.json lists.
import { parseArgs } from "node:util";
import {
  checkNamedSystems,
  collectRecordFiles,
  type FileResult,
  formatFileProblem,
  formatFindings,
  recordConsistency,
  validateFile,
  visibleText,
} from "@ngcc-perf/schema";
import { EXIT, type Io, UsageError } from "../../io.ts";

export const usage = `ngcc-perf validate <file-or-dir>... [--json]

Checks each record (.json, by its "kind" field), campaign (.yaml/.yml) and submission's meta.json (a
file named meta.json without a "kind" field) against its schema, and the figures of each timing record
against each other (ops/s = 1e9 / meanNs, n and meanNs from the trials).
A folder is searched for .json, .yaml and .yml files. Prints "file:line:col pointer message" per error.

Records of a store (data/<system>/…) are also checked against the store's index.json: a file whose
SHA-256 or size differs ("changed since the index was written"), a listed file that is gone ("deleted"),
a file the index does not list ("not indexed"), a missing or invalid index. A store, its data/ folder or
a system folder is checked whole; a file or a folder inside one, for itself. After a deliberate edit,
rebuild the index with "ngcc-perf index <store>".

Exits 0 when every file is valid and every store matches its index, 2 otherwise.`;

export function validateCommand(argv: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: "boolean", default: false }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError("name at least one file or folder");
  const { files, missing } = collectRecordFiles(positionals);
  let bad = missing.length;
  for (const m of missing) io.err(visibleText(`${m}: no such file or folder`));
  const results: FileResult[] = files.map((f) => {
    const r = validateFile(f);
    if (!r.valid || r.kind !== "timing") return r;
    const errors = recordConsistency(f);
    return errors.length === 0 ? r : { ...r, valid: false, errors };
  });
  for (const r of results) {
    if (r.valid) continue;
    bad++;
    if (values.json) continue;
    for (const e of r.errors) {
      // File names, pointers and messages quote the file's own text: shown without control or bidi characters.
      io.out(visibleText(formatFileProblem(r.file, e)));
    }
  }
  // The identities were checked per file above; the store check adds what the index says.
  const integrity = checkNamedSystems(positionals, { consistency: false });
  const problems = integrity.reduce((n, s) => n + s.findings.length, 0);
  bad += problems;
  if (!values.json) for (const s of integrity) for (const line of formatFindings(s, s.shown)) io.out(visibleText(line));
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          files: results,
          missing,
          integrity: integrity.map((s) => ({ system: s.system, dir: s.dir, findings: s.findings })),
        },
        null,
        2,
      ),
    );
  }
  if (files.length === 0 && missing.length === 0 && integrity.length === 0) {
    io.err("validate: no .json, .yaml or .yml files found");
    return EXIT.badInput;
  }
  const valid = results.filter((r) => r.valid).length;
  const stores =
    integrity.length === 0
      ? ""
      : problems === 0
        ? `; ${integrity.length} system folder(s) match their index`
        : `; ${problems} store integrity problem(s) in ${integrity
            .filter((s) => s.findings.length > 0)
            .map((s) => s.shown)
            .join(", ")} (after a deliberate edit, rebuild the index: "ngcc-perf index <store>")`;
  io.err(
    `${valid} of ${files.length} file(s) valid${missing.length > 0 ? `, ${missing.length} missing` : ""}${stores}`,
  );
  return bad === 0 ? EXIT.ok : EXIT.badInput;
}
