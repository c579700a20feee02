// Paths in the messages records hold (and pages show): the submission's files as
// `<algorithm-id>/<path in the submission>`, the store's build folder as `<build>/…`, the campaign's ICCS folder as
// `<iccs>/…` and ngcc-perf's own native sources as `<ngcc-perf>/native/…` — never the evaluator's home or a
// temporary folder. Logs keep every path as it was (the commands there are the evidence).
import { resolve, sep } from "node:path";
import type { InstanceSpec } from "./instances.ts";
import { nativeDir } from "./native.ts";

/** A folder (absolute) and how a path below it is shown. */
export type PathRoot = readonly [dir: string, shown: string];

/**
 * The roots of an instance's messages: its submission, the store's build folder and the campaign's ICCS folder
 * (when known), ngcc-perf's native/.
 */
export function rootsOf(spec: InstanceSpec, buildDir?: string, iccsDir?: string | null): PathRoot[] {
  return [
    [spec.submissionDir, spec.algorithmId],
    ...(buildDir ? ([[buildDir, "<build>"]] as const) : []),
    ...(iccsDir ? ([[iccsDir, "<iccs>"]] as const) : []),
    [nativeDir(), "<ngcc-perf>/native"],
  ];
}

/** `text` with every path below one of `roots` shown from that root (the deepest root first). */
export function shownPaths(text: string, roots: readonly PathRoot[]): string {
  const sorted = [...roots].map(([d, s]) => [resolve(d), s] as const).sort((a, b) => b[0].length - a[0].length);
  let out = text;
  for (const [dir, shown] of sorted) out = out.split(`${dir}${sep}`).join(`${shown}/`);
  return out;
}
