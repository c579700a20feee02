// Builds the records of a seed store from parsed seed pages. The pages publish aggregates only; raw trials are
// synthesized so that recomputing the aggregates (the runner's `aggregate`) and formatting them (the report's
// formatting, format.ts) gives back the seed's strings exactly. Every record says so in its provenance (origin
// "synthesized"). Store paths come from the schema's layout module.

import { aggregate, type Trial } from "@ngcc-perf/runner";
import { parseHarnessRecordPath, relativeRecordPath, SCHEMA_VERSION, type StoreEntry } from "@ngcc-perf/schema";
import {
  cyclesInterval,
  formatCycles,
  formatN,
  formatOpsPerSecond,
  formatShare,
  formatTime,
  type Interval,
  intersect,
  midpoint,
  opsInterval,
  parseCalls,
  parseKiB,
  parseN,
  shareInterval,
  timeInterval,
} from "./format.ts";
import type { AlgorithmCategory, SeedPage } from "./parse-seeds.ts";
import { notesOf, operationsOf, profiledOperationsOf, sectionByName, surveyVerdictOf, tableOf } from "./parse-seeds.ts";
import { type IndexedFile, type JsonRecord, type StoreFile, storeFile } from "./store-files.ts";

/** The tool named in every seed record's provenance (not ngcc-perf itself: nothing here was measured). */
export const SEED_TOOL = {
  name: "@ngcc-perf/seed-store (packages/seed-store/src/make-seed-store.ts)",
  version: "1.0.0",
};
/** Relative spread of the synthesized trial means around the median when the seed forces nothing wider. */
export const BASE_SPREAD = 0.004;
export const BUILD_PROFILE = "guide";

/** A problem with a seed figure: no value is consistent with everything the page prints. */
export interface SeedProblem {
  algorithmId: string;
  instance?: string;
  operation?: string;
  message: string;
}

export interface Provenance {
  origin: "synthesized";
  tool: { name: string; version: string };
  createdAt: string;
  source: string;
  note: string;
}

export interface SynthesisResult {
  files: StoreFile[];
  problems: SeedProblem[];
  /** Findings that are not inconsistencies but worth knowing (e.g. rows whose trials come out unstable). */
  remarks: string[];
}

/** createdAt of every record: the seed campaign's end, so that regenerating the store is byte-stable. */
export function createdAtOf(page: SeedPage): string {
  const end = campaignOf(page).end;
  return end ?? "1970-01-01T00:00:00Z";
}

function campaignOf(page: SeedPage): { start: string; end: string | null } {
  const row = tableOf(page, "Assessment environment").rows.find((r) => r[0] === "campaign start / end (UTC)");
  const m = /^(\S+) \/ (\S+)$/.exec(row?.[1] ?? "");
  if (!m || m[1] === undefined || m[2] === undefined) throw new Error("no campaign start / end row");
  return { start: `${m[1]}Z`, end: `${m[2]}Z` };
}

function provenance(page: SeedPage, file: string, note: string): Provenance {
  return { origin: "synthesized", tool: SEED_TOOL, createdAt: createdAtOf(page), source: `seed page ${file}`, note };
}

// ---------------------------------------------------------------------------------------------------------------
// Environment and counter (section 2)

export function counterOf(page: SeedPage): JsonRecord {
  const clock = envValue(page, "clock");
  const ghz = /fixed ([\d.]+) GHz/.exec(clock);
  const rate = ghz?.[1] !== undefined ? Number(ghz[1]) * 1e9 : null;
  return {
    kind: "fixed-clock",
    unit: "core-cycles",
    rateHz: rate,
    overhead: null,
    description:
      "Seed pages of the earlier harness: mean cycles at a fixed clock. The published cycle figures are not exactly " +
      "mean time × clock (they differ by up to ±3%), so the synthesized counter deltas reproduce the published mean " +
      "cycles, not ns × rateHz. The counter overhead was not published (null).",
  };
}

function envValue(page: SeedPage, item: string): string {
  const row = tableOf(page, "Assessment environment").rows.find((r) => r[0] === item);
  if (row?.[1] === undefined) throw new Error(`no environment item ${item}`);
  return row[1];
}

