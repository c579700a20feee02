// The error class for bad input lives in @ngcc-perf/schema, where every package (the report too) can reach it.
export { InputError } from "@ngcc-perf/schema";
