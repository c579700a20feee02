// The store index (data/<system>/index.json): the algorithms of the campaign (section 1 facts, page order)
// and every record and log of the system's folder with its SHA-256, rebuilt from what is on disk.
import { existsSync, readFileSync } from "node:fs";
import { parseRecordPath, recordPath, type StoreIndexRecord, storeFiles, systemDir } from "@ngcc-perf/schema";
import type { Campaign } from "./campaign.ts";
import { type AlgorithmSpec, operationsOf } from "./instances.ts";
import { sha256, writeJsonAtomic } from "./store.ts";
import { TOOL } from "./tool.ts";

type IndexFile = StoreIndexRecord["files"][number];
type IndexAlgorithm = StoreIndexRecord["algorithms"][number];

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

/**
 * Writes data/<system>/index.json for the campaign's algorithms (merged with algorithms already in an
 * existing index, so shards and merges keep each other's) and every file now in the folder.
 */
export function writeStoreIndex(campaign: Campaign, algorithms: AlgorithmSpec[], out: string): StoreIndexRecord {
  const dataDir = systemDir(out, campaign.system);
  const indexPath = recordPath(out, { kind: "store-index", key: { system: campaign.system } });
  const files = listStoreFiles(dataDir);
  const byId = new Map<string, IndexAlgorithm>();
  if (existsSync(indexPath)) {
    try {
      const old = JSON.parse(readFileSync(indexPath, "utf8")) as StoreIndexRecord;
      for (const a of old.algorithms ?? []) byId.set(a.id, a);
    } catch {
      // an unreadable index is rebuilt from the campaign
    }
  }
  for (const a of algorithms) {
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
  };
  writeJsonAtomic(indexPath, index);
  return index;
}