export function environmentRecord(page: SeedPage, file: string): JsonRecord {
  const proc = /^(.+) \(CPU (\d+), one core\)$/.exec(envValue(page, "processor"));
  if (!proc || proc[1] === undefined || proc[2] === undefined)
    throw new Error(`unexpected processor: ${envValue(page, "processor")}`);
  const clock = /^fixed ([\d.]+) GHz \(governor (\S+), minimum = maximum\), boost (on|off|unknown), SMT (\S+)$/.exec(
    envValue(page, "clock"),
  );
  if (!clock || clock[1] === undefined) throw new Error(`unexpected clock: ${envValue(page, "clock")}`);
  const hz = Number(clock[1]) * 1e9;
  const mem = /^(\d+) MiB$/.exec(envValue(page, "memory"));
  const os = /^(.+) \/ (\S+)$/.exec(envValue(page, "OS / kernel"));
  const tool = /^(.+) \/ (cmake version .+)$/.exec(envValue(page, "compiler / build tool"));
  if (!mem || !os || os[1] === undefined || os[2] === undefined || !tool || tool[1] === undefined)
    throw new Error("unexpected environment rows");
  const pinned = Number(proc[2]);
  return {
    kind: "environment",
    schemaVersion: SCHEMA_VERSION,
    provenance: provenance(
      page,
      file,
      "Transcribed from section 2 of the seed pages (identical on all five). logicalCpus is not published (null).",
    ),
    system: page.header.system,
    processor: { model: proc[1], architecture: archOf(page.title.arch), logicalCpus: null, pinnedCpu: pinned },
    machine: envValue(page, "machine"),
    clock: {
      fixedFrequencyHz: hz,
      governor: clock[2],
      minFrequencyHz: hz,
      maxFrequencyHz: hz,
      boost: clock[3],
      smt: clock[4],
    },
    memory: { totalMiB: Number(mem[1]) },
    os: { name: os[1], kernel: os[2] },
    toolchain: { compiler: tool[1], buildTool: tool[2] },
    counter: counterOf(page),
    campaign: campaignOf(page),
  };
}

function archOf(printed: string): string {
  if (printed === "AArch64") return "aarch64";
  if (printed === "x86-64" || printed === "x86_64") return "x86_64";
  return printed.toLowerCase();
}

// ---------------------------------------------------------------------------------------------------------------
// Timing + memory (sections 4 and 5)

export interface TimingCells {
  cycles: string;
  time: string;
  ops: string;
  median: string;
  n: string;
}

/**
 * Raw trials whose aggregates print as the given cells. The mean is the midpoint of the values that both the
 * mean-time and the ops/s cells admit; the median trial is the midpoint of its cell; the other trials sit
 * BASE_SPREAD around the median, the two on the side of the mean carrying the mean's offset. Trial times are whole
 * nanoseconds, counter deltas whole cycles (proportional to the trial times, summing to the published mean).
 */
export function synthesizeTrials(cells: TimingCells): { trials: Trial[]; problems: string[] } {
  const problems: string[] = [];
  const { trials: k, iterationsPerTrial: iters } = parseN(cells.n);
  const meanI = timeInterval(cells.time);
  const opsI = opsInterval(cells.ops);
  const fromOps: Interval = { low: 1e9 / opsI.high, high: 1e9 / opsI.low };
  const both = intersect(meanI, fromOps);
  if (both === null)
    problems.push(
      `mean time ${cells.time} and ops/s ${cells.ops} admit no common mean: [${meanI.low}, ${meanI.high}) ns vs (${fromOps.low}, ${fromOps.high}] ns`,
    );
  const mean = midpoint(both ?? meanI);
  const med = midpoint(timeInterval(cells.median));
  if (k !== 5) problems.push(`${k} trials; the synthesis assumes 5`);

  const d = BASE_SPREAD * med;
  const e = (k * (mean - med)) / 2; // the mean's offset, carried by two trials
  // Sum = 5·med + 2e = 5·mean; the median stays the middle value on either side.
  const sorted =
    e >= 0
      ? [med - d, med - d / 2, med, med + d / 2 + e, med + d + e]
      : [med - d + e, med - d / 2 + e, med, med + d / 2, med + d];
  // Run order: not sorted, as real trials would not be.
  const order = [2, 0, 4, 1, 3];
  const perOp = order.map((i) => sorted[i] ?? Number.NaN);
  const ns = perOp.map((t) => Math.round(t * iters));

  const cyc = cyclesInterval(cells.cycles);
  const total = Math.round(midpoint(cyc) * k * iters);
  const nsSum = ns.reduce((s, v) => s + v, 0);
  const deltas = ns.map((v) => Math.round((total * v) / nsSum));
  const last = deltas.length - 1;
  deltas[last] = total - deltas.slice(0, last).reduce((s, v) => s + v, 0);

  const trials: Trial[] = ns.map((v, i) => ({ iterations: iters, counterDelta: deltas[i] ?? 0, ns: v }));
  problems.push(...checkTrials(trials, cells));
  return { trials, problems };
}

