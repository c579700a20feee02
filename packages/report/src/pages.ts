// From a loaded store to the report model: the page per (system, algorithm) with the seeds' sections 1–7, and the
// site around it (home, per-system index, method page, size audit, cross-system comparison).
import { join, relative, sep } from "node:path";
import type {
  EnvironmentRecord,
  HashProfileRecord,
  KatRecord,
  SizeAuditRecord,
  StoreIndexRecord,
  SurveyRecord,
  TimingRecord,
} from "@ngcc-perf/schema";
import {
  formatBytes,
  formatCalls,
  formatCounter,
  formatG,
  formatGHz,
  formatKiB,
  formatN,
  formatOpsPerSecond,
  formatRatio,
  formatShare,
  formatTime,
  formatUtc,
} from "./format.ts";
import type { LoadedStore, SystemStore } from "./load.ts";
import {
  type Cell,
  type Chart,
  type ChartDatum,
  cell,
  code,
  type Inline,
  type Page,
  type Section,
  text,
} from "./model.ts";

type Category = "kem" | "sign" | "kex";
type Link = { label: string; href?: string | null };

/** One algorithm of one system, resolved from the index and the records. */
export interface AlgorithmView {
  id: string;
  name: string | null;
  category: Category;
  implementations: string[];
  instances: string[];
  links: { security?: Link; method?: Link; submission?: Link };
  katManifest: string | null;
}

/** Operation order on a page: KEM and signature operations, then KEX's whole protocol and its steps in order. */
export const OPERATION_ORDER = [
  "keygen",
  "enc",
  "dec",
  "sign",
  "verify",
  "exchange",
  "init_a",
  "init_b",
  "pass1",
  "pass2",
  "pass3",
  "derive_a",
  "derive_b",
];

const CATEGORY_OPERATIONS: Record<Category, string[]> = {
  kem: ["keygen", "enc", "dec"],
  sign: ["keygen", "sign", "verify"],
  kex: [],
};

const FUNCTION_OF: Record<Category, string> = {
  kem: "key encapsulation",
  sign: "digital signature",
  kex: "key exchange",
};

export function byOperation(a: string, b: string): number {
  const ia = OPERATION_ORDER.indexOf(a);
  const ib = OPERATION_ORDER.indexOf(b);
  return (ia < 0 ? 999 : ia) - (ib < 0 ? 999 : ib) || (a < b ? -1 : a > b ? 1 : 0);
}

const alphabetical = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const DASH = "—";
const NOT_MEASURED = "not measured";

function failedText(f: { reason: string; message: string } | undefined): string {
  if (!f) return "FAILED";
  const message = f.message.replace(/\s+/g, " ").trim();
  const short = message.length > 160 ? `${message.slice(0, 157)}…` : message;
  return `FAILED (${f.reason}): ${short}`;
}

/** Everything of one system the pages need, indexed. */
export class SystemView {
  readonly system: string;
  readonly store: SystemStore;
  readonly environment: EnvironmentRecord | null;
  readonly index: StoreIndexRecord | null;
  readonly algorithms: AlgorithmView[];
  private readonly timing = new Map<string, TimingRecord>();
  private readonly profile = new Map<string, HashProfileRecord>();
  private readonly kat = new Map<string, KatRecord>();
  private readonly timingsByAlg = new Map<string, TimingRecord[]>();
  private readonly profilesByAlg = new Map<string, HashProfileRecord[]>();
  /** Operations recorded per "<algorithm>/<instance>". */
  private readonly recordedOps = new Map<string, string[]>();

