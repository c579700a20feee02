// The cross-system page: the mean time of every (algorithm, instance, build profile, operation) on each system
// that holds the algorithm, with ratios and a chart. Rows are per build profile, so a profile is only ever
// compared with the same profile on another system.

import { fitTimeAxis } from "../charts.ts";
import { formatRatio, formatTime } from "../format.ts";
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
} from "../model.ts";
import { DASH, EMULATED, footer, NOT_MEASURED, section } from "../parts.ts";
import { type AlgorithmView, alphabetical, byOperation, type SiteContext, type SystemView } from "../view.ts";

function compareSection(id: string, present: SystemView[]): Section {
  const algs = present.map((v) => v.algorithm(id) as AlgorithmView);
  const alg = algs[0] as AlgorithmView;
  const instances: string[] = [];
  for (const a of algs) for (const i of a.instances) if (!instances.includes(i)) instances.push(i);
  const union = [...new Set(algs.flatMap((a) => a.profiles))].sort(alphabetical);
  const profiles: Array<string | null> = union.length ? union : [null];
  const several = union.length > 1;
  const rows: Cell[][] = [];
  const data: ChartDatum[] = [];
  for (const instance of instances)
    for (const profile of profiles) {
      const key = { instance, profile };
      const ops = new Set<string>();
      present.forEach((v, i) => {
        for (const op of v.operationsOf(algs[i] as AlgorithmView, instance)) ops.add(op);
      });
      for (const op of [...ops].sort(byOperation)) {
        const records = present.map((v) => v.timingOf(id, key, op));
        const means = records.map((t) => (t?.status === "ok" && t.aggregates ? t.aggregates.meanNs : null));
        const cells = means.map((m, i) =>
          cell(
            m !== null
              ? formatTime(m)
              : records[i]
                ? "FAILED"
                : present[i]?.environment?.emulated &&
                    algs[i]?.instances.includes(instance) &&
                    (profile === null || algs[i]?.profiles.includes(profile))
                  ? EMULATED
                  : NOT_MEASURED,
          ),
        );
        const ref = means[0];
        const ratios = means
          .slice(1)
          .map((m) => cell(m !== null && ref !== null && ref !== undefined && ref > 0 ? formatRatio(m / ref) : DASH));
        rows.push([[code(instance)], ...(several ? [cell(profile ?? DASH)] : []), cell(op), ...cells, ...ratios]);
        const name = several ? `${instance} (${profile}) ${op}` : `${instance} ${op}`;
        means.forEach((m, i) => {
          if (m !== null) data.push({ row: name, series: (present[i] as SystemView).system, value: m });
        });
      }
    }
  const systems = present.map((v) => v.system);
  return section(id, `${id}${alg.name ? ` ${alg.name}` : ""}`, {
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
          ...(several ? ["build profile"] : []),
          "operation",
          ...systems.map((s) => `mean time ${s}`),
          ...systems.slice(1).map((s) => `${s} / ${systems[0]}`),
        ],
        rows,
        rowHeaders: true,
      },
    ],
    charts: data.length ? [compareChart(id, several, systems, data)] : [],
  });
}

/** Grouped bars of the mean times (given in ns), on an axis fitted to them. */
function compareChart(id: string, several: boolean, systems: string[], data: ChartDatum[]): Chart {
  const fitted = fitTimeAxis(data, "mean time per operation");
  return {
    kind: "compare",
    file: `img/${id}-compare.svg`,
    title: `Mean time per operation on each system${fitted.axis.log ? " (logarithmic axis)" : ""}`,
    description: `Grouped bars: mean time of each ${id} instance${several ? ", build profile" : ""} and operation on ${systems.join(", ")}, written after each bar, on a ${fitted.axis.log ? "logarithmic" : "linear"} axis.`,
    data: fitted.data,
    rows: [...new Set(data.map((d) => d.row))],
    series: systems,
    axis: fitted.axis,
  };
}

/** Side by side: every algorithm the store holds on several systems. */
export function comparePage(ctx: SiteContext): Page {
  const views = ctx.views;
  const ids: string[] = [];
  for (const v of views) for (const a of v.algorithms) if (!ids.includes(a.id)) ids.push(a.id);
  const sections: Section[] = [];
  for (const id of ids) {
    const present = views.filter((v) => v.algorithm(id));
    if (present.length >= 2) sections.push(compareSection(id, present));
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
          "Algorithms the store holds for more than one system, side by side. Times are comparable across systems; counter figures are not (each system has its own counter), so they are left out. Each section names the system its ratios are relative to.",
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
