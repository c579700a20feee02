// The code-size step: code and data size by ELF section of each instance's own objects under each build profile,
// beside the loadable image of its shared library (docs/methodology.md, "Memory"). One record per instance ×
// build profile, read from the timing build's objects by ngcc-perf (no tool runs on objects compiled from
// submitted code, no process at all); on whenever the memory step is (the footprint adds the two).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { CodeSizeRecord } from "@ngcc-perf/schema";
import { elfLoadSize, RANDOMNESS_SOURCE_NAMES } from "./build.ts";
import { addSectionSizes, ElfError, elfSectionSizes, elfSymbols, pulledObjects } from "./elf-sections.ts";
import type { InstanceSpec } from "./instances.ts";
import { memorySettings } from "./memory.ts";
import type { ResolvedCampaign } from "./resolved.ts";
import {
  type BuiltWithFacts,
  buildWithFacts,
  type Measurement,
  type MeasurementOptions,
  runMeasurement,
} from "./step/measurement.ts";

export const SECTIONS_METHOD =
  "the ELF section headers of the objects read by ngcc-perf (allocated sections by flags: executable = text, no bits = bss, writable = data, the rest rodata, .eh_frame apart as unwind; COMMON symbols as bss); the objects: those of the instance's sources, and of its support files (shared code such as PQClean's common/) those a static link would pull in as from an archive (defining a symbol the others reference)";

type Sections = NonNullable<CodeSizeRecord["sections"]>;

/**
 * Code and data size by section of the instance's own objects: the build's objects of its sources, and those of
 * its support code that a static link pulls in (pulledObjects), never the randomness source the harness provides
 * (RANDOMNESS_SOURCE_NAMES). The error (a limit of the record) when an object cannot be read as ELF.
 */
export function instanceSections(
  spec: Pick<InstanceSpec, "sources" | "support">,
  staticObjects: readonly string[],
): { sections: Sections } | { error: string } {
  const sources = [...spec.sources, ...spec.support];
  const candidates = staticObjects.flatMap((o, k) =>
    RANDOMNESS_SOURCE_NAMES.has(basename(sources[k] ?? "")) ? [] : [{ object: o, own: k < spec.sources.length }],
  );
  try {
    const bufs = candidates.map((c) => readFileSync(c.object));
    const taken = pulledObjects(
      bufs.map((b) => elfSymbols(b)),
      candidates.flatMap((c, k) => (c.own ? [k] : [])),
    );
    const sums = addSectionSizes(taken.map((k) => elfSectionSizes(bufs[k] as Buffer)));
    return {
      sections: {
        textBytes: sums.textBytes,
        rodataBytes: sums.rodataBytes,
        dataBytes: sums.dataBytes,
        bssBytes: sums.bssBytes,
        unwindBytes: sums.unwindBytes,
        objects: taken.map((k) => basename((candidates[k] as { object: string }).object)),
        method: SECTIONS_METHOD,
      },
    };
  } catch (err) {
    if (err instanceof ElfError) return { error: `no section sizes: ${err.message}` };
    throw err;
  }
}

/** The code-size step: one record per instance × build profile; on when the memory step is, or when asked. */
export const codeSizeMeasurement: Measurement<undefined, BuiltWithFacts> = {
  name: "code-size",
  kind: "code-size",
  perInstance: true,
  enabled: (campaign) => memorySettings(campaign).enabled,
  inputs: () => ({ sections: SECTIONS_METHOD }),
  build: buildWithFacts,
  failureFields: (_env, built) => ({ build: { ...built.facts, artifact: built.sharedObject } }),
  measure: async (_env, unit, built) => {
    const read = instanceSections(unit.work.spec, built.staticObjects);
    return {
      build: { ...built.facts, artifact: built.sharedObject },
      ...("sections" in read ? { sections: read.sections } : {}),
      image: { elfImageBytes: elfLoadSize(built.sharedObject), file: built.sharedObject },
      ...("error" in read ? { limits: [read.error] } : {}),
    };
  },
};

/** The code-size step on its own. */
export const codeSizeCampaign = (campaign: ResolvedCampaign, options: MeasurementOptions) =>
  runMeasurement(codeSizeMeasurement, campaign, options);
