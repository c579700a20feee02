// What an instance's generated KAT is compared with: the .rsp file its submitters shipped (checked against
// their kat.sha256 first), or expected hashes (PQClean-style) from the campaign or PQClean's own figures.
import { join, relative } from "node:path";
import type { AlgorithmSpec, Campaign, InstanceSpec } from "@ngcc-perf/runner";
import type { KatRng } from "./generator.ts";
import { PQCLEAN_NISTKAT_SHA256, PQCLEAN_SOURCE, pqcleanKatRng } from "./pqclean.ts";
import type { Form } from "./rsp.ts";

export const NIST_ENTRIES = 100;

export interface Expectation {
  form: Form;
  entries: number;
  /** An expected hash (lower-case hex) … */
  sha256?: string;
  /** … or the shipped .rsp file (absolute path) … */
  path?: string;
  /** … of this submission folder (read only inside it: readShipped). */
  root?: string;
  /** Where the expectation comes from, as shown in the log and the record. */
  source: string;
}

export interface KatPlan {
  expectations: Expectation[];
  /** Entries to generate: enough for every expectation. */
  entries: number;
  rng: KatRng;
  /**
   * The submission's manifest (absolute) and its name on the page, when the expectation is a shipped file; `used`:
   * the KAT file (absolute) of every instance of the submission, when known (files it lists beyond them are named).
   */
  manifest?: { path: string; display: string; used?: string[]; root?: string };
}

type AlgorithmConfig = Campaign["config"]["algorithms"][number];
interface KatExpectationConfig {
  sha256: string;
  form: Form;
  entries?: number;
  source?: string;
}

function entriesOf(form: Form, entries?: number): number {
  if (form === "single") return 1;
  if (form === "rsp") return entries ?? NIST_ENTRIES;
  return entries ?? NIST_ENTRIES;
}

/** The comparison plan of one instance (errors are reported per instance, never thrown). */
export function planExpectations(
  campaign: Campaign,
  algorithm: AlgorithmSpec,
  spec: InstanceSpec,
  used?: readonly string[],
): KatPlan | { error: string } {
  const config = campaign.config.algorithms.find((a) => a.id === algorithm.id) as
    | (AlgorithmConfig & { kat?: KatExpectationConfig | KatExpectationConfig[]; katRng?: KatRng })
    | undefined;
  const scheme = config && "pqclean" in config.source ? config.source.pqclean : undefined;
  const rng: KatRng = config?.katRng ?? (scheme ? pqcleanKatRng(scheme) : "nist");
  const where = `${relative(process.cwd(), campaign.file) || campaign.file}: algorithm ${algorithm.id}`;
  let expectations: Expectation[] = [];
  let manifest: KatPlan["manifest"];
  if (config?.kat) {
    const list = Array.isArray(config.kat) ? config.kat : [config.kat];
    expectations = list.map((k) => ({
      form: k.form,
      entries: entriesOf(k.form, k.entries),
      sha256: k.sha256.toLowerCase(),
      source: k.source ?? `${where} (kat)`,
    }));
  } else if (spec.kat?.file) {
    const path = join(spec.submissionDir, spec.kat.file);
    expectations = [{ form: "rsp", entries: NIST_ENTRIES, path, root: spec.submissionDir, source: spec.kat.file }];
    // Named on the page by its real path in the submission (kem-90/KAT/kat.sha256), as the record's KAT files are.
    const file = spec.kat.manifest ?? "KAT/kat.sha256";
    manifest = {
      path: join(spec.submissionDir, file),
      display: `${algorithm.id}/${file
        .split("\\")
        .join("/")
        .replace(/^(\.\/)+/, "")}`,
      ...(used ? { used: [...used] } : {}),
      root: spec.submissionDir,
    };
  } else if (scheme && PQCLEAN_NISTKAT_SHA256[scheme]) {
    expectations = [
      { form: "single", entries: 1, sha256: PQCLEAN_NISTKAT_SHA256[scheme] as string, source: PQCLEAN_SOURCE },
    ];
  } else {
    return {
      error: `${where}: no expected KAT for ${spec.instance} (no .rsp file in its meta.json, no kat: { sha256, form } in the campaign${scheme ? `, and PQClean's table has no ${scheme}` : ""})`,
    };
  }
  const entries = Math.max(...expectations.map((e) => e.entries));
  return { expectations, entries, rng, ...(manifest ? { manifest } : {}) };
}
