// The sizes step: for every algorithm × build profile of a campaign, the API figures of its instances
// (printparams under the profile's defines), the lengths the KAT and timing steps recorded under that profile,
// the catalog, the audit, and one size-audit record at <out>/data/<system>/sizes/<algorithm>/<profile>.json.
// Run by the runner's runStep: one unit per algorithm × profile with one job (its record), planned with its
// inputs hash before the first job runs. A failing instance is recorded in the audit and the step goes on.
import { resolve } from "node:path";
import {
  type AlgorithmSpec,
  type BuildProfile,
  type Campaign,
  type Failure,
  type InstanceSpec,
  instanceNames,
  type Job,
  type PipelineStep,
  type ResolvedCampaign,
  runStep,
  type StepDefinition,
  type StepOptions,
  type StepSummary,
  sha256,
  sha256File,
  type Toolchain,
  toolchain,
  type Unit,
} from "@ngcc-perf/runner";
import { type AlgorithmKey, buildPath, type SizeAuditRecord, TOOL, validate } from "@ngcc-perf/schema";
import { ApiError, printparamsHash, profileDefines, readApiFigures, shownPath } from "./api.ts";
import { auditAlgorithm, DISAGREEMENT_KINDS, type Finding, type InstanceInput } from "./audit.ts";
import { type CatalogRow, readCatalog } from "./catalog.ts";
import { type MeasuredRead, readMeasured } from "./measured.ts";

export type FindingCounts = Record<Finding["kind"], number>;

export interface SizesSummary extends StepSummary {
  /** Disagreements found in the audits written by this run, by kind. */
  findings: FindingCounts;
  /** The findings as a line for the user (when an audit was written). */
  notes: string[];
}

/** Time limit for running printparams (it prints one line). */
const RUN_TIMEOUT_MS = 30_000;

/** Where the campaign's catalog is, or null when it names none. */
export function catalogPath(campaign: Campaign): string | null {
  const c = campaign.config.sizes?.catalog;
  return c ? resolve(campaign.dir, c) : null;
}

/** The campaign's catalog, read and checked (InputError before anything is written), with what records show. */
export interface LoadedCatalog {
  rows: CatalogRow[] | null;
  info: { path: string; sha256: string } | null;
}

export function loadCatalog(campaign: Campaign): LoadedCatalog {
  const file = catalogPath(campaign);
  if (!file) return { rows: null, info: null };
  return { rows: readCatalog(file, shownPath(file)), info: { path: shownPath(file), sha256: sha256File(file) } };
}

/** Every instance name an algorithm has, ignoring the campaign's instance selection (for unknown-row checks). */
function allInstanceNames(campaign: Campaign, alg: AlgorithmSpec): string[] {
  const cfg = campaign.config.algorithms.find((a) => a.id === alg.id);
  if (!cfg?.instances || "pqclean" in cfg.source) return alg.instances.map((s) => s.instance);
  return alg.allInstances().map((s) => s.instance);
}

/** The build profiles an algorithm's instances are measured under, in campaign order. */
function profilesOf(alg: AlgorithmSpec): BuildProfile[] {
  return [...new Set(alg.instances.flatMap((s) => s.profiles))];
}

/** What a unit (an algorithm under a build profile) carries from plan to run. */
export interface SizesWork {
  category: AlgorithmSpec["category"];
  /** The instances measured under the profile, in page order. */
  specs: InstanceSpec[];
  /** The profile's -D/-U flags, which may change what api.h defines. */
  extraDefines: string[];
  knownInstances: string[];
  /** The KAT and timing lengths of each instance under the profile, read at plan time (and hashed). */
  measured: MeasuredRead[];
}

