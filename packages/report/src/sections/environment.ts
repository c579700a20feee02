// Section 2 of the algorithm page: the assessment environment (environment.json, the seven rows of the seeds) and,
// after the table, the build profiles the page's records were made with.
import type { EnvironmentRecord } from "@ngcc-perf/schema";
import { formatGHz, formatSmt, formatUtc } from "../format.ts";
import { cell, type Inline, text } from "../model.ts";
import { archLabel, EMULATED, listText, section } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

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
  clock += `, boost ${c.boost ?? "unknown"}, SMT ${formatSmt(c.smt)}`;
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
    ...(env.emulated
      ? [
          [
            "emulator",
            `${env.emulator?.version ?? "not recorded"} (${(env.emulator?.argv ?? []).join(" ")}): the ${archLabel(env.emulator?.architecture)} builds ran emulated on this ${archLabel(p.architecture)} processor — ${EMULATED}`,
          ],
        ]
      : []),
  ];
}

/**
 * What each build profile of the algorithm's records was built with, as the records say, and what it is for as the
 * store index says (the campaign's description of the profile), when it says.
 */
function profileRemark(view: SystemView, alg: AlgorithmView): Inline[][] {
  if (alg.profiles.length === 0) return [];
  const builds = [...view.timingsOf(alg.id), ...view.katsOf(alg.id), ...view.hashProfilesOf(alg.id)];
  const described = new Map((view.index?.buildProfiles ?? []).map((p) => [p.name, p.description]));
  const parts = alg.profiles.map((profile) => {
    const flags = new Set<string>();
    for (const r of builds) if (r.buildProfile === profile && r.build) flags.add(r.build.flags.join(" ") || "no flags");
    const how = flags.size === 0 ? "flags not recorded" : [...flags].map((f) => `flags ${f}`).join(" or ");
    const description = described.get(profile);
    return `${profile} (${description ? `“${description}”; ` : ""}${how})`;
  });
  const one = alg.profiles.length === 1;
  return [
    [
      text(
        `${one ? "Build profile" : "Build profiles"} of the records on this page: ${listText(parts)}${one ? "" : "; tables keyed by instance show the profile of each row"}.`,
      ),
    ],
  ];
}

export function environmentSection(view: SystemView, alg: AlgorithmView) {
  return section("environment", "2. Assessment environment", {
    tables: [
      {
        caption: `Assessment environment of system ${view.system}`,
        headers: ["item", "value"],
        rows: environmentRows(view.environment).map(([k, v]) => [cell(k ?? ""), cell(v ?? "")]),
        rowHeaders: true,
      },
    ],
    after: profileRemark(view, alg),
  });
}
