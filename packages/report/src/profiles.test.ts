// Several build profiles on the pages: a store whose records of kem-22 and kex-06 carry two profiles (the seed's
// "guide" and a copy as "o3" with other figures, placed by the schema's layout) shows each profile with its own
// figures in every table keyed by instance, keeps them apart in the charts and on the index, and says sizes once
// when both profiles' audits agree.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordPath, relativeRecordPath, type StoreEntry } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCounter, formatKiB, formatShare, formatTime } from "./format.ts";
import { renderSite } from "./site.ts";
import { entries, miniStore, type Rec, readJson, recordAt, writeJson } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-profiles-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(tmp, "store");
const out = join(tmp, "out");
const page = (rel: string) => readFileSync(join(out, "site", rel), "utf8");

/** The o3 copy of a guide record: half the time, 100 KiB more peak memory, half the hash share. */
function o3Of(r: Rec, entry: StoreEntry): Rec {
  const c = structuredClone(r);
  if ("buildProfile" in c) c.buildProfile = "o3";
  if (entry.kind === "timing" && c.aggregates) {
    for (const t of c.trials) {
      t.ns = Math.round(t.ns / 2);
      t.counterDelta = Math.round(t.counterDelta / 2);
    }
    for (const k of ["meanNs", "medianTrialNs", "minTrialNs", "maxTrialNs", "q1TrialNs", "q3TrialNs"])
      c.aggregates[k] /= 2;
    c.aggregates.meanCounter /= 2;
    c.aggregates.opsPerSecond *= 2;
    c.memory.peakRssKiB += 100;
  }
  if (entry.kind === "hash-profile") c.groups[0].share /= 2;
  if (entry.kind === "kat") {
    c.log.path = relativeRecordPath({ kind: "kat-log", key: { ...(entry.key as Rec), buildProfile: "o3" } });
    if (c.instance === "Mithril-512") {
      c.verdict = "FAIL";
      c.outcome = "output-differs";
      c.diagnosis = { differingEntries: 1, firstCount: 3, field: "ss" };
    }
  }
  if (entry.kind === "size-audit" && c.algorithmId === "kem-22") c.instances[0].table.secretKeyBytes += 32;
  return c;
}

const guide = (instance: string, operation: string) =>
  readJson(recordAt(root, "timing", { algorithmId: "kem-22", instance, operation }));

beforeAll(async () => {
  miniStore(root, ["kem-22", "kex-06"]);
  for (const { file, entry } of entries(join(root, "data", "arm_1"), "arm_1")) {
    if (!("buildProfile" in entry.key) || entry.kind === "kat-log") continue;
    writeJson(
      recordPath(root, { ...entry, key: { ...entry.key, buildProfile: "o3" } } as StoreEntry),
      o3Of(readJson(file), entry),
    );
  }
  // The index says what o3 is for (as a run writes the campaign's build profiles); it says nothing of guide.
  const index = join(root, "data", "arm_1", "index.json");
  writeJson(index, {
    ...readJson(index),
    buildProfiles: [{ name: "o3", cflags: ["-O3"], description: "for comparison" }],
  });
  await renderSite(root, { out });
});