/** Plans the unit of an algorithm under a profile: its one job, with the hash of everything the record depends on. */
function sizesUnit(
  campaign: Campaign,
  tc: Toolchain,
  out: string,
  catalog: LoadedCatalog,
  alg: AlgorithmSpec,
  knownInstances: string[],
  profile: BuildProfile,
): Unit<SizesWork> {
  const key: AlgorithmKey = { system: campaign.system, algorithmId: alg.id, buildProfile: profile.name };
  const specs = alg.instances.filter((s) => s.profiles.includes(profile));
  const extraDefines = profileDefines(profile);
  const measured = specs.map((s) => readMeasured(out, { ...key, instance: s.instance }, s.category));
  const inputsHash = sha256(
    JSON.stringify({
      tool: TOOL.version,
      catalog: catalog.info,
      known: knownInstances,
      api: specs.map((s) => printparamsHash(s, tc, extraDefines)),
      measured: measured.flatMap((m) => m.files),
    }),
  );
  return {
    key,
    profile,
    names: [...new Set(specs.flatMap((s) => instanceNames(alg.id, s.instance)))],
    jobs: [{ operation: "sizes", entry: { kind: "size-audit", key }, inputsHash }],
    work: { category: alg.category, specs, extraDefines, knownInstances, measured },
  };
}

/** Every unit of the campaign: an algorithm × each build profile its instances are measured under. */
export function sizesUnits(campaign: ResolvedCampaign, tc: Toolchain, out: string, catalog: LoadedCatalog) {
  return campaign.algorithms.flatMap((alg) => {
    const known = allInstanceNames(campaign, alg);
    return profilesOf(alg).map((p) => sizesUnit(campaign, tc, out, catalog, alg, known, p));
  });
}

/** The API figures of one instance as the audit takes them; an api.h that cannot be read is the instance's failure. */
async function instanceInput(
  campaign: Campaign,
  tc: Toolchain,
  buildRoot: string,
  spec: InstanceSpec,
  work: SizesWork,
  index: number,
  buildDir: string,
): Promise<InstanceInput> {
  const measured = work.measured[index]?.measured ?? {};
  try {
    const read = await readApiFigures(spec, tc, buildRoot, {
      buildTimeoutMs: campaign.timeouts.buildMs,
      runTimeoutMs: Math.min(RUN_TIMEOUT_MS, campaign.timeouts.operationMs),
      extraDefines: work.extraDefines,
      buildDir,
      iccsDir: campaign.iccsDir,
    });
    return { instance: spec.instance, api: read.figures, commands: read.commands, measured };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const failure = { reason: err.reason, message: err.message };
    return { instance: spec.instance, api: null, failure, commands: err.commands, measured };
  }
}

function baseRecord(campaign: Campaign, unit: Unit<SizesWork>, job: Job, catalog: LoadedCatalog) {
  return {
    kind: "size-audit" as const,
    schemaVersion: 1 as const,
    provenance: { origin: "measured" as const, tool: TOOL, createdAt: new Date().toISOString() },
    system: campaign.system,
    algorithmId: unit.key.algorithmId,
    buildProfile: unit.key.buildProfile,
    category: unit.work.category,
    ...(job.inputsHash ? { inputsHash: job.inputsHash } : {}),
    ...(catalog.info ? { catalog: catalog.info } : {}),
  };
}

function checked(record: SizeAuditRecord): SizeAuditRecord {
  const v = validate("size-audit", record);
  if (!v.valid) {
    throw new Error(
      `size-audit record for ${record.algorithmId} does not match its schema: ${v.errors.map((e) => `${e.pointer} ${e.message}`).join("; ")}`,
    );
  }
  return record;
}

/**
 * Whether an audit reports a failure: an instance whose api.h could not be read, or a measured length over
 * the API's (an implementation bug that measurement found). Catalog disagreements are findings, not failures.
 */
