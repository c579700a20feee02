// The one tsup configuration every package uses: each package's tsup.config.ts is three lines.
import { defineConfig, type Options } from "tsup";

export interface PackageBuild {
  /** Entry points relative to the package, e.g. ["src/index.ts"]. */
  entry: string[];
  /** Extra options for the odd package (e.g. a bin banner). */
  extra?: Partial<Options>;
}

export function packageTsupConfig({ entry, extra = {} }: PackageBuild) {
  return defineConfig({
    entry,
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: true,
    sourcemap: true,
    clean: true,
    splitting: false,
    treeshake: true,
    outDir: "dist",
    ...extra,
  });
}
