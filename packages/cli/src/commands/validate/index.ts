// ngcc-perf validate <file-or-dir>...: checks records and campaigns against @ngcc-perf/schema.
import { parseArgs } from "node:util";
import { collectRecordFiles, validateFile } from "@ngcc-perf/schema";
import { EXIT, type Io, UsageError } from "../../io.ts";

export const usage = `ngcc-perf validate <file-or-dir>... [--json]

Checks each record (.json, by its "kind" field) and campaign (.yaml/.yml) against its schema.
A folder is searched for .json, .yaml and .yml files. Prints "file:line:col pointer message" per
error; exits 0 when every file is valid, 2 otherwise.`;

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
  for (const m of missing) io.err(`${m}: no such file or folder`);
  const results = files.map((f) => validateFile(f));
  for (const r of results) {
    if (r.valid) continue;
    bad++;
    if (values.json) continue;
    for (const e of r.errors) {
      io.out(`${r.file}:${e.line ?? 1}:${e.column ?? 1} ${e.pointer === "" ? "(root)" : e.pointer} ${e.message}`);
    }
  }
  if (values.json) {
    io.out(JSON.stringify({ files: results, missing }, null, 2));
  }
  if (files.length === 0 && missing.length === 0) {
    io.err("validate: no .json, .yaml or .yml files found");
    return EXIT.badInput;
  }
  const valid = results.filter((r) => r.valid).length;
  io.err(`${valid} of ${files.length} file(s) valid${missing.length > 0 ? `, ${missing.length} missing` : ""}`);
  return bad === 0 ? EXIT.ok : EXIT.badInput;
}