export function auditOutcome(record: unknown): { reason: string; message: string } | null {
  const r = record as SizeAuditRecord;
  const failed = (r.instances ?? []).filter((i) => i.failure);
  const exceeds = (r.findings ?? []).filter((f) => f.kind === "measured-exceeds-api");
  const first = failed[0]?.failure?.reason ?? (exceeds.length > 0 ? "measured-exceeds-api" : null);
  if (first === null) return null;
  const lines = [
    ...failed.map((i) => {
      const what = `${r.algorithmId}/${i.instance}: `;
      const first = (i.failure?.message ?? "").split("\n")[0] ?? "";
      return `${what}${first.startsWith(what) ? first.slice(what.length) : first}`;
    }),
    ...exceeds.map((f) => `${r.algorithmId}/${f.instance}: ${f.note ?? `measured ${f.field} exceeds the API's`}`),
  ];
  return { reason: first, message: lines.join("\n") };
}

const FAILURE_REASONS = new Set(["compile-error", "crash", "timeout", "error"]);

/** The step definition: plan the units, run one audit per unit, count its findings into `findings`. */
export function defineSizes(
  campaign: ResolvedCampaign,
  tc: Toolchain,
  catalog: LoadedCatalog,
  out: string,
  findings: FindingCounts,
): StepDefinition<SizesWork> {
  return {
    name: "sizes",
    plan: () => sizesUnits(campaign, tc, out, catalog),
    outcomeOf: auditOutcome,
    // Same inputs and nothing failed: an audit that failed is redone, as every step's failed records are.
    isCurrent: (record, job) =>
      (record as SizeAuditRecord | null)?.kind === "size-audit" &&
      (record as SizeAuditRecord).inputsHash === job.inputsHash &&
      auditOutcome(record) === null,
    failureRecord: (unit: Unit<SizesWork>, job: Job, f: Failure): SizeAuditRecord => ({
      ...baseRecord(campaign, unit, job, catalog),
      instances: unit.work.specs.map((s) => ({
        instance: s.instance,
        failure: { reason: (FAILURE_REASONS.has(f.reason) ? f.reason : "error") as "error", message: f.message },
      })),
      findings: [],
    }),
    run: async (unit, [job], ctx) => {
      if (!job) return;
      const buildRoot = buildPath(out, unit.key);
      const inputs: InstanceInput[] = [];
      for (const [i, spec] of unit.work.specs.entries()) {
        inputs.push(await instanceInput(campaign, tc, buildRoot, spec, unit.work, i, resolve(out, "build")));
      }
      const audit = auditAlgorithm({
        algorithmId: unit.key.algorithmId,
        category: unit.work.category,
        instances: inputs,
        knownInstances: unit.work.knownInstances,
        catalog: catalog.rows,
      });
      for (const f of audit.findings) findings[f.kind]++;
      ctx.write(
        job,
        checked({
          ...baseRecord(campaign, unit, job, catalog),
          instances: audit.instances,
          findings: audit.findings,
          ...(audit.notes.length > 0 ? { notes: audit.notes } : {}),
        }),
      );
    },
  };
}

function emptyFindings(): FindingCounts {
  return {
    "catalog-differs-from-api": 0,
    "measured-exceeds-api": 0,
    "catalog-row-missing": 0,
    "catalog-row-unknown-instance": 0,
  };
}

/**
 * The findings line of a run, when it wrote an audit: the disagreements by kind, then apart the instances not in
 * the catalog and the rows naming no instance (neither is a disagreement).
 */
function findingNotes(summary: StepSummary, findings: FindingCounts): string[] {
  if (summary.records + summary.failed === 0) return [];
  const found = DISAGREEMENT_KINDS.filter((k) => findings[k] > 0).map((k) => `${findings[k]} ${k}`);
  const missing = findings["catalog-row-missing"];
  const unknown = findings["catalog-row-unknown-instance"];
  return [
    `findings: ${found.length > 0 ? found.join(", ") : "none"}${missing ? `; not in the catalog: ${missing} instance${missing === 1 ? "" : "s"}` : ""}${unknown ? `; catalog rows naming no instance: ${unknown}` : ""}`,
  ];
}

/**
 * Runs the sizes step. A size audit is one record per algorithm and build profile, so `only` picks the
 * algorithms with at least one matching instance and audits them whole; `shard` splits by algorithm × profile.
 * Throws InputError for a bad catalog (before anything is written).
 */
export async function sizesCampaign(campaign: ResolvedCampaign, options: StepOptions): Promise<SizesSummary> {
  const catalog = loadCatalog(campaign);
  const tc = await toolchain(campaign.context);
  const findings = emptyFindings();
  const summary = await runStep(defineSizes(campaign, tc, catalog, options.out, findings), options);
  return { ...summary, findings, notes: findingNotes(summary, findings) };
}

/** The sizes step as the pipeline runs it. */
export const sizesStep: PipelineStep = {
  name: "sizes",
  prepare: (campaign) => {
    loadCatalog(campaign);
  },
  run: (campaign, options) => sizesCampaign(campaign, options),
};
