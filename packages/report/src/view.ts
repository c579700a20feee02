// The records of one system indexed for the pages: every record by its full key (algorithm, instance, build
// profile, operation), the algorithms of the index (or of the records when there is no index), and the site's
// context (every system, where the data folders are from the site).
import { join, relative, sep } from "node:path";
import {
  type EnvironmentRecord,
  type HashProfileRecord,
  type KatRecord,
  relativeRecordPath,
  type SizeAuditRecord,
  type StoreIndexRecord,
  type SurveyRecord,
  type TimingRecord,
} from "@ngcc-perf/schema";
import type { AlgorithmRecord, LoadedStore, SystemStore } from "./load.ts";
import { code, type Inline } from "./model.ts";

export type Category = "kem" | "sign" | "kex";
export type Link = { label: string; href?: string | null };

/** One algorithm of one system, resolved from the index and the records. */
export interface AlgorithmView {
  id: string;
  name: string | null;
  category: Category;
  implementations: string[];
  instances: string[];
  links: { security?: Link; method?: Link; submission?: Link };
  katManifest: string | null;
  /** The build profiles its records carry, in alphabetical order (none when it has no records). */
  profiles: string[];
}

/** The key of a row of a table keyed by instance: an instance under one build profile (null: no record at all). */
export interface InstanceRow {
  instance: string;
  profile: string | null;
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

export function byOperation(a: string, b: string): number {
  const ia = OPERATION_ORDER.indexOf(a);
  const ib = OPERATION_ORDER.indexOf(b);
  return (ia < 0 ? 999 : ia) - (ib < 0 ? 999 : ib) || alphabetical(a, b);
}

export const alphabetical = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// Names never hold "/" (the layout's name rule), so "/" joins the parts of a key without ambiguity.
const keyOf = (...parts: string[]): string => parts.join("/");

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Everything of one system the pages need, indexed by the full record key. */
export class SystemView {
  readonly system: string;
  readonly store: SystemStore;
  readonly environment: EnvironmentRecord | null;
  readonly index: StoreIndexRecord | null;
  readonly algorithms: AlgorithmView[];
  private readonly timing = new Map<string, TimingRecord>();
  private readonly hashProfile = new Map<string, HashProfileRecord>();
  private readonly kat = new Map<string, KatRecord>();
  private readonly timingsByAlg = new Map<string, TimingRecord[]>();
  private readonly hashProfilesByAlg = new Map<string, HashProfileRecord[]>();
  private readonly katsByAlg = new Map<string, KatRecord[]>();
  private readonly auditsByAlg = new Map<string, Array<AlgorithmRecord<SizeAuditRecord>>>();
  private readonly surveysByAlg = new Map<string, Array<AlgorithmRecord<SurveyRecord>>>();
  /** Operations recorded per "<algorithm>/<instance>" (under any build profile). */
  private readonly recordedOps = new Map<string, string[]>();
  /** Build profiles per algorithm. */
  private readonly buildProfilesOfAlg = new Map<string, Set<string>>();
  /** Relative path from this system's page folder to its data folder (set by the site for its output folder). */
  dataHref = "";

