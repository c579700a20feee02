// ngcc-perf merge <store-dir>... --out DIR: one store from several (e.g. the shards of a campaign).
import { parseArgs } from "node:util";
import { mergeStores } from "@ngcc-perf/runner";
import { EXIT, type Io, UsageError } from "../../io.ts";
import { checkOutDir } from "../../out-dir.ts";

export const usage = `ngcc-perf merge <store-dir>... --out DIR [--json]

Merges record stores (folders holding data/<system>/) into DIR: every record is validated first;
identical duplicates are kept once; a record that differs between stores is refused with the path and
both stores named, and nothing is written; the environments of a system are combined (earliest start,
latest end; the machines must agree) and each system's index.json is rebuilt.`;

export function mergeCommand(argv: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError("name at least one store folder");
  if (values.out === undefined) throw new UsageError("--out DIR is required");
  checkOutDir(values.out);
  const r = mergeStores(positionals, values.out);
  io.err(
    `merge: ${r.files} file(s) for system(s) ${r.systems.join(", ")} (${r.duplicates} identical duplicate(s)) → ${r.out}`,
  );
  if (values.json) io.out(JSON.stringify(r, null, 2));
  return EXIT.ok;
}
