// The store index (data/<system>/index.json): the algorithms of the campaign (section 1 facts, page order)
// and every record and log of the system's folder with its SHA-256. A run never re-hashes what it finds: before it
// writes into a store the old index is verified (with the write journal of an interrupted run), and the new index
// lists what was verified; `ngcc-perf index` is the only deliberate re-hash.
import { existsSync, readFileSync } from "node:fs";
import {
  checkSystemIntegrity,
  formatFindings,
  InputError,
  parseRecordPath,
  recordPath,
  type StoreIndexRecord,
  type SystemIntegrity,
  storeFiles,
  systemDir,
} from "@ngcc-perf/schema";
import { type AlgorithmSpec, operationsOf } from "./instances.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import { closeWriteJournal, sha256, writeJsonAtomic } from "./store.ts";
import { TOOL } from "./tool.ts";

type IndexFile = StoreIndexRecord["files"][number];
type IndexAlgorithm = StoreIndexRecord["algorithms"][number];
type IndexProfile = NonNullable<StoreIndexRecord["buildProfiles"]>[number];

/**
 * The build profiles of an index: those already in it, then the campaign's algorithms' (name, flags,
 * description), a profile of the same name replacing the one there; in order of first appearance.
 */
export function indexProfiles(
  old: readonly IndexProfile[],
  profiles: ReadonlyArray<{ name: string; cflags: string[]; ldflags?: string[]; description?: string }>,
): IndexProfile[] {
  const byName = new Map(old.map((p) => [p.name, p]));
  for (const p of profiles) {
    byName.set(p.name, {
      name: p.name,
      cflags: p.cflags,
      ...(p.ldflags?.length ? { ldflags: p.ldflags } : {}),
      ...(p.description ? { description: p.description } : {}),
    });
  }
  return [...byName.values()];
}

/** Every record and KAT log below a system folder, with kind, hash and size (the index itself excluded). */
export function listStoreFiles(dataDir: string): IndexFile[] {
  return existsSync(dataDir) ? storeFiles(dataDir) : [];
}

/** Section-1 facts of an algorithm for the index. */
export function indexAlgorithm(a: AlgorithmSpec, passes = 1): IndexAlgorithm {
  const instances = a.instances.map((i) => i.instance);
  return {
    id: a.id,
    name: a.name,
    category: a.category,
    implementations: a.implementations,
    instances,
    operations: operationsOf(a.category, passes),
    links: a.links,
    ...(a.katManifest ? { katManifest: a.katManifest } : {}),
  };
}

/** Operations actually in the store for an algorithm, in page order (KEX: pass2 only when measured). */
function measuredOperations(files: IndexFile[], a: AlgorithmSpec): string[] {
  const ops = new Set<string>();
  for (const f of files) {
    const e = parseRecordPath("x", f.path);
    if (e?.kind === "timing" && e.key.algorithmId === a.id) ops.add(e.key.operation);
  }
  const canonical = operationsOf(a.category, 2);
  const present = canonical.filter((o) => ops.has(o));
  return present.length > 0 ? present : operationsOf(a.category, 1);
}

/** At most this many findings are named in a refusal (then how many more). */
const SHOWN_FINDINGS = 40;

/**
 * Verifies a system folder against its index and the write journal of an interrupted run: every file of the layout
 * as the index lists it, or as the journal says a run wrote it; every indexed file present; nothing else. A folder
 * holding no file of the layout and no index is a new store. Throws InputError (exit 2) naming every file that
 * differs — edited, deleted, or added without being indexed. `phase` says when: "before" a run writes into the
 * store (then nothing is written), "after" it wrote its records (then its index is not written).
 */
export function verifyStore(out: string, system: string, phase: "before" | "after"): SystemIntegrity {
  const dir = systemDir(out, system);
  const check = checkSystemIntegrity(dir, { consistency: false, journal: true });
  const fresh =
    check.files.length === 0 &&
    check.findings.every((f) => f.problem === "no-index") &&
    !existsSync(recordPath(out, { kind: "store-index", key: { system } }));
  if (fresh || check.findings.length === 0) return { ...check, findings: [] };
  const lines = formatFindings(check, dir);
  const shown = lines.slice(0, SHOWN_FINDINGS);
  if (lines.length > shown.length) shown.push(`… and ${lines.length - shown.length} more`);
  const what =
    phase === "before"
      ? "before this run wrote into it, so nothing was written into it and its index was not rebuilt"
      : "after this run wrote its records (a file changed behind the run), so its index was not rebuilt; the records this run wrote stay, vouched for by its write journal";
  throw new InputError(
    `${dir}: the store does not match its index ${what}:\n${shown.join("\n")}\n` +
      `A run never re-hashes a store. If these files were changed on purpose, check them and rebuild the index with ` +
      `"ngcc-perf index ${out}" (the index then says what was re-hashed, when and by whom), then run again; otherwise ` +
      `measure into a new --out.`,
  );
}

/**
 * Writes data/<system>/index.json for the campaign's algorithms (merged with algorithms already in an
 * existing index, so shards and merges keep each other's) and every file in the folder, after verifying them
 * against the old index and this run's write journal (verifyStore: a file changed behind the run is refused, not
 * indexed); then removes the journal.
 */
export function writeStoreIndex(campaign: ResolvedCampaign, out: string): StoreIndexRecord {
  const dataDir = systemDir(out, campaign.system);
  const indexPath = recordPath(out, { kind: "store-index", key: { system: campaign.system } });
  const files = verifyStore(out, campaign.system, "after").files;
  const byId = new Map<string, IndexAlgorithm>();
  let reindexed: StoreIndexRecord["reindexed"];
  let oldProfiles: IndexProfile[] = [];
  if (existsSync(indexPath)) {
    // verifyStore has read and validated it
    const old = JSON.parse(readFileSync(indexPath, "utf8")) as StoreIndexRecord;
    for (const a of old.algorithms ?? []) byId.set(a.id, a);
    reindexed = old.reindexed;
    oldProfiles = old.buildProfiles ?? [];
  }
  const used = [...new Set(campaign.algorithms.flatMap((a) => a.instances.flatMap((i) => i.profiles)))];
  const buildProfiles = indexProfiles(oldProfiles, used);
  for (const a of campaign.algorithms) {
    byId.set(a.id, { ...indexAlgorithm(a), operations: measuredOperations(files, a) });
  }
  const index: StoreIndexRecord = {
    kind: "store-index",
    schemaVersion: 1,
    provenance: { origin: "measured", tool: TOOL, createdAt: new Date().toISOString() },
    system: campaign.system,
    algorithms: [...byId.values()],
    files,
    systems: campaign.systems,
    campaign: { name: campaign.name, path: campaign.file, sha256: sha256(campaign.text) },
    ...(buildProfiles.length ? { buildProfiles } : {}),
    // The deliberate re-hashes of the files this index takes over stay on record.
    ...(reindexed?.length ? { reindexed } : {}),
  };
  writeJsonAtomic(indexPath, index);
  // The index now lists every file the journal vouched for (a journal left by a kill right here is stale: it names
  // the index it extended, which is gone).
  closeWriteJournal(dataDir, { remove: true });
  return index;
}