/** Differences between the seed's cells and the cells printed from aggregates recomputed from `trials`. */
export function checkTrials(trials: readonly Trial[], cells: TimingCells): string[] {
  const a = aggregate(trials);
  const got: TimingCells = {
    cycles: formatCycles(a.meanCounter),
    time: formatTime(a.meanNs),
    ops: formatOpsPerSecond(a.opsPerSecond),
    median: formatTime(a.medianTrialNs),
    n: formatN(a.trials, a.iterationsPerTrial),
  };
  return (Object.keys(cells) as Array<keyof TimingCells>)
    .filter((key) => got[key] !== cells[key])
    .map((key) => `${key}: synthesized trials print ${got[key]}, the seed ${cells[key]}`);
}

function timingRecord(
  page: SeedPage,
  file: string,
  instance: string,
  operation: string,
  trials: Trial[],
  memory: { elfImageBytes: number; baselineRssKiB: number; peakRssKiB: number },
): JsonRecord {
  return {
    kind: "timing",
    schemaVersion: SCHEMA_VERSION,
    provenance: provenance(
      page,
      file,
      "Raw trials synthesized to be consistent with the published aggregates (sections 4 and 5); not a measurement.",
    ),
    ...measurementHead(page, instance, operation),
    status: "ok",
    counter: counterOf(page),
    trials,
    aggregates: aggregate(trials),
    memory,
  };
}

/** The identifying fields of a timing or profile record, in the order the records print them. */
function measurementHead(page: SeedPage, instance: string, operation: string): JsonRecord {
  return {
    system: page.header.system,
    algorithmId: page.header.algorithmId,
    instance,
    implementation: implementationOf(page),
    buildProfile: BUILD_PROFILE,
    operation,
  };
}

function implementationOf(page: SeedPage): string {
  const impl = page.basic.implementations;
  if (impl.length !== 1 || impl[0] === undefined)
    throw new Error(`${page.header.algorithmId}: ${impl.length} implementations; the seed store expects one`);
  return impl[0];
}

// ---------------------------------------------------------------------------------------------------------------
// Hash/DRNG profile (Symmetric primitives)

export const GROUPS = {
  hash: { name: "hash", label: "pseudohash/XOF/sm3", symbols: ["pseudohash", "pseudoXOF", "sm3hash"] },
  drng: { name: "drng", label: "DRNG", symbols: ["randombytes"] },
} as const;

/** Symbol and group of a label printed in the calls column. */
export function symbolOfLabel(label: string): { symbol: string; group: "hash" | "drng" } {
  if (label === "drng") return { symbol: "randombytes", group: "drng" };
  if ((GROUPS.hash.symbols as readonly string[]).includes(label)) return { symbol: label, group: "hash" };
  throw new Error(`unknown calls label ${label}`);
}

/** A share consistent with its printed form: the midpoint of its interval, or 0 when the group made no calls. */
export function synthesizeShare(printed: string, groupHasCalls: boolean): { share: number; problem: string | null } {
  const i = shareInterval(printed);
  if (!groupHasCalls) return { share: 0, problem: i.low === 0 ? null : `share ${printed} for a group without calls` };
  // The midpoint of a printed share's interval is the printed value itself (except for 0.0%); keep it tidy in JSON.
  const share = Number.parseFloat(midpoint(i).toPrecision(12));
  return { share, problem: formatShare(share) === printed ? null : `share ${printed} not reproduced` };
}