  constructor(store: SystemStore) {
    this.system = store.system;
    this.store = store;
    this.environment = store.environment;
    this.index = store.index;
    const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
      const list = map.get(key);
      if (list) list.push(value);
      else map.set(key, [value]);
    };
    for (const t of store.timings) {
      this.timing.set(`${t.algorithmId}/${t.instance}/${t.operation}`, t);
      push(this.timingsByAlg, t.algorithmId, t);
      push(this.recordedOps, `${t.algorithmId}/${t.instance}`, t.operation);
    }
    for (const p of store.profiles) {
      this.profile.set(`${p.algorithmId}/${p.instance}/${p.operation}`, p);
      push(this.profilesByAlg, p.algorithmId, p);
    }
    for (const k of store.kats) this.kat.set(`${k.algorithmId}/${k.instance}`, k);
    this.algorithms = this.resolveAlgorithms();
  }

  private resolveAlgorithms(): AlgorithmView[] {
    const views = new Map<string, AlgorithmView>();
    for (const a of this.index?.algorithms ?? []) {
      views.set(a.id, {
        id: a.id,
        name: a.name,
        category: a.category,
        implementations: [...a.implementations],
        instances: [...a.instances],
        links: {
          ...(a.links?.security ? { security: a.links.security } : {}),
          ...(a.links?.method ? { method: a.links.method } : {}),
          ...(a.links?.submission ? { submission: a.links.submission } : {}),
        },
        katManifest: a.katManifest ?? null,
      });
    }
    // Algorithms and instances the index does not list (or a store without an index) come from the records.
    const seen: Array<{ algorithmId: string; instance?: string; implementation?: string; operation?: string }> = [
      ...this.store.timings,
      ...this.store.kats,
      ...this.store.profiles,
      ...[...this.store.audits.values()].flatMap((a) =>
        a.instances.map((i) => ({ algorithmId: a.algorithmId, instance: i.instance })),
      ),
      ...[...this.store.surveys.values()].map((s) => ({ algorithmId: s.algorithmId })),
    ];
    const opsSeen = new Map<string, Set<string>>();
    for (const r of seen) {
      let v = views.get(r.algorithmId);
      if (!v) {
        v = {
          id: r.algorithmId,
          name: null,
          category: "kex",
          implementations: [],
          instances: [],
          links: {},
          katManifest: null,
        };
        views.set(r.algorithmId, v);
      }
      if (r.instance !== undefined && !v.instances.includes(r.instance)) v.instances.push(r.instance);
      if (r.implementation !== undefined && !v.implementations.includes(r.implementation))
        v.implementations.push(r.implementation);
      if (r.operation !== undefined) {
        const s = opsSeen.get(r.algorithmId) ?? new Set<string>();
        s.add(r.operation);
        opsSeen.set(r.algorithmId, s);
      }
    }
    const indexed = new Set((this.index?.algorithms ?? []).map((a) => a.id));
    for (const v of views.values()) {
      if (indexed.has(v.id)) continue;
      const audit = this.store.audits.get(v.id);
      const ops = opsSeen.get(v.id) ?? new Set<string>();
      v.category = audit?.category ?? (ops.has("enc") ? "kem" : ops.has("sign") || ops.has("verify") ? "sign" : "kex");
      const manifest = this.store.kats.find((k) => k.algorithmId === v.id)?.manifest?.path;
      v.katManifest = manifest ?? null;
    }
    const extra = [...views.values()].filter((v) => !indexed.has(v.id)).sort((a, b) => alphabetical(a.id, b.id));
    return [...(this.index?.algorithms ?? []).map((a) => views.get(a.id) as AlgorithmView), ...extra];
  }

  timingOf(alg: string, instance: string, op: string): TimingRecord | undefined {
    return this.timing.get(`${alg}/${instance}/${op}`);
  }
  profileOf(alg: string, instance: string, op: string): HashProfileRecord | undefined {
    return this.profile.get(`${alg}/${instance}/${op}`);
  }
  katOf(alg: string, instance: string): KatRecord | undefined {
    return this.kat.get(`${alg}/${instance}`);
  }
  audit(alg: string): SizeAuditRecord | undefined {
    return this.store.audits.get(alg);
  }
  survey(alg: string): SurveyRecord | undefined {
    return this.store.surveys.get(alg);
  }
  algorithm(id: string): AlgorithmView | undefined {
    return this.algorithms.find((a) => a.id === id);
  }

  /** Operations shown for an instance: the category's, or for a key exchange the steps recorded for it. */
  operationsOf(alg: AlgorithmView, instance: string): string[] {
    const indexed = this.index?.algorithms.find((a) => a.id === alg.id)?.operations;
    const recorded = this.recordedOps.get(`${alg.id}/${instance}`) ?? [];
    const base = alg.category === "kex" && recorded.length > 0 ? [] : (indexed ?? CATEGORY_OPERATIONS[alg.category]);
    return [...new Set([...base, ...recorded])].sort(byOperation);
  }

  timingsOf(alg: string): TimingRecord[] {
    return this.timingsByAlg.get(alg) ?? [];
  }
  profilesOf(alg: string): HashProfileRecord[] {
    return this.profilesByAlg.get(alg) ?? [];
  }
  /** Relative path from this system's page folder to its data folder (set by the site for its output folder). */
  dataHref = "";

  /** Page link from a page in this system's folder to a store file, if the store holds it. */
  fileLink(rel: string): Inline {
    return this.store.files.has(rel) ? { text: rel, code: true, href: `${this.dataHref}${rel}` } : code(rel);
  }
  pathOf(record: object): string | undefined {
    return this.store.pathOf.get(record);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Shared page parts

export interface SiteContext {
  views: SystemView[];
  /** Systems named by any index (the switcher), in order, then those present. */
  allSystems: string[];
  toolVersion: string;
}

/**
 * The site's model of a store. `siteDir` is where the site will be written: evidence links are relative paths from
 * it to the store's data folders (`../../data/<system>/` when the site is written into the store).
 */
export function siteContext(store: LoadedStore, toolVersion: string, siteDir = join(store.root, "site")): SiteContext {
  const views = store.systems.map((s) => new SystemView(s));
  for (const v of views) {
    const rel = relative(join(siteDir, v.system), v.store.dir).split(sep).join("/");
    v.dataHref = `${rel}/`;
  }
  const allSystems: string[] = [];
  for (const v of views) for (const s of v.index?.systems ?? []) if (!allSystems.includes(s)) allSystems.push(s);
  for (const v of views) if (!allSystems.includes(v.system)) allSystems.push(v.system);
  return { views, allSystems, toolVersion };
}

function archLabel(arch: string | undefined): string {
  if (!arch) return "an unrecorded architecture";
  if (arch === "aarch64" || arch === "arm64") return "AArch64";
  if (arch === "x86_64" || arch === "amd64") return "x86-64";
  return arch;
}

function guideName(arch: string | undefined): string {
  if (arch === "aarch64" || arch === "arm64") return "NICCS ARM self-assessment guide";
  if (arch === "x86_64" || arch === "amd64") return "NICCS x86 self-assessment guide";
  return "NICCS self-assessment guide";
}

/** `Performance measurements › arm_1 › kem-20 · system: x86_1 · arm_1`, with links where a page exists. */
function header(ctx: SiteContext, view: SystemView, here: string | null, switchTo: (s: SystemView) => string | null) {
  const out: Inline[] = [
    { text: "Performance measurements", page: "../index" },
    text(" › "),
    here === null ? { text: view.system, current: true } : { text: view.system, page: "index" },
  ];
  if (here !== null) out.push(text(" › "), { text: here, current: true });
  out.push(text(" · system: "));
  const systems = view.index?.systems ?? ctx.allSystems;
  const named = [
    ...systems,
    ...ctx.allSystems.filter((s) => !systems.includes(s) && ctx.views.some((v) => v.system === s)),
  ];
  named.forEach((s, i) => {
    if (i > 0) out.push(text(" · "));
    const other = ctx.views.find((v) => v.system === s);
    if (s === view.system) out.push({ text: s, current: true });
    else {
      const target = other ? switchTo(other) : null;
      out.push(target ? { text: s, page: target } : text(s));
    }
  });
  return out;
}

function provenanceNote(records: ReadonlyArray<{ provenance?: { origin?: string } } | undefined>): Inline[][] {
  const origins = new Set(records.map((r) => r?.provenance?.origin).filter((o) => o !== undefined));
  const notes: Inline[][] = [];
  if (origins.has("synthesized"))
    notes.push([
      text(
        "Synthesized records: figures on this page come from records made to agree with published pages (provenance origin “synthesized”); they were not measured by ngcc-perf.",
      ),
    ]);
  return notes;
}

function footer(ctx: SiteContext, view: SystemView | null): Inline[][] {
  const made = text(
    `Made by ngcc-perf ${ctx.toolVersion} from the record store (${view ? `data/${view.system}/` : "data/"}); every figure comes from a record listed in an evidence index. `,
  );
  if (!view) return [[made, { text: "all systems", page: "index" }]];
  return [[made, { text: "method", page: "method" }, text(" · "), { text: "all systems", page: "../index" }]];
}

function section(id: string, heading: string, parts: Partial<Omit<Section, "id" | "heading">> = {}): Section {
  return { id, heading, notes: [], tables: [], after: [], charts: [], ...parts };
}

function linkInline(link: Link | undefined, fallback: string): Inline {
  if (!link) return text(fallback);
  return link.href ? { text: link.label, href: link.href } : text(link.label);
}

// ---------------------------------------------------------------------------------------------------------------
// Section 2: the environment

export function environmentRows(env: EnvironmentRecord | null): string[][] {
  if (!env) return [["environment", "not recorded (no environment.json in the store)"]];
  const p = env.processor;
  const c = env.clock;
  const cpu = p.pinnedCpu === null || p.pinnedCpu === undefined ? "not pinned" : `CPU ${p.pinnedCpu}, one core`;
  let clock: string;
  if (c.fixedFrequencyHz !== null && c.fixedFrequencyHz !== undefined) {
    const minMax =
      c.minFrequencyHz !== null &&
      c.minFrequencyHz !== undefined &&
      c.minFrequencyHz === c.maxFrequencyHz &&
      c.minFrequencyHz === c.fixedFrequencyHz
        ? ", minimum = maximum"
        : "";
    clock = `fixed ${formatGHz(c.fixedFrequencyHz)} (governor ${c.governor ?? "unknown"}${minMax})`;
  } else {
    const range =
      c.minFrequencyHz && c.maxFrequencyHz ? `, ${formatGHz(c.minFrequencyHz)} – ${formatGHz(c.maxFrequencyHz)}` : "";
    clock = `not fixed (governor ${c.governor ?? "unknown"}${range})`;
  }
  clock += `, boost ${c.boost ?? "unknown"}, SMT ${c.smt ?? "unknown"}`;
  const tool = env.toolchain.buildTool
    ? `${env.toolchain.compiler} / ${env.toolchain.buildTool}`
    : env.toolchain.compiler;
  const end = env.campaign.end ? formatUtc(env.campaign.end) : "still running";
  return [
    ["processor", `${p.model} (${cpu})`],
    ["machine", env.machine ?? "not recorded"],
    ["clock", clock],
    ["memory", `${env.memory.totalMiB} MiB`],
    ["OS / kernel", `${env.os.name} / ${env.os.kernel}`],
    ["compiler / build tool", tool],
    ["campaign start / end (UTC)", `${formatUtc(env.campaign.start)} / ${end}`],
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Counters

const COUNTER_COLUMN: Record<string, string> = {
  "core-cycles": "mean cycles",
  "tsc-ticks": "mean TSC ticks",
  "timer-ticks": "mean timer ticks",
  instructions: "mean instructions",
  ns: "mean counter ns",
};

/** The counter column's header and, for a unit that is not core cycles, the note saying what it counts. */
export function counterColumn(
  timings: ReadonlyArray<TimingRecord>,
  env: EnvironmentRecord | null,
): { header: string; mixed: boolean; note: string | null } {
  const units = new Set(timings.filter((t) => t.status === "ok" && t.counter).map((t) => t.counter?.unit as string));
  if (units.size === 0 && env) units.add(env.counter.unit);
  if (units.size !== 1) return { header: "mean counter", mixed: units.size > 1, note: null };
  const unit = [...units][0] as string;
  const counter = timings.find((t) => t.counter?.unit === unit)?.counter ?? env?.counter;
  const rate = counter?.rateHz ? ` (${formatGHz(counter.rateHz)} here)` : "";
  const notes: Record<string, string> = {
    "tsc-ticks": `The counter is the x86-64 time-stamp counter: TSC ticks at its constant reference rate${rate}, not core cycles.`,
    "timer-ticks": `The counter is the aarch64 generic timer (cntvct_el0): timer ticks${rate}, not core cycles.`,
    instructions: "The counter is perf_event's instructions retired (user mode): a count of work, not of time.",
    ns: "The counter is CLOCK_MONOTONIC: the counter column repeats the mean time in ns; no cycle counter was available.",
  };
  return { header: COUNTER_COLUMN[unit] ?? `mean counter (${unit})`, mixed: false, note: notes[unit] ?? null };
}

// ---------------------------------------------------------------------------------------------------------------
// The algorithm page

function instanceCell(instance: string): Cell {
  return [code(instance)];
}

function katCell(k: KatRecord): string {
  if (k.verdict === "PASS") return "PASS";
  if (k.verdict === "FAIL") {
    if (k.outcome === "corrupt-kat" || k.manifest?.status === "mismatch")
      return "FAIL: the KAT file does not match its manifest (a corrupt or altered KAT file, not the implementation)";
    const d = k.diagnosis;
    const where =
      d && d.firstCount !== undefined
        ? `: first difference at count ${d.firstCount}${d.field ? `, field ${d.field}` : ""} (${d.differingEntries} differing entr${d.differingEntries === 1 ? "y" : "ies"})`
        : "";
    return `FAIL${where}`;
  }
  return `ERROR${k.error ? ` (${k.error.reason}): ${k.error.message.replace(/\s+/g, " ").slice(0, 160)}` : ""}`;
}

export function algorithmPage(ctx: SiteContext, view: SystemView, alg: AlgorithmView): Page {
  const env = view.environment;
  const arch = env?.processor.architecture;
  const timings = view.timingsOf(alg.id);
  const profiles = view.profilesOf(alg.id);
  const kats = alg.instances.map((i) => view.katOf(alg.id, i)).filter((k): k is KatRecord => k !== undefined);
  const audit = view.audit(alg.id);
  const survey = view.survey(alg.id);
  const title = `${alg.id}${alg.name ? ` ${alg.name}` : ""} — performance on ${archLabel(arch)} (system ${view.system})`;
  const intro: Inline[][] = [
    [
      text(
        `Independent measurement following the structure of the ${guideName(arch)}, §3.5 (1)–(7). Not a submitter self-assessment.`,
      ),
    ],
    ...provenanceNote([env ?? undefined, ...timings, ...profiles, ...kats, audit, survey]),
  ];

  // 1. Basic information
  const basic = section("basic", "1. Basic information", {
    list: [
      {
        key: "Category",
        value: [text(`public-key algorithm; function: ${FUNCTION_OF[alg.category]}`)],
      },
      { key: "Algorithm", value: [text(alg.name ?? `${alg.id} (name not recorded)`)] },
      {
        key: "Implementation versions measured",
        value: [text(alg.implementations.length ? alg.implementations.join(", ") : "not recorded")],
      },
      { key: "Parameter sets", value: [text(alg.instances.join(", "))] },
      { key: "Security evaluation", value: [linkInline(alg.links.security, "not linked")] },
      {
        key: "Measurement method",
        value: [
          alg.links.method?.href
            ? { text: alg.links.method.label, href: alg.links.method.href }
            : { text: alg.links.method?.label ?? `${view.system} method`, page: "method" },
        ],
      },
      { key: "Submission", value: [linkInline(alg.links.submission, "not linked")] },
    ],
  });

  // 2. Environment
  const environment = section("environment", "2. Assessment environment", {
    tables: [
      {
        caption: `Assessment environment of system ${view.system}`,
        headers: ["item", "value"],
        rows: environmentRows(env).map(([k, v]) => [cell(k ?? ""), cell(v ?? "")]),
        rowHeaders: true,
      },
    ],
  });

  // 3. KAT
  const manifest = alg.katManifest ?? kats.find((k) => k.manifest)?.manifest?.path ?? null;
  const katNotes: Inline[][] =
    kats.length === 0
      ? [[text("No KAT records in the store: functional testing was not run or not recorded.")]]
      : [
          [
            text(
              manifest
                ? `Each library was checked against the submitted KAT vectors (SHA-256 manifest ${manifest} in the harness) before timing.`
                : "Each library was checked against the submitted KAT vectors before timing.",
            ),
          ],
        ];
  const katRows: Cell[][] = alg.instances.map((instance) => {
    const k = view.katOf(alg.id, instance);
    if (k) return [instanceCell(instance), cell(k.buildProfile), cell(katCell(k))];
    const profile = timings.find((t) => t.instance === instance)?.buildProfile ?? DASH;
    return [instanceCell(instance), cell(profile), cell("not run")];
  });
  const manifestProblems = kats.filter(
    (k) => k.manifest && k.manifest.status !== "ok" && k.manifest.status !== "not-applicable",
  );
  const kat = section("kat", "3. Functional testing (KAT)", {
    notes: katNotes,
    tables: [
      {
        caption: `KAT verdict per instance of ${alg.id}`,
        headers: ["instance", "build flags", "KAT"],
        rows: katRows,
        rowHeaders: true,
      },
    ],
    after: manifestProblems.map((k) => [
      text(
        `${k.instance}: KAT manifest ${k.manifest?.path ?? ""} ${k.manifest?.status === "missing" ? "missing" : "does not match the KAT files"}.`,
      ),
    ]),
  });

  // 4. Performance and 5. Resource consumption
  const counter = counterColumn(timings, env);
  const perfRows: Cell[][] = [];
  const memRows: Cell[][] = [];
  const unstable: string[] = [];
  for (const instance of alg.instances) {
    for (const op of view.operationsOf(alg, instance)) {
      const t = view.timingOf(alg.id, instance, op);
      const lead = [instanceCell(instance), cell(op)];
      if (!t) {
        perfRows.push([...lead, cell(NOT_MEASURED), cell(DASH), cell(DASH), cell(DASH), cell(DASH)]);
        memRows.push([...lead, cell(NOT_MEASURED), cell(DASH), cell(DASH)]);
        continue;
      }
      if (t.status !== "ok" || !t.aggregates) {
        const f = failedText(t.failure);
        perfRows.push([...lead, cell(f), cell(DASH), cell(DASH), cell(DASH), cell(DASH)]);
        memRows.push(
          t.memory
            ? [
                ...lead,
                cell(formatBytes(t.memory.elfImageBytes)),
                cell(formatKiB(t.memory.baselineRssKiB)),
                cell(formatKiB(t.memory.peakRssKiB)),
              ]
            : [...lead, cell(f), cell(DASH), cell(DASH)],
        );
        continue;
      }
      const a = t.aggregates;
      const counterText = formatCounter(a.meanCounter) + (counter.mixed && t.counter ? ` ${t.counter.unit}` : "");
      perfRows.push([
        ...lead,
        cell(counterText),
        cell(formatTime(a.meanNs)),
        cell(formatOpsPerSecond(a.opsPerSecond)),
        cell(formatTime(a.medianTrialNs)),
        cell(formatN(a.trials, a.iterationsPerTrial)),
      ]);
      if (a.unstable) {
        const spread = a.medianTrialNs > 0 ? (a.maxTrialNs - a.minTrialNs) / a.medianTrialNs : 0;
        unstable.push(`${instance} ${op} (${formatShare(spread)})`);
      }
      memRows.push(
        t.memory
          ? [
              ...lead,
              cell(formatBytes(t.memory.elfImageBytes)),
              cell(formatKiB(t.memory.baselineRssKiB)),
              cell(formatKiB(t.memory.peakRssKiB)),
            ]
          : [...lead, cell(NOT_MEASURED), cell(DASH), cell(DASH)],
      );
    }
  }
  const perfAfter: Inline[][] = [];
  if (counter.note) perfAfter.push([text(counter.note)]);
  if (unstable.length) {
    const threshold = timings.find((t) => t.aggregates)?.aggregates?.unstableThreshold ?? 0.05;
    perfAfter.push([
      text(
        `Unstable (spread of the trial means, (max − min) / median, above ${formatShare(threshold)}): ${unstable.join(", ")}. The median trial resists such spikes better than the mean.`,
      ),
    ]);
  }
  const timeChart = timeChartOf(view, alg);
  const spreadChart = spreadChartOf(view, alg);
  const performance = section("performance", "4. Performance", {
    tables: [
      {
        caption: `Time per operation of each ${alg.id} instance (mean over all iterations; median of the trial means)`,
        headers: ["instance", "operation", counter.header, "mean time", "ops/s", "median trial", "n (trials × iters)"],
        rows: perfRows,
        rowHeaders: true,
      },
    ],
    after: perfAfter,
    charts: [timeChart, spreadChart].filter((c): c is Chart => c !== null),
  });
  const resources = section("resources", "5. Resource consumption", {
    notes: [
      [
        text(
          "Static memory is approximated by the library's loadable ELF segments; peak memory is the process high-water mark (VmHWM) including the benchmark driver and libc, so both are upper-bound proxies rather than isolated algorithm memory.",
        ),
      ],
    ],
    tables: [
      {
        caption: `Memory per operation of each ${alg.id} instance`,
        headers: ["instance", "operation", "static: ELF image (bytes)", "baseline RSS", "peak RSS"],
        rows: memRows,
        rowHeaders: true,
      },
    ],
  });

  const sizes = sizesSection(alg, audit);
  const symmetric = symmetricSection(view, alg, survey);
  const evidence = evidenceSection(view, alg, kats);

  return {
    kind: "algorithm",
    path: `${view.system}/${alg.id}`,
    header: header(ctx, view, alg.id, (other) => (other.algorithm(alg.id) ? `../${other.system}/${alg.id}` : null)),
    title,
    intro,
    sections: [basic, environment, kat, performance, resources, sizes, symmetric, evidence],
    footer: footer(ctx, view),
  };
}

function sizesSection(alg: AlgorithmView, audit: SizeAuditRecord | undefined): Section {
  const heading = "6. Transmission and storage overhead";
  if (!audit)
    return section("sizes", heading, {
      notes: [[text("No size audit in the store: sizes were not measured.")]],
    });
  const byInstance = new Map(audit.instances.map((i) => [i.instance, i]));
  const instances = [
    ...alg.instances.filter((i) => byInstance.has(i)),
    ...audit.instances.map((i) => i.instance).filter((i) => !alg.instances.includes(i)),
  ];
  const n = (v: number | undefined | null): Cell => cell(v === undefined || v === null ? DASH : formatBytes(v));
  const auditLink: Inline = { text: "size audit", page: "sizes", anchor: alg.id };
  const findings = audit.findings.length;
  if (alg.category === "kex") {
    return section("sizes", heading, {
      notes: [
        [
          text(
            "Bandwidth counts all specified protocol messages and each required public key once. Public keys are transmitted bytes too. Certificates and transport framing are excluded. The published raw timing records are unchanged.",
          ),
        ],
        ...(audit.notes ?? []).map((note) => [text(note)]),
      ],
      tables: [
        {
          caption: `Key-exchange bandwidth of each ${alg.id} instance (bytes)`,
          headers: [
            "instance",
            "passes",
            "messages (bytes; raw API)",
            "protocol-message bytes",
            "public key A / B",
            "bandwidth (bytes)",
            "long-term sk (API cap)",
            "shared secret",
          ],
          rows: instances.map((name) => {
            const k = byInstance.get(name)?.kex;
            const failure = byInstance.get(name)?.failure;
            if (!k)
              return [
                instanceCell(name),
                cell(failure ? failedText(failure) : NOT_MEASURED),
                ...Array.from({ length: 6 }, () => cell(DASH)),
              ];
            return [
              instanceCell(name),
              cell(String(k.passes)),
              cell(k.messageBytes.join(" + ")),
              cell(formatBytes(k.protocolMessageBytes)),
              cell(`${k.publicKeyABytes} / ${k.publicKeyBBytes}`),
              cell(formatBytes(k.bandwidthBytes)),
              cell(formatBytes(k.longTermSecretKeyBytes)),
              cell(formatBytes(k.sharedSecretBytes)),
            ];
          }),
          rowHeaders: true,
        },
      ],
      after: findings
        ? [[text(`${findings} disagreement(s) between catalog, API and measurement: see the `), auditLink, text(".")]]
        : [],
    });
  }
  // The catalog's path as the audit names it; a store that does not record it gets a neutral wording.
  const catalog = audit.catalog?.path
    ? `curated ${audit.catalog.path} catalog`
    : "curated size catalog (external_sizes.csv)";
  const kem = alg.category === "kem";
  const variable = audit.instances.filter(
    (i) => i.measured?.signatureBytes && i.measured.signatureBytes.min !== i.measured.signatureBytes.max,
  );
  return section("sizes", heading, {
    notes: [
      [
        text(
          `External public-key, ciphertext and signature sizes follow the ${catalog}; secret-key and shared-secret lengths remain API figures. See the `,
        ),
        auditLink,
        text(" for disagreements."),
      ],
      ...(audit.notes ?? []).map((note) => [text(note)]),
    ],
    tables: [
      {
        caption: `Sizes of each ${alg.id} instance (bytes)`,
        headers: kem
          ? ["instance", "public key", "secret key", "ciphertext", "shared secret"]
          : ["instance", "public key", "secret key", "signature"],
        rows: instances.map((name) => {
          const t = byInstance.get(name)?.table;
          const failure = byInstance.get(name)?.failure;
          if (!t)
            return [
              instanceCell(name),
              cell(failure ? failedText(failure) : NOT_MEASURED),
              ...Array.from({ length: kem ? 3 : 2 }, () => cell(DASH)),
            ];
          return kem
            ? [
                instanceCell(name),
                n(t.publicKeyBytes),
                n(t.secretKeyBytes),
                n(t.ciphertextBytes),
                n(t.sharedSecretBytes),
              ]
            : [instanceCell(name), n(t.publicKeyBytes), n(t.secretKeyBytes), n(t.signatureBytes)];
        }),
        rowHeaders: true,
      },
    ],
    after: [
      ...variable.map((i) => {
        const d = i.measured?.signatureBytes as { min: number; mean: number; max: number; samples: number };
        return [
          text(
            `${i.instance}: variable-length signatures, ${d.min}–${d.max} bytes (mean ${formatG(d.mean, 4)}, ${d.samples} signatures measured)${i.api?.signatureBytes ? ` below the API cap of ${i.api.signatureBytes}` : ""}.`,
          ),
        ];
      }),
      ...(findings
        ? [[text(`${findings} disagreement(s) between catalog, API and measurement: see the `), auditLink, text(".")]]
        : []),
    ],
  });
}

/** Symbol groups in the order the profiles give them, with their column labels. */
function groupsOf(profiles: ReadonlyArray<HashProfileRecord>): Array<{ name: string; label: string }> {
  const out: Array<{ name: string; label: string }> = [];
  for (const p of profiles)
    for (const g of p.groups ?? [])
      if (!out.some((o) => o.name === g.name)) out.push({ name: g.name, label: g.label ?? g.name });
  return out;
}

function symmetricSection(view: SystemView, alg: AlgorithmView, survey: SurveyRecord | undefined): Section {
  const verdict = survey
    ? `Survey verdict: ${survey.verdict}${survey.text ? ` — ${survey.text}` : ""}`
    : "Survey verdict: not surveyed";
  const profiles = view.profilesOf(alg.id);
  const notes: Inline[][] = [[text(verdict)]];
  if (profiles.length === 0) {
    notes.push([
      text("No hash/DRNG profile in the store: the share of time in the placeholder functions was not measured."),
    ]);
    return section("symmetric", "Symmetric primitives", { notes });
  }
  const impl = alg.implementations.length ? alg.implementations.join(", ") : "measured";
  notes.push([
    text(
      `Share of each operation spent in the ICCS placeholder hash functions and in the ICCS DRNG (${impl} build, measured in the same run with link-time wrappers):`,
    ),
  ]);
  const found = groupsOf(profiles);
  // Only failure records: one column still carries the reason.
  const groups = found.length ? found : [{ name: "", label: "share" }];
  const rows: Cell[][] = [];
  const blind = new Map<string, string>();
  for (const instance of alg.instances) {
    // The operations profiled (a key exchange may profile the whole exchange only); none: one "not measured" row.
    const ops = profiles
      .filter((x) => x.instance === instance)
      .map((x) => x.operation)
      .sort(byOperation);
    if (ops.length === 0) {
      rows.push([
        instanceCell(instance),
        cell(DASH),
        cell(NOT_MEASURED),
        ...groups.slice(1).map(() => cell(DASH)),
        cell(DASH),
      ]);
      continue;
    }
    for (const op of ops) {
      const p = view.profileOf(alg.id, instance, op);
      const lead = [instanceCell(instance), cell(op)];
      const empty = groups.map(() => cell(DASH));
      if (!p) {
        rows.push([...lead, ...empty.map((_, i) => cell(i === 0 ? NOT_MEASURED : DASH)), cell(DASH)]);
        continue;
      }
      if (p.status !== "ok" || !p.groups) {
        rows.push([...lead, ...empty.map((_, i) => cell(i === 0 ? failedText(p.failure) : DASH)), cell(DASH)]);
        continue;
      }
      rows.push([
        ...lead,
        ...groups.map((g) => cell(formatShare(p.groups?.find((x) => x.name === g.name)?.share ?? 0))),
        cell(formatCalls((p.calls ?? []).map((c) => ({ label: c.label ?? c.symbol, mean: c.meanPerOperation })))),
      ]);
      for (const b of p.blindSpots ?? []) blind.set(b.symbol, b.reason);
    }
  }
  const after: Inline[][] = [];
  if (blind.size)
    after.push([
      text(
        `Blind spots: ${[...blind].map(([s, r]) => `${s} (${r})`).join(", ")} — calls the link-time wrappers cannot see, so the shares above leave them out rather than show them as 0%.`,
      ),
    ]);
  const chart = shareChartOf(view, alg, groups);
  return section("symmetric", "Symmetric primitives", {
    notes,
    tables: [
      {
        caption: `Share of time in the placeholder hash functions and the DRNG, ${alg.id}`,
        headers: ["instance", "operation", ...groups.map((g) => g.label), "calls per operation"],
        rows,
        rowHeaders: true,
      },
    ],
    after,
    charts: chart ? [chart] : [],
  });
}

function evidenceSection(view: SystemView, alg: AlgorithmView, kats: KatRecord[]): Section {
  const root = view.index?.evidenceRoot;
  const rows: Cell[][] = [];
  const timings = view.timingsOf(alg.id);
  const profiles = view.profilesOf(alg.id);
  for (const instance of alg.instances) {
    const k = kats.find((x) => x.instance === instance);
    if (k) {
      const digest = String(k.log.sha256 ?? k.log.sha256Prefix ?? "");
      rows.push([
        instanceCell(instance),
        [text("KAT log (sha256 "), code(`${digest.slice(0, 16)}…`), text(")")],
        [view.fileLink(String(k.log.path))],
      ]);
    }
    for (const t of timings
      .filter((x) => x.instance === instance)
      .sort((a, b) => alphabetical(a.operation, b.operation)))
      rows.push([
        instanceCell(instance),
        cell(`timing ${t.operation}`),
        [view.fileLink(view.pathOf(t) ?? `records/${alg.id}/${instance}__${t.operation}.json`)],
      ]);
    for (const p of profiles
      .filter((x) => x.instance === instance)
      .sort((a, b) => alphabetical(a.operation, b.operation)))
      rows.push([
        instanceCell(instance),
        cell(`hash profile ${p.operation}`),
        [view.fileLink(view.pathOf(p) ?? `profile/${alg.id}/${instance}__${p.operation}.json`)],
      ]);
  }
  const more: Inline[] = [];
  const extra: Array<[string, string]> = [
    ...kats.map((k): [string, string] => [`KAT record ${k.instance}`, view.pathOf(k) ?? ""]),
    ["size audit", `sizes/${alg.id}.json`],
    ["survey", `survey/${alg.id}.json`],
    ["environment", "environment.json"],
  ];
  for (const [label, rel] of extra) {
    if (!rel || !view.store.files.has(rel)) continue;
    more.push(text(more.length ? "; " : "Also in the store: "), text(`${label} `), view.fileLink(rel));
  }
  if (more.length) more.push(text("."));
  return section("evidence", "7. Raw evidence index", {
    notes: [
      [
        text(
          root
            ? `Paths are relative to ${root} in the harness; each JSON file records its commands, environment and trials.`
            : `Paths are relative to data/${view.system}/ in the record store; each JSON file records its commands, environment and trials.`,
        ),
      ],
    ],
    tables: [
      {
        caption: `Records and logs behind the ${alg.id} page`,
        headers: ["instance", "item", "file"],
        rows,
        rowHeaders: true,
      },
    ],
    after: more.length ? [more] : [],
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Charts (data only; charts.ts draws them)

function timeChartOf(view: SystemView, alg: AlgorithmView): Chart | null {
  const data: ChartDatum[] = [];
  const series: string[] = [];
  for (const instance of alg.instances)
    for (const op of view.operationsOf(alg, instance)) {
      const a = view.timingOf(alg.id, instance, op)?.aggregates;
      if (!a || a.meanNs <= 0) continue;
      data.push({ row: instance, series: op, value: a.meanNs / 1e9 });
      if (!series.includes(op)) series.push(op);
    }
  if (!data.length) return null;
  return {
    kind: "time",
    file: `img/${alg.id}-time.svg`,
    title: "Mean time per operation (log scale)",
    description: `Horizontal bars: mean time per operation of each ${alg.id} parameter set, in seconds on a logarithmic axis; the table above gives the figures.`,
    data,
    rows: alg.instances.filter((i) => data.some((d) => d.row === i)),
    series: series.sort(byOperation),
  };
}

function spreadChartOf(view: SystemView, alg: AlgorithmView): Chart | null {
  const data: ChartDatum[] = [];
  const rows: string[] = [];
  for (const instance of alg.instances)
    for (const op of view.operationsOf(alg, instance)) {
      const t = view.timingOf(alg.id, instance, op);
      const a = t?.aggregates;
      if (!t?.trials || !a || a.medianTrialNs <= 0) continue;
      const row = `${instance} ${op}`;
      rows.push(row);
      for (const tr of t.trials)
        data.push({ row, series: "trial mean", value: (tr.ns / tr.iterations / a.medianTrialNs - 1) * 100 });
    }
  if (!data.length) return null;
  return {
    kind: "spread",
    file: `img/${alg.id}-spread.svg`,
    title: "Per-trial spread (trial mean relative to the median trial)",
    description: `Dots: each trial's mean time per operation as a percentage above or below the median trial, per ${alg.id} instance and operation.`,
    data,
    rows,
    series: ["trial mean"],
  };
}

function shareChartOf(
  view: SystemView,
  alg: AlgorithmView,
  groups: Array<{ name: string; label: string }>,
): Chart | null {
  const data: ChartDatum[] = [];
  const rows: string[] = [];
  const order = (p: HashProfileRecord) =>
    alg.instances.indexOf(p.instance) * 100 + OPERATION_ORDER.indexOf(p.operation);
  for (const p of [...view.profilesOf(alg.id)].sort((a, b) => order(a) - order(b))) {
    if (p.status !== "ok" || !p.groups) continue;
    const row = `${p.instance} ${p.operation}`;
    rows.push(row);
    for (const g of groups)
      data.push({ row, series: g.label, value: (p.groups.find((x) => x.name === g.name)?.share ?? 0) * 100 });
  }
  if (!data.length) return null;
  return {
    kind: "share",
    file: `img/${alg.id}-share.svg`,
    title: "Share of time in the placeholder hash functions and the DRNG",
    description: `Stacked bars: percentage of each ${alg.id} operation's time spent in each symbol group; the rest of the bar's length to 100% is the algorithm's own code.`,
    data,
    rows,
    series: groups.map((g) => g.label),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Site pages

function katStatus(view: SystemView, alg: AlgorithmView): string {
  const verdicts = alg.instances.map((i) => view.katOf(alg.id, i)?.verdict ?? "not run");
  const counts = new Map<string, number>();
  for (const v of verdicts) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([v, n]) => `${n}/${verdicts.length} ${v}`).join(", ");
}

/** A headline per operation: the mean time of the first parameter set measured. */
function headline(view: SystemView, alg: AlgorithmView): string {
  for (const instance of alg.instances) {
    const parts = view
      .operationsOf(alg, instance)
      .map((op) => {
        const t = view.timingOf(alg.id, instance, op);
        if (!t) return null;
        return t.status === "ok" && t.aggregates ? `${op} ${formatTime(t.aggregates.meanNs)}` : `${op} FAILED`;
      })
      .filter((p): p is string => p !== null);
    if (parts.length) return `${parts.join(", ")} (${instance})`;
  }
  return NOT_MEASURED;
}

export function systemIndexPage(ctx: SiteContext, view: SystemView): Page {
  const failed =
    view.store.timings.filter((t) => t.status !== "ok").length +
    view.store.profiles.filter((p) => p.status !== "ok").length;
  const rows: Cell[][] = view.algorithms.map((alg) => [
    [{ text: alg.id, page: alg.id }],
    cell(alg.name ?? "not recorded"),
    cell(FUNCTION_OF[alg.category]),
    cell(alg.instances.join(", ")),
    cell(katStatus(view, alg)),
    cell(headline(view, alg)),
  ]);
  return {
    kind: "system-index",
    path: `${view.system}/index`,
    header: header(ctx, view, null, (other) => `../${other.system}/index`),
    title: `Performance measurements on system ${view.system} (${archLabel(view.environment?.processor.architecture)})`,
    intro: [
      [
        text(
          `${view.algorithms.length} algorithm(s) measured on ${view.environment ? `${view.environment.processor.model}` : `system ${view.system}`}. See the `,
        ),
        { text: "method", page: "method" },
        text(" and the "),
        { text: "size audit", page: "sizes" },
        text("."),
      ],
      ...(failed
        ? [[text(`${failed} record(s) of this system are failures; their pages say FAILED with the reason.`)]]
        : []),
      ...provenanceNote([view.environment ?? undefined, ...view.store.timings.slice(0, 1)]),
    ],
    sections: [
      section("algorithms", "Algorithms", {
        tables: [
          {
            caption: `Algorithms measured on system ${view.system}`,
            headers: [
              "algorithm",
              "name",
              "function",
              "parameter sets",
              "KAT",
              "mean time per operation (first parameter set)",
            ],
            rows,
            rowHeaders: true,
          },
        ],
      }),
    ],
    footer: footer(ctx, view),
  };
}

export function methodPage(ctx: SiteContext, view: SystemView): Page {
  const env = view.environment;
  const timings = view.store.timings.filter((t) => t.status === "ok");
  const counterRec = env?.counter ?? timings[0]?.counter;
  const counterRows: string[][] = counterRec
    ? [
        ["kind", counterRec.kind],
        [
          "unit",
          counterRec.unit +
            (counterRec.unit === "tsc-ticks" ? " (TSC ticks at a constant reference rate, not core cycles)" : ""),
        ],
        ["rate", counterRec.rateHz ? `${formatG(counterRec.rateHz / 1e6, 6)} MHz` : "not recorded"],
        [
          "read overhead",
          counterRec.overhead === null || counterRec.overhead === undefined
            ? "not recorded"
            : `${formatG(counterRec.overhead, 3)} ${counterRec.unit}`,
        ],
        ...(counterRec.serialization ? [["serialization", counterRec.serialization]] : []),
        ...(counterRec.description ? [["description", counterRec.description]] : []),
      ]
    : [["counter", "not recorded"]];
  const iterations = timings.map((t) => t.aggregates?.iterationsPerTrial ?? 0).filter((n) => n > 0);
  const trialCounts = [...new Set(timings.map((t) => t.aggregates?.trials ?? 0))].sort((a, b) => a - b);
  const targets = [
    ...new Set(timings.map((t) => t.calibration?.targetTrialNs).filter((n): n is number => n !== undefined)),
  ];
  const thresholds = [
    ...new Set(timings.map((t) => t.aggregates?.unstableThreshold).filter((n): n is number => n !== undefined)),
  ];
  const unstable = timings.filter((t) => t.aggregates?.unstable);
  const calibrationRows: string[][] = timings.length
    ? [
        ["trials per operation", trialCounts.join(", ")],
        ["iterations per trial", `${Math.min(...iterations)} – ${Math.max(...iterations)}`],
        ["target trial duration", targets.length ? targets.map((t) => formatTime(t)).join(", ") : "not recorded"],
        ["operations timed", String(timings.length)],
        ["unstable threshold", thresholds.length ? thresholds.map((t) => formatShare(t)).join(", ") : "not recorded"],
        ["operations flagged unstable", String(unstable.length)],
      ]
    : [["timing", NOT_MEASURED]];
  const profiles = new Map<string, { compiler: string; flags: string; instances: number }>();
  for (const t of view.store.timings) {
    const key = t.buildProfile;
    const prev = profiles.get(key);
    if (prev) prev.instances++;
    else
      profiles.set(key, {
        compiler: t.build ? `${t.build.compiler} (${t.build.compilerVersion})` : "not recorded",
        flags: t.build ? t.build.flags.join(" ") || "(none)" : "not recorded",
        instances: 1,
      });
  }
  const envRows = environmentRows(env);
  if (env) {
    envRows.push(["architecture", env.processor.architecture]);
    envRows.push([
      "logical CPUs",
      env.processor.logicalCpus === null ? "not recorded" : String(env.processor.logicalCpus),
    ]);
    if (env.processor.hypervisor !== undefined && env.processor.hypervisor !== null)
      envRows.push(["hypervisor", env.processor.hypervisor ? "yes" : "no"]);
    if (env.hostname) envRows.push(["host name", env.hostname]);
    if (env.runtime?.node) envRows.push(["Node.js", env.runtime.node]);
    if (env.runtime?.ngccPerf) envRows.push(["ngcc-perf", env.runtime.ngccPerf]);
  }
  const table = (caption: string, headers: string[], rows: string[][]) => ({
    caption,
    headers,
    rows: rows.map((r) => r.map((c) => cell(c))),
    rowHeaders: true,
  });
  return {
    kind: "method",
    path: `${view.system}/method`,
    header: header(ctx, view, "method", (other) => `../${other.system}/method`),
    title: `Method of system ${view.system}`,
    intro: [
      [
        text(
          "How the figures of this system's pages were obtained: the counter, calibration, statistics, build profiles and environment, read from the records.",
        ),
      ],
    ],
    sections: [
      section("counter", "Counter", {
        notes: [
          [
            text(
              "The counter column of section 4 is in the counter's unit. x86-64 rdtsc counts at a constant reference rate and is never called cycles; core cycles come from perf_event or from a fixed, known clock (time × clock).",
            ),
          ],
        ],
        tables: [table(`Counter of system ${view.system}`, ["item", "value"], counterRows)],
      }),
      section("calibration", "Calibration", {
        notes: [
          [
            text(
              "Iterations per trial are chosen so that a trial lasts at least the target time; each trial is one timed batch, n = trials × iterations.",
            ),
          ],
        ],
        tables: [table("Calibration over all timing records", ["item", "value"], calibrationRows)],
      }),
      section("statistics", "Statistics", {
        notes: [
          [
            text(
              "Mean time is the mean over all iterations; the median trial is the median of the trials' per-operation means. Records also hold the raw trials, minimum, maximum, quartiles, standard deviation and a Student-t 95% interval. An operation is flagged unstable when (max − min) / median of its trial means exceeds the threshold.",
            ),
          ],
        ],
        after: unstable.length
          ? [[text(`Unstable: ${unstable.map((t) => `${t.algorithmId} ${t.instance} ${t.operation}`).join(", ")}.`)]]
          : [],
      }),
      section("profiles", "Build profiles", {
        tables: profiles.size
          ? [
              table(
                "Build profiles of the timing records",
                ["profile", "compiler", "flags", "timing records"],
                [...profiles].map(([name, p]) => [name, p.compiler, p.flags, String(p.instances)]),
              ),
            ]
          : [],
        notes: profiles.size ? [] : [[text("No timing records: no build profile to show.")]],
      }),
      section("environment", "Environment", {
        tables: [table(`Environment of system ${view.system}`, ["item", "value"], envRows)],
      }),
    ],
    footer: footer(ctx, view),
  };
}

export function sizesPage(ctx: SiteContext, view: SystemView): Page {
  const sections: Section[] = [];
  for (const alg of view.algorithms) {
    const audit = view.audit(alg.id);
    const heading = `${alg.id}${alg.name ? ` ${alg.name}` : ""}`;
    if (!audit) {
      sections.push(section(alg.id, heading, { notes: [[text("Not audited: no size audit in the store.")]] }));
      continue;
    }
    const fields = [
      "publicKeyBytes",
      "secretKeyBytes",
      "ciphertextBytes",
      "signatureBytes",
      "sharedSecretBytes",
    ] as const;
    const label: Record<string, string> = {
      publicKeyBytes: "public key",
      secretKeyBytes: "secret key",
      ciphertextBytes: "ciphertext",
      signatureBytes: "signature",
      sharedSecretBytes: "shared secret",
      publicKeyABytes: "public key A",
      publicKeyBBytes: "public key B",
      message1Bytes: "message 1",
      message2Bytes: "message 2",
      passes: "passes",
    };
    const rows: Cell[][] = [];
    for (const i of audit.instances)
      for (const f of fields) {
        const api = i.api?.[f];
        const cat =
          f === "publicKeyBytes" || f === "ciphertextBytes" || f === "signatureBytes" ? i.catalog?.[f] : undefined;
        const measured =
          f === "publicKeyBytes" || f === "ciphertextBytes" || f === "signatureBytes" ? i.measured?.[f] : undefined;
        const shown = i.table?.[f];
        if (api === undefined && (cat === undefined || cat === null) && measured === undefined && shown === undefined)
          continue;
        const num = (v: number | null | undefined) => (v === undefined || v === null ? DASH : formatBytes(v));
        rows.push([
          [code(i.instance)],
          cell(label[f] ?? f),
          cell(num(cat)),
          cell(num(api)),
          cell(
            measured
              ? measured.min === measured.max
                ? formatBytes(measured.max)
                : `${measured.min}–${measured.max}`
              : DASH,
          ),
          cell(num(shown)),
        ]);
      }
    const findingRows: Cell[][] = audit.findings.map((f) => [
      [code(f.instance)],
      cell(f.kind),
      cell(f.field ? (label[f.field] ?? f.field) : DASH),
      cell(f.catalog === undefined || f.catalog === null ? DASH : String(f.catalog)),
      cell(f.api === undefined || f.api === null ? DASH : String(f.api)),
      cell(f.measured === undefined || f.measured === null ? DASH : String(f.measured)),
      cell(f.note ?? ""),
    ]);
    sections.push(
      section(alg.id, heading, {
        notes: [
          [
            text(
              audit.findings.length
                ? `${audit.findings.length} disagreement(s). `
                : "Catalog, API and measurement agree. ",
            ),
            { text: "Page", page: alg.id, anchor: "sizes" },
            text("."),
          ],
        ],
        tables: [
          ...(findingRows.length
            ? [
                {
                  caption: `Disagreements found for ${alg.id}`,
                  headers: ["instance", "finding", "field", "catalog", "API", "measured", "note"],
                  rows: findingRows,
                  rowHeaders: true,
                },
              ]
            : []),
          ...(rows.length
            ? [
                {
                  caption: `Sizes of ${alg.id} from the catalog, the API and measurement (bytes)`,
                  headers: ["instance", "field", "catalog", "API", "measured", "on the page"],
                  rows,
                  rowHeaders: true,
                },
              ]
            : []),
        ],
      }),
    );
  }
  return {
    kind: "sizes",
    path: `${view.system}/sizes`,
    header: header(ctx, view, "size audit", (other) => `../${other.system}/sizes`),
    title: `Size audit of system ${view.system}`,
    intro: [
      [
        text(
          "Per algorithm: the public-key, ciphertext and signature sizes of the curated catalog against the API figures of the compiled headers and the lengths measured, and every disagreement found. Pages show catalog figures for what is transmitted and API figures for secret keys and shared secrets.",
        ),
      ],
    ],
    sections,
    footer: footer(ctx, view),
  };
}

/** Side by side: the mean time of every (algorithm, instance, operation) measured on several systems, with ratios. */
export function comparePage(ctx: SiteContext): Page {
  const views = ctx.views;
  const base = views[0] as SystemView;
  const ids: string[] = [];
  for (const v of views) for (const a of v.algorithms) if (!ids.includes(a.id)) ids.push(a.id);
  const sections: Section[] = [];
  for (const id of ids) {
    const present = views.filter((v) => v.algorithm(id));
    if (present.length < 2) continue;
    const first = present[0] as SystemView;
    const alg = first.algorithm(id) as AlgorithmView;
    const instances: string[] = [];
    for (const v of present)
      for (const i of (v.algorithm(id) as AlgorithmView).instances) if (!instances.includes(i)) instances.push(i);
    const rows: Cell[][] = [];
    const data: ChartDatum[] = [];
    for (const instance of instances) {
      const ops = new Set<string>();
      for (const v of present) for (const op of v.operationsOf(v.algorithm(id) as AlgorithmView, instance)) ops.add(op);
      for (const op of [...ops].sort(byOperation)) {
        const means = present.map((v) => {
          const t = v.timingOf(id, instance, op);
          return t?.status === "ok" && t.aggregates ? t.aggregates.meanNs : null;
        });
        const cells = means.map((m, i) => {
          const t = (present[i] as SystemView).timingOf(id, instance, op);
          return cell(m !== null ? formatTime(m) : t ? "FAILED" : NOT_MEASURED);
        });
        const ref = means[0];
        const ratios = means
          .slice(1)
          .map((m) => cell(m !== null && ref !== null && ref !== undefined && ref > 0 ? formatRatio(m / ref) : DASH));
        rows.push([[code(instance)], cell(op), ...cells, ...ratios]);
        means.forEach((m, i) => {
          if (m !== null)
            data.push({ row: `${instance} ${op}`, series: (present[i] as SystemView).system, value: m / 1e9 });
        });
      }
    }
    const systems = present.map((v) => v.system);
    const chartRows = [...new Set(data.map((d) => d.row))];
    sections.push(
      section(id, `${id}${alg.name ? ` ${alg.name}` : ""}`, {
        notes: [
          [
            text("Pages: "),
            ...present.flatMap((v, i): Inline[] => [
              ...(i ? [text(" · ")] : []),
              { text: v.system, page: `${v.system}/${id}` },
            ]),
            text(`. Ratios are mean time on each system over the mean time on ${systems[0]}.`),
          ],
        ],
        tables: [
          {
            caption: `Mean time per operation of ${id} on ${systems.join(", ")}`,
            headers: [
              "instance",
              "operation",
              ...systems.map((s) => `mean time ${s}`),
              ...systems.slice(1).map((s) => `${s} / ${systems[0]}`),
            ],
            rows,
            rowHeaders: true,
          },
        ],
        charts: data.length
          ? [
              {
                kind: "compare",
                file: `img/${id}-compare.svg`,
                title: `Mean time per operation on each system (log scale)`,
                description: `Grouped bars: mean time of each ${id} instance and operation on ${systems.join(", ")}, in seconds on a logarithmic axis.`,
                data,
                rows: chartRows,
                series: systems,
              },
            ]
          : [],
      }),
    );
  }
  return {
    kind: "compare",
    path: "compare",
    header: [
      { text: "Performance measurements", page: "index" },
      text(" › "),
      { text: "cross-system comparison", current: true },
    ],
    title: `Cross-system comparison: ${views.map((v) => v.system).join(", ")}`,
    intro: [
      [
        text(
          `Algorithms measured on more than one system, side by side. Times are comparable across systems; counter figures are not (each system has its own counter), so they are left out. Reference system: ${base.system}.`,
        ),
      ],
    ],
    sections: sections.length
      ? sections
      : [
          section("none", "No algorithm on several systems", {
            notes: [[text("No algorithm of the store was measured on more than one system.")]],
          }),
        ],
    footer: footer(ctx, null),
  };
}

export function homePage(ctx: SiteContext): Page {
  const rows: Cell[][] = ctx.views.map((v) => [
    [{ text: v.system, page: `${v.system}/index` }],
    cell(
      v.environment
        ? `${v.environment.processor.model} (${archLabel(v.environment.processor.architecture)})`
        : "not recorded",
    ),
    cell(String(v.algorithms.length)),
    [{ text: "method", page: `${v.system}/method` }, text(" · "), { text: "size audit", page: `${v.system}/sizes` }],
  ]);
  const intro: Inline[][] = [
    [
      text(
        "Independent measurements of post-quantum public-key algorithms (key encapsulation, signatures, key exchange) per system, following the NICCS self-assessment guide §3.5 (1)–(7).",
      ),
    ],
  ];
  if (ctx.views.length > 1)
    intro.push([
      text("Algorithms measured on several systems are compared side by side on the "),
      { text: "cross-system page", page: "compare" },
      text("."),
    ]);
  return {
    kind: "home",
    path: "index",
    header: [{ text: "Performance measurements", current: true }],
    title: "Performance measurements",
    intro,
    sections: [
      section("systems", "Systems", {
        tables: [
          {
            caption: "Systems in this record store",
            headers: ["system", "processor", "algorithms", "pages"],
            rows,
            rowHeaders: true,
          },
        ],
      }),
    ],
    footer: footer(ctx, null),
  };
}

/** Every page of the site. */
export function sitePages(ctx: SiteContext): Page[] {
  const pages: Page[] = [homePage(ctx)];
  for (const view of ctx.views) {
    pages.push(systemIndexPage(ctx, view), methodPage(ctx, view), sizesPage(ctx, view));
    for (const alg of view.algorithms) pages.push(algorithmPage(ctx, view, alg));
  }
  if (ctx.views.length > 1) pages.push(comparePage(ctx));
  return pages;
}
