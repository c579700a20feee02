// The index page of a system: its algorithms with name, function, parameter sets, the KAT status and a headline
// time per operation (the mean; the published central figure for records measured per call) — per build profile
// when an algorithm's records carry several (never merged).

import { formatTime } from "../format.ts";
import { type Cell, cell, type Page, text } from "../model.ts";
import {
  EMULATED,
  emulatedSentence,
  FUNCTION_OF,
  footer,
  header,
  NOT_MEASURED,
  provenanceNote,
  section,
  systemArchLabel,
  unconfinedNote,
} from "../parts.ts";
import { headlineFigure, perCallOf } from "../per-call.ts";
import { implausibleChecks, NOT_PLAUSIBLE } from "../plausible.ts";
import type { AlgorithmView, InstanceRow, SiteContext, SystemView } from "../view.ts";

/** The rows of one build profile (all rows when the algorithm has one profile or none). */
function rowsByProfile(view: SystemView, alg: AlgorithmView): Array<{ profile: string | null; rows: InstanceRow[] }> {
  const rows = view.rowsOf(alg);
  if (alg.profiles.length <= 1) return [{ profile: null, rows }];
  return alg.profiles.map((profile) => ({ profile, rows: rows.filter((r) => r.profile === profile) }));
}

function katStatus(view: SystemView, alg: AlgorithmView): string {
  return rowsByProfile(view, alg)
    .map(({ profile, rows }) => {
      const verdicts = rows.map((r) => view.katOf(alg.id, r)?.verdict ?? "not run");
      const counts = new Map<string, number>();
      for (const v of verdicts) counts.set(v, (counts.get(v) ?? 0) + 1);
      const status = [...counts].map(([v, n]) => `${n}/${verdicts.length} ${v}`).join(", ");
      return profile === null ? status : `${profile}: ${status}`;
    })
    .join("; ");
}

/**
 * A headline per operation: the mean time of the first parameter set measured (per build profile); for records
 * measured per call the published central figure (`mean` written where the mean is published), and in a system
 * holding such records a trials record's mean is written `mean …` (and the row says `trials method`).
 */
function headline(view: SystemView, alg: AlgorithmView, perCallSystem: boolean): string {
  const parts = rowsByProfile(view, alg).flatMap(({ profile, rows }) => {
    for (const row of rows) {
      let trials = false;
      const ops = view
        .operationsOf(alg, row.instance)
        .map((op) => {
          const t = view.timingOf(alg.id, row, op);
          if (!t) return null;
          if (t.status !== "ok" || !t.aggregates) return `${op} FAILED`;
          const pc = perCallOf(t);
          // Per call: the published figure; beside per-call records, a trials record's mean says what it is.
          const mark = implausibleChecks(t, view.store.instructions).length ? ` (${NOT_PLAUSIBLE})` : "";
          if (pc) return `${op} ${headlineFigure(pc)}${mark}`;
          trials = true;
          return `${op} ${perCallSystem ? "mean " : ""}${formatTime(t.aggregates.meanNs)}${mark}`;
        })
        .filter((p): p is string => p !== null);
      const method = perCallSystem && trials ? "; trials method" : "";
      if (ops.length) return [`${ops.join(", ")} (${row.instance}${profile === null ? "" : `, ${profile}`}${method})`];
    }
    return profile === null ? [] : [`${profile}: ${NOT_MEASURED}`];
  });
  return parts.length ? parts.join("; ") : NOT_MEASURED;
}

export function systemIndexPage(ctx: SiteContext, view: SystemView): Page {
  const failed =
    view.store.timings.filter((t) => t.status !== "ok").length +
    view.store.hashProfiles.filter((p) => p.status !== "ok").length;
  const perCallSystem = view.store.timings.some((t) => perCallOf(t) !== null);
  const rows: Cell[][] = view.algorithms.map((alg) => [
    [{ text: alg.id, page: alg.id }],
    cell(alg.name ?? "not recorded"),
    cell(FUNCTION_OF[alg.category]),
    cell(alg.instances.join(", ")),
    cell(katStatus(view, alg)),
    cell(view.environment?.emulated ? EMULATED : headline(view, alg, perCallSystem)),
  ]);
  const emulatedNote = emulatedSentence(view.environment);
  const several = view.algorithms.some((a) => a.profiles.length > 1);
  return {
    kind: "system-index",
    path: `${view.system}/index`,
    header: header(ctx, view, null, (other) => `../${other.system}/index`),
    title: `Performance measurements on system ${view.system} (${systemArchLabel(view.environment)})`,
    intro: [
      [
        text(
          `${view.algorithms.length} algorithm(s) measured on ${view.environment ? `${view.environment.processor.model}` : `system ${view.system}`}. See the `,
        ),
        { text: "summary", page: "summary" },
        text(" (every instance and operation in one table, with CSV and JSON exports), the "),
        { text: "method", page: "method" },
        text(" and the "),
        { text: "size audit", page: "sizes" },
        text("."),
      ],
      ...(emulatedNote ? [[text(emulatedNote)]] : []),
      ...(several
        ? [
            [
              text(
                "Where an algorithm was built with several build profiles, its KAT status and headline are given per profile.",
              ),
            ],
          ]
        : []),
      ...(failed
        ? [[text(`${failed} record(s) of this system are failures; their pages say FAILED with the reason.`)]]
        : []),
      ...provenanceNote(view.records()),
      ...unconfinedNote(view.records()),
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
              perCallSystem
                ? `time per operation (first parameter set${several ? " per build profile" : ""}; median per call, or the mean where written)`
                : `mean time per operation (first parameter set${several ? " per build profile" : ""})`,
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
