// Parts every page shares: the header with the system switcher, the footer, the provenance remark, section and
// link helpers, and the cells of tables keyed by instance (with a build-profile column when an algorithm's records
// carry several profiles).
import type { EnvironmentRecord } from "@ngcc-perf/schema";
import { type Cell, cell, code, type Inline, type Section, text } from "./model.ts";
import type { AlgorithmView, Category, InstanceRow, Link, SiteContext, SystemView } from "./view.ts";

export const DASH = "—";
export const NOT_MEASURED = "not measured";

export const FUNCTION_OF: Record<Category, string> = {
  kem: "key encapsulation",
  sign: "digital signature",
  kex: "key exchange",
};

type WithProvenance = { provenance?: { origin?: string } } | null | undefined;

/** A record made to agree with published pages (the seed store), never a measurement of ours. */
export function isSynthesized(record: WithProvenance): boolean {
  return record?.provenance?.origin === "synthesized";
}

/** Every one of the records is synthesized (and there is at least one). */
export function allSynthesized(records: ReadonlyArray<WithProvenance>): boolean {
  return records.length > 0 && records.every(isSynthesized);
}

/** Top folders whose paths a page shows as they are: the system's compiler, headers and libraries. */
const SYSTEM_TOPS = new Set(["usr", "lib", "lib32", "lib64", "libx32", "opt", "etc", "bin", "sbin", "nix", "gnu"]);

/** Where a message's paths are from: the record's system and algorithm (optional). */
export interface PathsAt {
  system?: string;
  algorithmId?: string;
}

/**
 * A message as a page shows it: an absolute path that is not the system's — a build folder, a submission, the
 * evaluator's home or a temporary folder — is shown from the store's build folder (`<build>/<system>/…`, when it is
 * below `…/build/<system>/`), else from the algorithm's submission when the path names a folder `<algorithm-id>`
 * (`kem-90/…`), else as `…/<folder>/<file>`. The steps already write their messages so (`kem-90/…`, `<build>/…`);
 * this is for messages that still hold absolute paths. The record keeps the message as it was.
 */
export function pagePaths(message: string, at: PathsAt = {}): string {
  return message.replace(
    /(^|[\s'"‘(=[])(\/[^\s/'"’),:;\]]+(?:\/[^\s/'"’),:;\]]+)+)/g,
    (_m, pre: string, path: string) => {
      const segs = path.split("/").slice(1);
      if (SYSTEM_TOPS.has(segs[0] ?? "")) return `${pre}${path}`;
      const b = at.system ? segs.findIndex((s, i) => s === "build" && segs[i + 1] === at.system) : -1;
      if (b >= 0) return `${pre}<build>/${segs.slice(b + 1).join("/")}`;
      const a = at.algorithmId ? segs.indexOf(at.algorithmId) : -1;
      if (a >= 0 && a < segs.length - 1) return `${pre}${segs.slice(a).join("/")}`;
      return `${pre}…/${segs.slice(-2).join("/")}`;
    },
  );
}

/**
 * A failure cell: the message's first line whole (a compiler's first error line: file, line and message, never cut
 * mid-path; at most 1,000 characters), then as much of the rest as fits in 160 characters; paths as pagePaths
 * shows them.
 */
export function failedText(f: { reason: string; message: string } | undefined, at?: PathsAt): string {
  if (!f) return "FAILED";
  const [head = "", ...rest] = pagePaths(f.message.trim(), at).split("\n");
  const first = head.replace(/\s+/g, " ").trim();
  const firstShown = first.length > 1000 ? `${first.slice(0, 999)}…` : first;
  const more = rest.join(" ").replace(/\s+/g, " ").trim();
  if (!more) return `FAILED (${f.reason}): ${firstShown}`;
  const room = 160 - first.length - 1;
  const tail = room <= 1 ? "…" : more.length > room ? `${more.slice(0, room - 1)}…` : more;
  return `FAILED (${f.reason}): ${firstShown} ${tail}`;
}

/** The state a figure of an emulated campaign shows instead of a time (never a timing from emulation). */
export const EMULATED = "emulated — not a timing";

