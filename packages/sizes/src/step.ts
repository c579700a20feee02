// The sizes step: for every algorithm of a campaign, the API figures of its instances (printparams), the
// lengths the KAT and timing steps recorded, the catalog, the audit, and one size-audit record at
// <out>/data/<system>/sizes/<algorithm-id>.json. A failing instance is recorded and the step goes on.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  type AlgorithmSpec,
  type Campaign,
  emptySummary,
  inShard,
  resolveAlgorithms,
  type StepOptions,
  type StepSummary,
  selected,
  sha256File,
  storePaths,
  TOOL,
  toolchain,
  writeJsonAtomic,
} from "@ngcc-perf/runner";
import { type SizeAuditRecord, validate } from "@ngcc-perf/schema";
import { ApiError, type ApiFigures, printparamsHash, profileDefines, readApiFigures } from "./api.ts";
import { auditAlgorithm, type Finding, type InstanceInput } from "./audit.ts";
import { type CatalogRow, readCatalog } from "./catalog.ts";
import { readMeasured } from "./measured.ts";

export interface SizesSummary extends StepSummary {
  /** Disagreements found, by kind. */
  findings: Record<Finding["kind"], number>;
}

/** Time limit for running printparams (it prints one line). */
const RUN_TIMEOUT_MS = 30_000;

/** Where the campaign's catalog is, or null when it names none. */
export function catalogPath(campaign: Campaign): string | null {
  const c = campaign.config.sizes?.catalog;
  return c ? resolve(campaign.dir, c) : null;
}

/** How a path is shown in a record: relative to the working folder when inside it, else absolute. */
function shownPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith("..") && !isAbsolute(r) ? r.split(sep).join("/") : p;
}

/** Every instance name an algorithm has, ignoring the campaign's instance selection (for unknown-row checks). */
function allInstanceNames(campaign: Campaign, alg: AlgorithmSpec): string[] {
  const cfg = campaign.config.algorithms.find((a) => a.id === alg.id);
  if (!cfg?.instances || "pqclean" in cfg.source) return alg.instances.map((s) => s.instance);
  const { instances: _selection, ...unfiltered } = cfg;
  const [full] = resolveAlgorithms({ ...campaign, config: { ...campaign.config, algorithms: [unfiltered] } });
  return full ? full.instances.map((s) => s.instance) : alg.instances.map((s) => s.instance);
}

function selectedAlgorithm(alg: AlgorithmSpec, only?: string[]): boolean {
  if (!only || only.length === 0) return true;
  return alg.instances.some((s) => selected(s, only));
}

function existingHash(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { inputsHash?: string }).inputsHash ?? null;
  } catch {
    return null;
  }
}

/**
 * Runs the sizes step. A size audit is one record per algorithm, so `only` picks the algorithms with at
 * least one matching instance and audits them whole; `shard` splits by algorithm. Throws InputError for a
 * bad catalog (before anything is written).
 */
