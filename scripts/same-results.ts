// Whether a restructuring changed results (issue 27, "Done when"): writes a snapshot of what the product makes, to
// be compared with `diff -r` against a snapshot made the same way by another version of the code.
//
//   pnpm build && pnpm exec tsx scripts/same-results.ts STORE OUT [--ignore-hashes]
//
// --ignore-hashes: hex digests (inputsHash, sourcesSha256, the hashes in build folder names) become "<hex>" — for a
// change that edits C sources, whose hashes then differ by design.
// OUT/records: every JSON file of STORE's data/ folder, normalised: the dates (createdAt), the durations
// (durationMs), the store's own path and the measured figures of the records whose figures are timed (timing,
// hash-profile, survey and environment records, and a size audit's lengths measured from timing records: every number (and every number within a text) becomes "#", every list of numbers "[#]", a list of workers, commands
// or trials its distinct forms, and the keys that say which workers were contended or switched out are dropped) — what a second run of unchanged code changes; everything else
// (identities, build flags, hashes, KAT results, sizes, stack, heap, instruction counts, constant-time findings, the
// structure of every record) is kept as it is; every object's members in name order; and the hashes of files that
// hold a run's dates and store path (a KAT record's log sha256 and bytes, a size audit's inputsHash over the records
// it read, the index's file hashes) become "<run file>".
// OUT/pages/{seed,rounding,store}: the sites the built CLI renders from fixtures/seed-store, fixtures/rounding-store
// and STORE, with the store's path and the dates of generation replaced.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const ignoreHashes = process.argv.includes("--ignore-hashes");
const [storeArg, outArg] = process.argv.slice(2).filter((a) => a !== "--ignore-hashes");
if (!storeArg || !outArg) {
  process.stderr.write("usage: tsx scripts/same-results.ts STORE OUT\n");
  process.exit(2);
}
const store = resolve(storeArg);
const out = resolve(outArg);
rmSync(out, { recursive: true, force: true });

const TIMED_KINDS = new Set(["timing", "hash-profile", "survey", "environment"]);
const RUN_STATE_KEYS = new Set([
  "contention",
  "switchedOut",
  "contended",
  "publishedFrom",
  "stoppedBy",
  "metTarget",
  "unstable",
]);
const DATE = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

function text(s: string): string {
  const t = s
    .split(store)
    .join("<store>")
    .split(root)
    .join("<repo>/")
    .replace(DATE, "<date>")
    .replace(/-run-\d+/g, "-run-<pid>")
    .replace(/\.tmp-\d+/g, ".tmp-<pid>");
  return ignoreHashes ? t.replace(/[0-9a-f]{16,}/g, "<hex>") : t;
}

/** Fields that hash files holding a run's dates and paths (a KAT log, the records a size audit read, the index). */
const RUN_FILE_HASHES: Record<string, ReadonlySet<string>> = {
  kat: new Set(["sha256", "bytes"]),
  "size-audit": new Set(["inputsHash"]),
  "store-index": new Set(["sha256", "bytes"]),
};

function normalise(v: unknown, timed: boolean, fileHashes?: ReadonlySet<string>): unknown {
  // Which code layout a worker ran depends on how many workers the run made (worker n runs layout (n − 1) mod L).
  if (typeof v === "string")
    return timed
      ? text(v)
          .replace(/\d[\d,.]*/g, "#")
          .replace(/-layout#/g, "")
      : text(v);
  if (typeof v === "number") return timed ? "#" : v;
  if (Array.isArray(v)) {
    if (timed && v.every((x) => typeof x === "number")) return v.length ? "[#]" : [];
    const items = v.map((x) => normalise(x, timed, fileHashes));
    // A timed record's lists of workers, commands and trials are as long as the run made them: their distinct forms.
    return timed ? [...new Set(items.map((x) => JSON.stringify(x)))].map((x) => JSON.parse(x)) : items;
  }
  if (v && typeof v === "object") {
    // A size audit's lengths measured from timing records (signatures sampled while timing) are timed figures.
    const o0 = v as { source?: unknown; sources?: Array<{ source?: unknown }> };
    if (!timed && (o0.source === "timing" || o0.sources?.some((x) => x.source === "timing")))
      return normalise(v, true, fileHashes);
    // Members in name order: a JSON object's member order carries no meaning.
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (k === "createdAt" || k === "durationMs") continue;
      if (timed && RUN_STATE_KEYS.has(k)) continue;
      o[k] =
        fileHashes?.has(k) && (typeof x === "string" || typeof x === "number")
          ? "<run file>"
          : normalise(x, timed, fileHashes);
    }
    return o;
  }
  return v;
}

function write(path: string, data: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

for (const file of files(join(store, "data"))) {
  if (!file.endsWith(".json")) continue;
  const value = JSON.parse(readFileSync(file, "utf8")) as { kind?: string };
  const timed = TIMED_KINDS.has(value.kind ?? "");
  write(
    join(out, "records", relative(join(store, "data"), file)),
    `${JSON.stringify(normalise(value, timed, RUN_FILE_HASHES[value.kind ?? ""]), null, 1)}\n`,
  );
}

const sites: Record<string, string> = {
  seed: join(root, "fixtures/seed-store"),
  rounding: join(root, "fixtures/rounding-store"),
  store,
};
for (const [name, dir] of Object.entries(sites)) {
  const site = join(out, "pages", name);
  const r = spawnSync(process.execPath, [join(root, "packages/cli/bin.js"), "report", dir, "--out", site], {
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`report ${dir}: exit ${r.status}\n${r.stderr}`);
  for (const file of files(site)) {
    if (/\.(md|html|csv|json)$/.test(file)) writeFileSync(file, text(readFileSync(file, "utf8")));
  }
}
process.stdout.write(`${out}: ${files(out).length} files\n`);