function profileRecord(page: SeedPage, file: string, row: string[], problems: SeedProblem[]): JsonRecord {
  const [instance = "", operation = "", hashCell = "", drngCell = "", callsCell = ""] = row;
  const calls = parseCalls(callsCell).map((c) => ({ ...symbolOfLabel(c.label), label: c.label, mean: c.mean }));
  const shareFor = (group: "hash" | "drng", printed: string): number => {
    const { share, problem } = synthesizeShare(
      printed,
      calls.some((c) => c.group === group),
    );
    if (problem) problems.push({ algorithmId: page.header.algorithmId, instance, operation, message: problem });
    return share;
  };
  const hash = shareFor("hash", hashCell);
  const drng = shareFor("drng", drngCell);
  if (hash + drng > 1)
    problems.push({ algorithmId: page.header.algorithmId, instance, operation, message: "shares exceed 100%" });
  return {
    kind: "hash-profile",
    schemaVersion: SCHEMA_VERSION,
    provenance: provenance(
      page,
      file,
      "Shares are the midpoints of the published (rounded) percentages, 0 for a group without calls; " +
        "call counts as published. Symbol lists of the groups are assumed from the column label.",
    ),
    ...measurementHead(page, instance, operation),
    status: "ok",
    groups: [
      { name: GROUPS.hash.name, label: GROUPS.hash.label, symbols: [...GROUPS.hash.symbols], share: hash },
      { name: GROUPS.drng.name, label: GROUPS.drng.label, symbols: [...GROUPS.drng.symbols], share: drng },
    ],
    calls: calls.map((c) => ({ symbol: c.symbol, group: c.group, label: c.label, meanPerOperation: c.mean })),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// KAT (sections 3 and 7), sizes (section 6), survey

export function katManifestOf(page: SeedPage): string {
  const note = notesOf(sectionByName(page, "Functional testing (KAT)")).find((n) => n.includes("kat.sha256"));
  const m = /SHA-256 manifest (\S+) in the harness/.exec(note ?? "");
  if (!m || m[1] === undefined) throw new Error(`${page.header.algorithmId}: no KAT manifest sentence`);
  return m[1];
}

export function evidenceRootOf(page: SeedPage): string {
  const note = notesOf(sectionByName(page, "Raw evidence index")).find((n) => n.startsWith("Paths are relative to "));
  const m = /^Paths are relative to (\S+) in the harness/.exec(note ?? "");
  if (!m || m[1] === undefined) throw new Error(`${page.header.algorithmId}: no evidence-root sentence`);
  return m[1];
}

function katRecords(page: SeedPage, file: string): StoreFile[] {
  const alg = page.header.algorithmId;
  const evidence = tableOf(page, "Raw evidence index").rows;
  return tableOf(page, "Functional testing (KAT)").rows.map(([instance = "", flags = "", verdict = ""]) => {
    const log = evidence.find((r) => r[0] === instance && (r[1] ?? "").startsWith("KAT log"));
    const prefix = /\(sha256 ([0-9a-f]+)…\)/.exec(log?.[1] ?? "")?.[1];
    if (!log || prefix === undefined || log[2] === undefined) throw new Error(`${alg}/${instance}: no KAT log row`);
    if (flags !== BUILD_PROFILE) throw new Error(`${alg}/${instance}: build flags ${flags}`);
    const key = { system: page.header.system, algorithmId: alg, instance, buildProfile: flags };
    return storeFile(
      { kind: "kat", key },
      {
        kind: "kat",
        schemaVersion: SCHEMA_VERSION,
        provenance: provenance(
          page,
          file,
          "Verdict and log reference transcribed from sections 3 and 7. The seed publishes only a 16-hex-digit " +
            "prefix of the log's SHA-256 (log.sha256Prefix); the log itself is not part of this store. Manifest " +
            "status ok is inferred from the page's statement that the manifest was checked before timing.",
        ),
        system: page.header.system,
        algorithmId: alg,
        instance,
        implementation: implementationOf(page),
        buildProfile: flags,
        verdict,
        log: { path: relativeRecordPath({ kind: "kat-log", key }), sha256Prefix: prefix },
        manifest: { path: katManifestOf(page), status: "ok" },
      },
    );
  });
}

function int(cell: string | undefined, what: string): number {
  if (cell === undefined || !/^\d+$/.test(cell)) throw new Error(`${what}: not a byte count: ${cell}`);
  return Number(cell);
}

/** The sizes-table entry of a KEX instance: passes, messages and keys, checked against each other (to `problems`). */
function kexSizeInstance(
  alg: string,
  instance: string,
  r: readonly string[],
  col: (name: string) => number,
  problems: SeedProblem[],
): JsonRecord {
  const w = `${alg}/${instance}`;
  const messages = (r[col("messages (bytes; raw API)")] ?? "").split(" + ").map((c) => int(c, w));
  const pk = /^(\d+) \/ (\d+)$/.exec(r[col("public key A / B")] ?? "");
  if (!pk) throw new Error(`${w}: bad public key A / B`);
  const kex = {
    passes: int(r[col("passes")], w),
    messageBytes: messages,
    protocolMessageBytes: int(r[col("protocol-message bytes")], w),
    publicKeyABytes: Number(pk[1]),
    publicKeyBBytes: Number(pk[2]),
    bandwidthBytes: int(r[col("bandwidth (bytes)")], w),
    longTermSecretKeyBytes: int(r[col("long-term sk (API cap)")], w),
    sharedSecretBytes: int(r[col("shared secret")], w),
  };
  const sum = messages.reduce((s, v) => s + v, 0);
  if (sum !== kex.protocolMessageBytes)
    problems.push({
      algorithmId: alg,
      instance,
      message: `messages sum to ${sum}, not ${kex.protocolMessageBytes}`,
    });
  if (kex.protocolMessageBytes + kex.publicKeyABytes + kex.publicKeyBBytes !== kex.bandwidthBytes)
    problems.push({ algorithmId: alg, instance, message: "bandwidth ≠ protocol messages + public keys" });
  if (messages.length !== kex.passes)
    problems.push({ algorithmId: alg, instance, message: `${messages.length} messages for ${kex.passes} passes` });
  return {
    instance,
    api: { secretKeyBytes: kex.longTermSecretKeyBytes, sharedSecretBytes: kex.sharedSecretBytes },
    kex,
  };
}

/** The sizes-table entry of a KEM or signature instance: the table's figures, split into API and catalog ones. */
function keySizeInstance(
  kind: AlgorithmCategory,
  w: string,
  instance: string,
  r: readonly string[],
  col: (name: string) => number,
): JsonRecord {
  const table: Record<string, number> = {
    publicKeyBytes: int(r[col("public key")], w),
    secretKeyBytes: int(r[col("secret key")], w),
  };
  if (kind === "kem") {
    table.ciphertextBytes = int(r[col("ciphertext")], w);
    table.sharedSecretBytes = int(r[col("shared secret")], w);
  } else {
    table.signatureBytes = int(r[col("signature")], w);
  }
  const api: Record<string, number> = { secretKeyBytes: table.secretKeyBytes ?? 0 };
  if (table.sharedSecretBytes !== undefined) api.sharedSecretBytes = table.sharedSecretBytes;
  return {
    instance,
    api,
    catalog: {
      publicKeyBytes: table.publicKeyBytes ?? null,
      ciphertextBytes: table.ciphertextBytes ?? null,
      signatureBytes: table.signatureBytes ?? null,
    },
    table,
  };
}

/** The size-audit record of a page: section 6 transcribed instance by instance (its sums checked to `problems`). */
function sizeAuditRecord(page: SeedPage, file: string, problems: SeedProblem[]): JsonRecord {
  const alg = page.header.algorithmId;
  const kind: AlgorithmCategory = page.basic.kind;
  const section = sectionByName(page, "Transmission and storage overhead");
  const t = tableOf(page, "Transmission and storage overhead");
  const col = (name: string): number => {
    const i = t.headers.indexOf(name);
    if (i < 0) throw new Error(`${alg}: no column ${name}`);
    return i;
  };
  const instances = t.rows.map((r) => {
    const instance = r[0] ?? "";
    return kind === "kex"
      ? kexSizeInstance(alg, instance, r, col, problems)
      : keySizeInstance(kind, `${alg}/${instance}`, instance, r, col);
  });
  const notes = notesOf(section);
  const record: JsonRecord = {
    kind: "size-audit",
    schemaVersion: SCHEMA_VERSION,
    provenance: provenance(
      page,
      file,
      kind === "kex"
        ? "Transcribed from the section-6 bandwidth table. Only the algorithm-specific note is kept in notes; the " +
            "bandwidth explanation is the KEX page template's."
        : "Transcribed from section 6: public key and ciphertext are the catalog's figures, secret key and shared " +
            "secret the API's. API public-key/ciphertext figures and the catalog's source column are not published. " +
            "No disagreements are published, so findings is empty.",
    ),
    system: page.header.system,
    algorithmId: alg,
    buildProfile: BUILD_PROFILE,
    category: kind,
    instances,
    findings: [],
  };
  if (kind !== "kex") {
    const m = /follow the curated (\S+) catalog/.exec(notes.join(" "));
    if (m?.[1] !== undefined) record.catalog = { path: m[1] };
  } else {
    record.notes = notes.filter((n) => !n.startsWith("Bandwidth counts all specified protocol messages"));
  }
  return record;
}

function surveyRecord(page: SeedPage, file: string): JsonRecord {
  const { verdict, detail } = surveyVerdictOf(page);
  if (!["ICCS-only", "mixed", "bypass"].includes(verdict))
    throw new Error(`${page.header.algorithmId}: unknown survey verdict ${verdict}`);
  const record: JsonRecord = {
    kind: "survey",
    schemaVersion: SCHEMA_VERSION,
    provenance: provenance(
      page,
      file,
      "Verdict and wording transcribed from the page's survey line; the automatic survey was not published.",
    ),
    algorithmId: page.header.algorithmId,
    buildProfile: BUILD_PROFILE,
    verdict,
    system: page.header.system,
    curated: detail === null ? { verdict } : { verdict, text: detail },
  };
  if (detail !== null) record.text = detail;
  return record;
}

// ---------------------------------------------------------------------------------------------------------------

/** Every record of one seed page (the environment and the index are made once per store, see below). */
export function synthesizePage(page: SeedPage, file: string): SynthesisResult {
  const alg = page.header.algorithmId;
  const system = page.header.system;
  const problems: SeedProblem[] = [];
  const remarks: string[] = [];
  const files: StoreFile[] = [];
  const perf = tableOf(page, "Performance").rows;
  const res = tableOf(page, "Resource consumption").rows;
  for (const [i, row] of perf.entries()) {
    const [instance = "", operation = "", cycles = "", time = "", ops = "", median = "", n = ""] = row;
    const m = res[i];
    if (m === undefined || m[0] !== instance || m[1] !== operation) throw new Error(`${alg}: rows of 4 and 5 differ`);
    const memory = {
      elfImageBytes: int(m[2], `${alg}/${instance}`),
      baselineRssKiB: parseKiB(m[3] ?? ""),
      peakRssKiB: parseKiB(m[4] ?? ""),
    };
    if (memory.peakRssKiB < memory.baselineRssKiB)
      problems.push({ algorithmId: alg, instance, operation, message: "peak RSS below baseline RSS" });
    const { trials, problems: p } = synthesizeTrials({ cycles, time, ops, median, n });
    for (const message of p) problems.push({ algorithmId: alg, instance, operation, message });
    const record = timingRecord(page, file, instance, operation, trials, memory);
    const agg = record.aggregates as ReturnType<typeof aggregate>;
    if (agg.unstable)
      remarks.push(
        `${alg} ${instance} ${operation}: mean ${time} vs median trial ${median} forces a trial spread of ` +
          `${(((agg.maxTrialNs - agg.minTrialNs) / agg.medianTrialNs) * 100).toFixed(1)}% (flagged unstable)`,
      );
    const key = { system, algorithmId: alg, instance, buildProfile: BUILD_PROFILE, operation };
    files.push(storeFile({ kind: "timing", key }, record));
  }
  // The ELF image belongs to the instance's shared object: one figure per instance.
  for (const instance of page.basic.parameterSets) {
    const sizes = new Set(res.filter((r) => r[0] === instance).map((r) => r[2]));
    if (sizes.size !== 1)
      problems.push({ algorithmId: alg, instance, message: `ELF image differs between operations: ${[...sizes]}` });
  }
  for (const row of tableOf(page, "Symmetric primitives").rows) {
    const [instance = "", operation = ""] = row;
    const key = { system, algorithmId: alg, instance, buildProfile: BUILD_PROFILE, operation };
    files.push(storeFile({ kind: "hash-profile", key }, profileRecord(page, file, row, problems)));
  }
  files.push(...katRecords(page, file));
  const algorithmKey = { system, algorithmId: alg, buildProfile: BUILD_PROFILE };
  files.push(storeFile({ kind: "size-audit", key: algorithmKey }, sizeAuditRecord(page, file, problems)));
  files.push(storeFile({ kind: "survey", key: algorithmKey }, surveyRecord(page, file)));

  // Cross-checks that are not cell formats: every evidence row names a record written here (its KAT-log row the
  // log a KAT record points to), read in the earlier harness's layout, which has no build profile.
  const written = new Set(files.map((f) => f.path));
  const logs = new Set(files.flatMap((f) => (f.entry.kind === "kat" ? [(f.record.log as { path: string }).path] : [])));
  for (const r of tableOf(page, "Raw evidence index").rows) {
    const path = r[2] ?? "";
    const entry = harnessEvidenceEntry(system, path);
    const ours = entry === null ? null : relativeRecordPath(entry);
    const found = ours !== null && (entry?.kind === "kat-log" ? logs.has(ours) : written.has(ours));
    const instance = entry !== null && "instance" in entry.key ? entry.key.instance : null;
    if (!found || instance !== r[0])
      problems.push({ algorithmId: alg, instance: r[0], message: `evidence ${path} not written` });
  }
  if (page.basic.kind === "kex") {
    const ops = operationsOf(page);
    const prof = profiledOperationsOf(page);
    remarks.push(`${alg}: operations ${ops.join(", ")}; profiled: ${prof.join(", ")}`);
  }
  return { files, problems, remarks };
}

/**
 * The record an evidence path of the earlier harness names (`records/<alg>/<instance>__<op>.json`,
 * `profile/<alg>/<instance>__<op>.json`, `kat/<alg>/<instance>.log`: no build profile; the seeds' runs are the
 * `guide` profile), or null for a path of another form.
 */
export function harnessEvidenceEntry(system: string, path: string): StoreEntry | null {
  const entry = parseHarnessRecordPath(system, path, BUILD_PROFILE);
  return entry && (entry.kind === "timing" || entry.kind === "hash-profile" || entry.kind === "kat-log") ? entry : null;
}

/** The store index of a system's folder: the algorithms (section 1 facts) and every file with its hash. */
export function storeIndexRecord(
  pages: ReadonlyArray<{ page: SeedPage; file: string }>,
  files: readonly IndexedFile[],
): JsonRecord {
  const first = pages[0];
  if (!first) throw new Error("no pages");
  const systems = first.page.header.systems;
  for (const { page, file } of pages) {
    if (page.header.system !== first.page.header.system) throw new Error(`${file}: another system`);
    if (page.header.systems.join() !== systems.join()) throw new Error(`${file}: another system list`);
    if (evidenceRootOf(page) !== evidenceRootOf(first.page)) throw new Error(`${file}: another evidence root`);
  }
  const algorithms = [...pages]
    .sort((a, b) => (a.page.header.algorithmId < b.page.header.algorithmId ? -1 : 1))
    .map(({ page }) => ({
      id: page.header.algorithmId,
      name: page.title.name,
      category: page.basic.kind,
      implementations: page.basic.implementations,
      instances: page.basic.parameterSets,
      operations: [...new Set(tableOf(page, "Performance").rows.map((r) => r[1] ?? ""))],
      links: {
        security: { label: page.basic.links.securityEvaluation, href: null },
        method: { label: page.basic.links.measurementMethod, href: null },
        submission: { label: page.basic.links.submission, href: null },
      },
      katManifest: katManifestOf(page),
    }));
  return {
    kind: "store-index",
    schemaVersion: SCHEMA_VERSION,
    provenance: {
      ...provenance(
        first.page,
        pages.map((p) => p.file).join(", "),
        "Index of the synthesized seed store: section-1 facts of the five seed pages and every record with its hash. " +
          "Link targets are not published (href null). KAT logs are not part of the store.",
      ),
      source: `seed pages ${pages.map((p) => p.file).join(", ")}`,
    },
    system: first.page.header.system,
    algorithms,
    files,
    systems,
    evidenceRoot: evidenceRootOf(first.page),
  };
}