export async function sizesCampaign(campaign: Campaign, options: StepOptions): Promise<SizesSummary> {
  const algorithms = resolveAlgorithms(campaign).filter(
    (a) => selectedAlgorithm(a, options.only) && inShard(`${a.id}/sizes`, options.shard),
  );
  const catalogFile = catalogPath(campaign);
  const catalog: CatalogRow[] | null = catalogFile ? readCatalog(catalogFile, shownPath(catalogFile)) : null;
  const catalogInfo = catalogFile ? { path: shownPath(catalogFile), sha256: sha256File(catalogFile) } : null;
  const paths = storePaths(options.out, campaign.system);
  const tc = await toolchain(campaign.cc);
  const progress = options.onProgress ?? (() => {});
  const summary: SizesSummary = {
    ...emptySummary(),
    findings: {
      "catalog-differs-from-api": 0,
      "measured-exceeds-api": 0,
      "catalog-row-missing": 0,
      "catalog-row-unknown-instance": 0,
    },
  };
  const total = algorithms.reduce((n, a) => n + a.instances.length, 0);
  progress({ type: "plan", step: "sizes", total });
  let done = 0;

  for (const alg of algorithms) {
    const recordPath = paths.sizes(alg.id);
    const known = allInstanceNames(campaign, alg);
    const profileOf = (spec: AlgorithmSpec["instances"][number]) => spec.buildProfiles[0] ?? campaign.defaultProfile;
    const extraOf = (spec: AlgorithmSpec["instances"][number]) => profileDefines(campaign.profiles[profileOf(spec)]);
    const measuredReads = alg.instances.map((s) => readMeasured(paths.dataDir, alg.id, s.instance, s.category));

    // Everything the record depends on: the catalog rows, the API inputs, the measured records.
    const inputsHash = createHash("sha256")
      .update(
        JSON.stringify({
          tool: TOOL.version,
          catalog: catalogInfo,
          known,
          api: alg.instances.map((s) => printparamsHash(s, tc, extraOf(s))),
          measured: measuredReads.flatMap((m) => m.files.map((f) => [f, sha256File(f)])),
        }),
      )
      .digest("hex");
    if (options.resume && existingHash(recordPath) === inputsHash) {
      for (const s of alg.instances) {
        done++;
        summary.skipped++;
        progress({
          type: "job",
          step: "sizes",
          algorithmId: alg.id,
          instance: s.instance,
          profile: profileOf(s),
          operation: "sizes",
          status: "skipped",
          done,
          total,
        });
      }
      continue;
    }

    const inputs: InstanceInput[] = [];
    for (const [i, spec] of alg.instances.entries()) {
      const measured = measuredReads[i]?.measured ?? {};
      let api: ApiFigures | null = null;
      let message: string | undefined;
      try {
        const read = await readApiFigures(spec, tc, join(paths.buildDir, alg.id), {
          buildTimeoutMs: campaign.timeouts.buildMs,
          runTimeoutMs: Math.min(RUN_TIMEOUT_MS, campaign.timeouts.operationMs),
          extraDefines: extraOf(spec),
        });
        progress({
          type: "build",
          step: "sizes",
          algorithmId: alg.id,
          instance: spec.instance,
          profile: profileOf(spec),
          cached: read.cached,
        });
        api = read.figures;
        inputs.push({ instance: spec.instance, api, commands: read.commands, measured });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        message = err.message;
        inputs.push({
          instance: spec.instance,
          api: null,
          failure: { reason: err.reason, message: err.message },
          commands: err.commands,
          measured,
        });
        summary.failed++;
        summary.failures.push({ algorithmId: alg.id, instance: spec.instance, reason: err.reason, message });
      }
      done++;
      progress({
        type: "job",
        step: "sizes",
        algorithmId: alg.id,
        instance: spec.instance,
        profile: profileOf(spec),
        operation: "sizes",
        status: api ? "ok" : "failed",
        done,
        total,
        ...(message ? { message } : {}),
      });
    }

    const audit = auditAlgorithm({
      algorithmId: alg.id,
      category: alg.category,
      instances: inputs,
      knownInstances: known,
      catalog,
    });
    for (const f of audit.findings) {
      summary.findings[f.kind]++;
      if (f.kind === "measured-exceeds-api") {
        // An output longer than the API allows is an implementation bug that measurement found.
        summary.failed++;
        summary.failures.push({
          algorithmId: alg.id,
          instance: f.instance,
          reason: "measured-exceeds-api",
          message: `${alg.id}/${f.instance}: ${f.note ?? f.field}`,
        });
      }
    }
    const record: SizeAuditRecord = {
      kind: "size-audit",
      schemaVersion: 1,
      provenance: { origin: "measured", tool: TOOL, createdAt: new Date().toISOString() },
      system: campaign.system,
      algorithmId: alg.id,
      category: alg.category,
      inputsHash,
      ...(catalogInfo ? { catalog: catalogInfo } : {}),
      instances: audit.instances,
      findings: audit.findings,
      ...(audit.notes.length > 0 ? { notes: audit.notes } : {}),
    };
    const v = validate("size-audit", record);
    if (!v.valid) {
      throw new Error(
        `size-audit record for ${alg.id} does not match its schema: ${v.errors.map((e) => `${e.pointer} ${e.message}`).join("; ")}`,
      );
    }
    writeJsonAtomic(recordPath, record);
    summary.records++;
  }
  return summary;
}
