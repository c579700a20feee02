// ngcc-perf index <store-dir>...: rebuilds each system's index.json from the files on disk, after a person has
// edited, added or removed records on purpose — the only deliberate re-hash (a run refuses a store whose files
// differ from its index). Every record is validated first (schema, its place in the store, the identities of timing
// figures); nothing is written when one is not valid. Says what changed, and records it in the index's `reindexed`
// (when, by whom, which files changed against the previous index). The checks and the rebuild are the runner's
// (packages/runner/src/reindex.ts); this command names the stores and prints what changed.
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkForReindex, indexDiffers, reindexSystem, reindexTargets, type SystemChange } from "@ngcc-perf/runner";
import { InputError } from "@ngcc-perf/schema";
import { EXIT, type Io, UsageError } from "../../io.ts";

export const usage = `ngcc-perf index <store-dir>... [--dry-run] [--json]

Rebuilds data/<system>/index.json of each system of a record store from the files on disk: every
record and KAT log with its SHA-256 and size. For a person who edited, added or removed records on
purpose — validate, report and merge refuse a store whose files differ from its index. Every record is
validated first (its schema, the key its place in the store gives, the identities of timing figures);
when one is not valid nothing is written. The algorithms and the rest of the old index are kept.
Each rebuilt index records the re-hash in its "reindexed" list (when, by whom, which files changed,
were added or removed against the previous index); later runs and merges keep it. A run never re-hashes:
it refuses a store whose files differ from its index, so this is the one way to accept them. The write
journal of an interrupted run (.write-journal.jsonl) is removed, as the new index supersedes it.
Prints what changed per system; --dry-run prints it without writing. Exits 0, or 2 for bad input.`;

export function indexCommand(argv: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "dry-run": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError("name at least one store folder");
  // 1. Check everything before writing anything.
  const { checks, errors } = checkForReindex(reindexTargets(positionals));
  if (errors.length > 0) {
    for (const e of errors) io.out(e);
    throw new InputError(
      `${errors.length} problem(s) in the records, so no index was rebuilt (an index vouches for valid records only)`,
    );
  }
  // 2. Rebuild what differs.
  const changes: SystemChange[] = [];
  for (const { check, shown } of checks) {
    const change = reindexSystem(check, values["dry-run"]);
    changes.push(change);
    const where = join(shown, "index.json");
    if (!indexDiffers(change)) {
      io.err(`${where}: matches its ${check.files.length} file(s); not rewritten`);
      continue;
    }
    const done = change.created ? "created" : "rewritten";
    io.err(`${where}: ${values["dry-run"] ? `would be ${done}` : done} for ${check.files.length} file(s)`);
    for (const p of change.changed) io.err(`  changed     ${p}`);
    for (const p of change.added) io.err(`  added       ${p}`);
    for (const p of change.removed) io.err(`  removed     ${p}`);
    for (const p of change.dropped) io.err(`  dropped     ${p}`);
  }
  if (values.json) io.out(JSON.stringify({ dryRun: values["dry-run"], systems: changes }, null, 2));
  return EXIT.ok;
}