describe("two build profiles", () => {
  it("shows each profile's KAT verdict, timing and memory figures in their own rows", () => {
    const md = page("arm_1/kem-22.md");
    expect(md).toContain("| `Mithril-512` | guide | PASS |");
    expect(md).toContain("| `Mithril-512` | o3 | FAIL: first difference at count 3, field ss (1 differing entry) |");
    expect(md).toContain(
      "| instance | build profile | operation | mean cycles | mean time | ops/s | median trial | n (trials × iters) |",
    );
    for (const [instance, op] of [
      ["Mithril-128", "keygen"],
      ["Mithril-512", "dec"],
    ] as const) {
      const a = guide(instance, op).aggregates;
      expect(md).toContain(
        `| \`${instance}\` | guide | ${op} | ${formatCounter(a.meanCounter)} | ${formatTime(a.meanNs)} |`,
      );
      expect(md).toContain(
        `| \`${instance}\` | o3 | ${op} | ${formatCounter(a.meanCounter / 2)} | ${formatTime(a.meanNs / 2)} |`,
      );
      expect(formatTime(a.meanNs)).not.toBe(formatTime(a.meanNs / 2));
      const peak = guide(instance, op).memory.peakRssKiB;
      expect(md).toMatch(
        new RegExp(`\\| \`${instance}\` \\| guide \\| ${op} \\| \\d+ \\| \\d+ KiB \\| ${formatKiB(peak)} \\|`),
      );
      expect(md).toMatch(
        new RegExp(`\\| \`${instance}\` \\| o3 \\| ${op} \\| \\d+ \\| \\d+ KiB \\| ${formatKiB(peak + 100)} \\|`),
      );
    }
    expect(md).toContain("Build profiles of the records on this page: guide (flags not recorded) and o3");
    // A profile's description from the store index, beside its flags.
    expect(md).toMatch(/and o3 \(“for comparison”; flags /);
  });

  it("keeps the profiles apart in the hash/DRNG shares, the evidence index and the charts", () => {
    const md = page("arm_1/kem-22.md");
    const p = readJson(
      recordAt(root, "hash-profile", { algorithmId: "kem-22", instance: "Mithril-128", operation: "keygen" }),
    );
    const share = p.groups[0].share;
    expect(md).toContain(`| \`Mithril-128\` | guide | keygen | ${formatShare(share)} |`);
    expect(md).toContain(`| \`Mithril-128\` | o3 | keygen | ${formatShare(share / 2)} |`);
    // Evidence: the store's own paths (the earlier harness's names cannot tell two profiles apart).
    expect(md).toContain("| `Mithril-128` | o3 | timing dec | [`records/kem-22/o3/Mithril-128__dec.json`]");
    expect(md).toContain("| `Mithril-128` | guide | timing dec | [`records/kem-22/guide/Mithril-128__dec.json`]");
    expect(md).toContain("| `Mithril-512` | o3 | KAT log (sha256 ");
    expect(md).toContain("Paths are relative to data/arm_1/ in the record store");
    expect(md).not.toContain("Paths are relative to performance/data/arm_1/");
    const svg = readFileSync(join(out, "site", "arm_1", "img", "kem-22-time.svg"), "utf8");
    expect(svg).toContain("Mithril-128 (guide)");
    expect(svg).toContain("Mithril-128 (o3)");
    expect(readFileSync(join(out, "site", "arm_1", "img", "kem-22-share.svg"), "utf8")).toContain(
      "Mithril-512 (o3) dec",
    );
  });

  it("shows sizes per profile when they differ, and once when they agree", () => {
    const kem = page("arm_1/kem-22.md");
    expect(kem).toContain("| instance | build profile | public key | secret key | ciphertext | shared secret |");
    expect(kem).toContain("| `Mithril-128` | guide | 944 | 1136 | 928 | 16 |");
    expect(kem).toContain("| `Mithril-128` | o3 | 944 | 1168 | 928 | 16 |");
    const kex = page("arm_1/kex-06.md");
    expect(kex).toContain("| instance | passes | messages (bytes; raw API) |");
    expect(kex).toContain("The sizes are the same under build profiles guide and o3.");
    expect(page("arm_1/sizes.md")).toContain(
      "| instance | build profile | field | catalog | API | measured | on the page |",
    );
  });

  it("never merges the profiles on the system index or the method page", () => {
    const index = page("arm_1/index.md");
    expect(index).toContain("guide: 3/3 PASS; o3: 2/3 PASS, 1/3 FAIL");
    const k = guide("Mithril-128", "keygen").aggregates.meanNs;
    expect(index).toContain(`keygen ${formatTime(k)}`);
    expect(index).toContain(`keygen ${formatTime(k / 2)}`);
    expect(index).toMatch(/\(Mithril-128, guide\); keygen [^|]*\(Mithril-128, o3\)/);
    const method = page("arm_1/method.md");
    expect(method).toMatch(/\| guide \| not recorded \| not recorded \| 39 \|/);
    expect(method).toMatch(/\| o3 \| not recorded \| not recorded \| 39 \|/);
    expect(method).toContain("Unstable: kex-06 MAMBA-NIKE-128 (guide) init_b, kex-06 MAMBA-NIKE-128 (o3) init_b.");
    // On the algorithm page each unstable row is marked in the table (§ and its spread), explained once.
    const kex = page("arm_1/kex-06.md");
    expect(kex).toMatch(/\| `MAMBA-NIKE-128` \| guide \| init_b \|[^\n]* \| 503 µs § [\d.]+% \|/);
    expect(kex).toMatch(/\| `MAMBA-NIKE-128` \| o3 \| init_b \|[^\n]* § [\d.]+% \|/);
    expect(kex).toContain("§ Unstable (2 of ");
    expect(kex).not.toContain("Unstable (spread of the trial means");
  });
});