/** The architecture the system's records are of: the emulated one under an emulator, else the processor's. */
export function systemArch(env: EnvironmentRecord | null | undefined): string | undefined {
  return env?.emulated ? (env.emulator?.architecture ?? env.processor.architecture) : env?.processor.architecture;
}

/** "AArch64", or "AArch64, emulated on x86-64" for a campaign run through an emulator. */
export function systemArchLabel(env: EnvironmentRecord | null | undefined): string {
  const label = archLabel(systemArch(env));
  return env?.emulated ? `${label}, emulated on ${archLabel(env.processor.architecture)}` : label;
}

/** What an emulated system's pages say once, where a time would be; null for a native system. */
export function emulatedSentence(env: EnvironmentRecord | null | undefined): string | null {
  if (!env?.emulated) return null;
  const emulator = env.emulator?.version ?? env.emulator?.argv[0] ?? "an emulator";
  return `${EMULATED}: the ${archLabel(systemArch(env))} builds of this system ran under ${emulator} on an ${archLabel(env.processor.architecture)} host. KAT verdicts, the functional check, sizes and calls per operation are the target code's own; no time, cycle count, share of time or memory figure is published from emulation.`;
}

export function archLabel(arch: string | undefined): string {
  if (!arch) return "an unrecorded architecture";
  if (arch === "aarch64" || arch === "arm64") return "AArch64";
  if (arch === "x86_64" || arch === "amd64") return "x86-64";
  return arch;
}

export function guideName(arch: string | undefined): string {
  if (arch === "aarch64" || arch === "arm64") return "NICCS ARM self-assessment guide";
  if (arch === "x86_64" || arch === "amd64") return "NICCS x86 self-assessment guide";
  return "NICCS self-assessment guide";
}

/** `a`, `a and b`, `a, b and c`. */
export function listText(items: ReadonlyArray<string>): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A list cut after four items: `a, b, c, d and 5 more`. */
export function shortList(items: ReadonlyArray<string>): string {
  return items.length > 5 ? `${items.slice(0, 4).join(", ")} and ${items.length - 4} more` : listText(items);
}

