// The tool identity lives in @ngcc-perf/schema, where every package (the report too) can reach it.
export { TOOL } from "@ngcc-perf/schema";
