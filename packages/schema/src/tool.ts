// The name and version written into every record's provenance. Each package's build defines __VERSION__
// (its package.json version); the packages of one release share it.
declare const __VERSION__: string;

export const TOOL = {
  name: "ngcc-perf",
  version: typeof __VERSION__ === "string" ? __VERSION__ : "0.0.0-dev",
} as const;
