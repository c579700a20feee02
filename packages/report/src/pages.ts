// From a loaded store to the report model: the page per (system, algorithm) with the seeds' sections 1–7 (one
// module per section under sections/), and the site around it (site/: home, per-system index, method page, size
// audit, cross-system comparison).
import type { Page } from "./model.ts";
import {
  emulatedSentence,
  footer,
  guideName,
  header,
  provenanceNote,
  systemArch,
  systemArchLabel,
  unconfinedNote,
} from "./parts.ts";
import { basicSection } from "./sections/basic.ts";
import { constantTimeSection } from "./sections/constant-time.ts";
import { environmentSection } from "./sections/environment.ts";
import { evidenceSection } from "./sections/evidence.ts";
import { katSection } from "./sections/kat.ts";
import { memorySection } from "./sections/memory.ts";
import { performanceSection } from "./sections/performance.ts";
import { sizesSection } from "./sections/sizes.ts";
import { symmetricSection } from "./sections/symmetric.ts";
import { comparePage } from "./site/compare.ts";
import { homePage } from "./site/home.ts";
import { systemIndexPage } from "./site/index.ts";
import { methodPage } from "./site/method.ts";
import { sizesPage } from "./site/sizes.ts";
import { type Baseline, type SummaryRow, summaryPage, summaryRows } from "./site/summary.ts";
import type { AlgorithmView, SiteContext, SystemView } from "./view.ts";

export function algorithmPage(ctx: SiteContext, view: SystemView, alg: AlgorithmView): Page {
  const arch = systemArch(view.environment);
  const emulatedNote = emulatedSentence(view.environment);
  const records = [
    view.environment,
    ...view.timingsOf(alg.id),
    ...view.hashProfilesOf(alg.id),
    ...view.katsOf(alg.id),
    ...view.auditsOf(alg.id).map((a) => a.record),
    ...view.surveysOf(alg.id).map((s) => s.record),
  ];
  return {
    kind: "algorithm",
    path: `${view.system}/${alg.id}`,
    header: header(ctx, view, alg.id, (other) => (other.algorithm(alg.id) ? `../${other.system}/${alg.id}` : null)),
    title: `${alg.id}${alg.name ? ` ${alg.name}` : ""} — performance on ${systemArchLabel(view.environment)} (system ${view.system})`,
    intro: [
      [
        {
          text: `Independent measurement following the structure of the ${guideName(arch)}, §3.5 (1)–(7). Not a submitter self-assessment.`,
        },
      ],
      ...(emulatedNote ? [[{ text: emulatedNote }]] : []),
      ...provenanceNote(records),
      ...unconfinedNote(records),
    ],
    sections: [
      basicSection(view, alg),
      environmentSection(view, alg),
      katSection(view, alg),
      performanceSection(view, alg),
      ...[constantTimeSection(view, alg)].filter((s) => s !== null),
      memorySection(view, alg),
      sizesSection(view, alg),
      symmetricSection(view, alg),
      evidenceSection(view, alg),
    ],
    footer: footer(ctx, view),
  };
}

/** Every page of the site, and per system the rows of its summary (which the site also exports). */
export function sitePages(ctx: SiteContext, baseline: Baseline | null = null): Page[] {
  return siteModel(ctx, baseline).pages;
}

export function siteModel(
  ctx: SiteContext,
  baseline: Baseline | null = null,
): { pages: Page[]; summaries: Array<{ system: string; rows: SummaryRow[] }> } {
  const pages: Page[] = [homePage(ctx)];
  const summaries: Array<{ system: string; rows: SummaryRow[] }> = [];
  for (const view of ctx.views) {
    const rows = summaryRows(view, baseline);
    summaries.push({ system: view.system, rows });
    pages.push(
      systemIndexPage(ctx, view),
      summaryPage(ctx, view, rows, baseline),
      methodPage(ctx, view),
      sizesPage(ctx, view),
    );
    for (const alg of view.algorithms) pages.push(algorithmPage(ctx, view, alg));
  }
  if (ctx.views.length > 1) pages.push(comparePage(ctx));
  return { pages, summaries };
}