/** `Performance measurements › arm_1 › kem-20 · system: x86_1 · arm_1`, with links where a page exists. */
export function header(
  ctx: SiteContext,
  view: SystemView,
  here: string | null,
  switchTo: (s: SystemView) => string | null,
): Inline[] {
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

/** The remark that figures come from synthesized records, when any of them is. */
export function provenanceNote(records: ReadonlyArray<WithProvenance>): Inline[][] {
  if (!records.some(isSynthesized)) return [];
  return [
    [
      text(
        "Synthesized records: figures on this page come from records made to agree with published pages (provenance origin “synthesized”); they were not measured by ngcc-perf.",
      ),
    ],
  ];
}

export function footer(ctx: SiteContext, view: SystemView | null): Inline[][] {
  const made = text(
    `Made by ngcc-perf ${ctx.toolVersion} from the record store (${view ? `data/${view.system}/` : "data/"}); every figure comes from a record listed in an evidence index. `,
  );
  if (!view) return [[made, { text: "all systems", page: "index" }]];
  return [[made, { text: "method", page: "method" }, text(" · "), { text: "all systems", page: "../index" }]];
}

export function section(id: string, heading: string, parts: Partial<Omit<Section, "id" | "heading">> = {}): Section {
  return { id, heading, notes: [], tables: [], after: [], charts: [], ...parts };
}

export function linkInline(link: Link | undefined, fallback: string): Inline {
  if (!link) return text(fallback);
  return link.href ? { text: link.label, href: link.href } : text(link.label);
}

export function instanceCell(instance: string): Cell {
  return [code(instance)];
}

/** Several build profiles among an algorithm's records: tables keyed by instance show the profile. */
export function severalProfiles(alg: AlgorithmView): boolean {
  return alg.profiles.length > 1;
}

/** The leading header cells of a table keyed by instance: instance, and the build profile when there are several. */
export function leadHeaders(alg: AlgorithmView): string[] {
  return severalProfiles(alg) ? ["instance", "build profile"] : ["instance"];
}

/** The leading cells of a row keyed by instance (see leadHeaders). */
export function leadCells(alg: AlgorithmView, row: InstanceRow): Cell[] {
  return severalProfiles(alg) ? [instanceCell(row.instance), cell(row.profile ?? DASH)] : [instanceCell(row.instance)];
}

/** A record of one instance × build profile × operation (a step's record: instructions, constant-time, memory). */
type OperationRecord = { instance: string; buildProfile: string; operation: string };

/** The record of a table row's operation: the row's instance and build profile (any profile for a row without one). */
export function recordOfRow<R extends OperationRecord>(
  records: ReadonlyArray<R>,
  row: InstanceRow,
  operation: string,
): R | undefined {
  return records.find(
    (r) =>
      r.instance === row.instance &&
      (row.profile === null || r.buildProfile === row.profile) &&
      r.operation === operation,
  );
}

/**
 * The rows of a table keyed by instance and operation: for every operation of every row of the algorithm, the rows
 * `cells` makes of it after its lead cells (instance, build profile when there are several, operation).
 */
export function operationRows(
  view: SystemView,
  alg: AlgorithmView,
  cells: (lead: Cell[], row: InstanceRow, operation: string) => Cell[][],
): Cell[][] {
  return view
    .rowsOf(alg)
    .flatMap((row) =>
      view.operationsOf(alg, row.instance).flatMap((op) => cells([...leadCells(alg, row), cell(op)], row, op)),
    );
}

/** A row's name in running text and chart labels: the instance, with its build profile when there are several. */
export function rowName(alg: AlgorithmView, row: InstanceRow): string {
  return severalProfiles(alg) && row.profile !== null ? `${row.instance} (${row.profile})` : row.instance;
}

type Commanded = { argv: string[]; sandboxed?: boolean };
type WithCommands = {
  kind?: string;
  instance?: string;
  commands?: Commanded[];
  instances?: Array<{ instance: string; commands?: Commanded[] }>;
};

/** A compiler, assembler, linker or binary tool of a build (by the program's name: gcc, cc, clang-17, aarch64-linux-gnu-gcc, ar, nm …). */
const BUILD_TOOL = /(?:^|[-/])(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+|ar|as|ld|nm|objdump)(?:-\d+(?:\.\d+)*)?$/;

const STEP_OF: Record<string, string> = {
  kat: "KAT",
  timing: "timing",
  "hash-profile": "profiling",
  "size-audit": "size check (printparams)",
};

/**
 * The sentence that records ran submission code unconfined (a command with `sandboxed: false`, the campaign's
 * `sandbox: { enabled: false }`): which steps — the build, KAT, timing, profiling, size check — and for which
 * instances. Nothing when every command ran in the sandbox or the records predate it (no `sandboxed` field).
 */
export function unconfinedNote(records: ReadonlyArray<object | null | undefined>): Inline[][] {
  const steps = new Set<string>();
  const instances = new Set<string>();
  const take = (kind: string, instance: string | undefined, commands: Commanded[] | undefined) => {
    for (const c of commands ?? []) {
      if (c.sandboxed !== false) continue;
      steps.add(BUILD_TOOL.test(c.argv[0] ?? "") ? "build" : (STEP_OF[kind] ?? kind));
      if (instance) instances.add(instance);
    }
  };
  for (const record of records) {
    if (!record) continue;
    const r = record as WithCommands;
    take(r.kind ?? "", r.instance, r.commands);
    for (const i of r.instances ?? []) take(r.kind ?? "", i.instance, i.commands);
  }
  if (steps.size === 0) return [];
  const order = ["build", ...Object.values(STEP_OF)];
  const rank = (step: string) => (order.includes(step) ? order.indexOf(step) : order.length);
  const named = [...steps].sort((a, b) => rank(a) - rank(b));
  const which = instances.size ? ` of ${shortList([...instances].sort())}` : "";
  return [
    [
      text(
        `Ran unconfined: the ${listText(named)}${which} ran submission code without ngcc-perf's sandbox (the campaign set sandbox: { enabled: false }): no confinement of network, files or processes and no resource limits; the records' commands say sandboxed: false.`,
      ),
    ],
  ];
}