  constructor(store: SystemStore) {
    this.system = store.system;
    this.store = store;
    this.environment = store.environment;
    this.index = store.index;
    const profiled = (alg: string, profile: string) => {
      const set = this.buildProfilesOfAlg.get(alg) ?? new Set<string>();
      set.add(profile);
      this.buildProfilesOfAlg.set(alg, set);
    };
    for (const t of store.timings) {
      this.timing.set(keyOf(t.algorithmId, t.instance, t.buildProfile, t.operation), t);
      push(this.timingsByAlg, t.algorithmId, t);
      push(this.recordedOps, keyOf(t.algorithmId, t.instance), t.operation);
      profiled(t.algorithmId, t.buildProfile);
    }
    for (const p of store.hashProfiles) {
      this.hashProfile.set(keyOf(p.algorithmId, p.instance, p.buildProfile, p.operation), p);
      push(this.hashProfilesByAlg, p.algorithmId, p);
      profiled(p.algorithmId, p.buildProfile);
    }
    for (const k of store.kats) {
      this.kat.set(keyOf(k.algorithmId, k.instance, k.buildProfile), k);
      push(this.katsByAlg, k.algorithmId, k);
      profiled(k.algorithmId, k.buildProfile);
    }
    for (const a of store.audits) {
      push(this.auditsByAlg, a.key.algorithmId, a);
      profiled(a.key.algorithmId, a.key.buildProfile);
    }
    for (const s of store.surveys) {
      push(this.surveysByAlg, s.key.algorithmId, s);
      profiled(s.key.algorithmId, s.key.buildProfile);
    }
    for (const list of [...this.auditsByAlg.values(), ...this.surveysByAlg.values()])
      list.sort((a, b) => alphabetical(a.key.buildProfile, b.key.buildProfile));
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
        profiles: [],
      });
    }
    // Algorithms and instances the index does not list (or a store without an index) come from the records.
    const seen: Array<{ algorithmId: string; instance?: string; implementation?: string; operation?: string }> = [
      ...this.store.timings,
      ...this.store.kats,
      ...this.store.hashProfiles,
      ...this.store.audits.flatMap((a) =>
        a.record.instances.map((i) => ({ algorithmId: a.key.algorithmId, instance: i.instance })),
      ),
      ...this.store.surveys.map((s) => ({ algorithmId: s.key.algorithmId })),
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
          profiles: [],
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
      v.profiles = [...(this.buildProfilesOfAlg.get(v.id) ?? [])].sort(alphabetical);
      if (indexed.has(v.id)) continue;
      const audit = this.auditsOf(v.id)[0]?.record;
      const ops = opsSeen.get(v.id) ?? new Set<string>();
      v.category = audit?.category ?? (ops.has("enc") ? "kem" : ops.has("sign") || ops.has("verify") ? "sign" : "kex");
    }
    const extra = [...views.values()].filter((v) => !indexed.has(v.id)).sort((a, b) => alphabetical(a.id, b.id));
    return [...(this.index?.algorithms ?? []).map((a) => views.get(a.id) as AlgorithmView), ...extra];
  }

  algorithm(id: string): AlgorithmView | undefined {
    return this.algorithms.find((a) => a.id === id);
  }
  timingOf(alg: string, row: InstanceRow, op: string): TimingRecord | undefined {
    return row.profile === null ? undefined : this.timing.get(keyOf(alg, row.instance, row.profile, op));
  }
  hashProfileOf(alg: string, row: InstanceRow, op: string): HashProfileRecord | undefined {
    return row.profile === null ? undefined : this.hashProfile.get(keyOf(alg, row.instance, row.profile, op));
  }
  katOf(alg: string, row: InstanceRow): KatRecord | undefined {
    return row.profile === null ? undefined : this.kat.get(keyOf(alg, row.instance, row.profile));
  }
  timingsOf(alg: string): TimingRecord[] {
    return this.timingsByAlg.get(alg) ?? [];
  }
  hashProfilesOf(alg: string): HashProfileRecord[] {
    return this.hashProfilesByAlg.get(alg) ?? [];
  }
  katsOf(alg: string): KatRecord[] {
    return this.katsByAlg.get(alg) ?? [];
  }
  /** The size audits of an algorithm, one per build profile, in profile order. */
  auditsOf(alg: string): Array<AlgorithmRecord<SizeAuditRecord>> {
    return this.auditsByAlg.get(alg) ?? [];
  }
  /** The surveys of an algorithm, one per build profile, in profile order. */
  surveysOf(alg: string): Array<AlgorithmRecord<SurveyRecord>> {
    return this.surveysByAlg.get(alg) ?? [];
  }

  /** The rows of a table keyed by instance: each instance under each build profile of the algorithm. */
  rowsOf(alg: AlgorithmView): InstanceRow[] {
    const profiles: Array<string | null> = alg.profiles.length ? alg.profiles : [null];
    return alg.instances.flatMap((instance) => profiles.map((profile) => ({ instance, profile })));
  }

  /** Operations shown for an instance: the category's, or for a key exchange the steps recorded for it. */
  operationsOf(alg: AlgorithmView, instance: string): string[] {
    const indexed = this.index?.algorithms.find((a) => a.id === alg.id)?.operations;
    const recorded = this.recordedOps.get(keyOf(alg.id, instance)) ?? [];
    const base = alg.category === "kex" && recorded.length > 0 ? [] : (indexed ?? CATEGORY_OPERATIONS[alg.category]);
    return [...new Set([...base, ...recorded])].sort(byOperation);
  }

  /** Page link from a page in this system's folder to a store file, if the store holds it (shown as `label`). */
  fileLink(rel: string, label = rel): Inline {
    return this.store.files.has(rel) ? { text: label, code: true, href: `${this.dataHref}${rel}` } : code(label);
  }
  /** Where a loaded record lives, relative to data/<system>/. */
  pathOf(record: object): string | undefined {
    return this.store.pathOf.get(record);
  }
  /** Every record of the system (for what the site says of their provenance). */
  records(): Array<{ provenance?: { origin?: string } }> {
    const s = this.store;
    return [
      ...(s.environment ? [s.environment] : []),
      ...(s.index ? [s.index] : []),
      ...s.timings,
      ...s.hashProfiles,
      ...s.kats,
      ...s.audits.map((a) => a.record),
      ...s.surveys.map((x) => x.record),
    ];
  }
  /** The environment record's place in the store. */
  environmentPath(): string {
    return relativeRecordPath({ kind: "environment", key: { system: this.system } });
  }
}

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
