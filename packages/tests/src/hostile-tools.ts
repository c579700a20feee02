// Shared by the hostile-submission tests (hostile*.test.ts): a campaign over hostile copies of kem-90
// (Puffin-128, fixture-tools' makeHostileSubmission), and readers of what a run left in its store and site.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filesUnder, type HostileKind, type HostileOptions, iccsDir, makeHostileSubmission } from "./fixture-tools.ts";

/** Timing settings small enough for a test (two workers, a few milliseconds each). */
/** Short workers; the statistic set, so that the time step does not first count every hostile operation under
 * valgrind (a hanging one until its timeout) to decide it: these tests are about containment. */
export const FAST_TIMING =
  "{ workerMs: 2, minWorkers: 2, budgetMs: 20, keyPairs: 1, inputPool: 4, central: { keygen: median, enc: median, dec: median } }";

export interface HostileCase {
  id: string;
  kinds: HostileKind[];
  /** The case's own options (its C), over the campaign's `shared` ones. */
  options?: HostileOptions;
}

/**
 * A campaign file `<root>/campaign.yaml` over one hostile copy of kem-90 (Puffin-128 only) per case, each under
 * `<root>/submissions/<id>`; `options(id, dest)` gives a case's options from where its copy goes.
 */
export function hostileCampaign(
  root: string,
  cases: readonly HostileCase[],
  o: {
    timeouts: string;
    extra?: string[];
    options?: (c: HostileCase, dest: string, out: string) => HostileOptions;
  },
): { file: string; out: string; submissions: Record<string, string> } {
  mkdirSync(root, { recursive: true });
  const out = join(root, "out");
  const submissions: Record<string, string> = {};
  const lines = cases.map((c) => {
    const dest = join(root, "submissions", c.id);
    const shared = o.options?.(c, dest, out) ?? {};
    const own = c.options ?? {};
    const { sub } = makeHostileSubmission(dest, c.kinds, { ...shared, ...own });
    submissions[c.id] = sub.dir;
    return `  - { id: ${c.id}, instances: [Puffin-128], source: { submission: ${JSON.stringify(sub.dir)} } }`;
  });
  const file = join(root, "campaign.yaml");
  writeFileSync(
    file,
    [
      `name: hostile-${root.split("/").pop()}`,
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      `timing: ${FAST_TIMING}`,
      `timeouts: ${o.timeouts}`,
      ...(o.extra ?? []),
      "algorithms:",
      ...lines,
      "",
    ].join("\n"),
  );
  return { file, out, submissions };
}

export interface StoredRecord {
  status: string;
  failure?: { reason: string; message: string };
  verdict?: string;
  outcome?: string;
  error?: { reason: string; message: string };
  commands?: { sandboxed?: boolean; stderrTail?: string }[];
}

/** The records of a store's test_1 system, by `<alg>/<instance>[__<op>]` (the guide profile's path folded in). */
export function storeRecords(out: string, kind: "records" | "kat"): Record<string, StoredRecord> {
  const dir = join(out, "data", "test_1", kind);
  const result: Record<string, StoredRecord> = {};
  for (const f of filesUnder(dir).filter((p) => p.endsWith(".json"))) {
    const rel = f.slice(dir.length + 1).replace(/\.json$/, "");
    result[rel.replace("/guide/", "/")] = JSON.parse(readFileSync(f, "utf8")) as StoredRecord;
  }
  return result;
}

/** Every byte of the store and the site (builds included), for the leak checks; or only what a reader reads. */
export function storeText(out: string, readable = false): string {
  return filesUnder(out)
    .filter((f) => !readable || /\.(json|md|html|svg|log|txt|rsp)$/.test(f))
    .map((f) => readFileSync(f).toString("latin1"))
    .join("\n");
}

/** The message of an internal error or a stack trace, which no hostile input may provoke. */
export const INTERNAL_ERROR = /internal error|\n\s+at .+:\d+:\d+\)/;
