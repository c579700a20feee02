// The profiling build's own measured failures: a submission whose placeholders cannot be wrapped (no visible
// prototype, a variadic symbol, a return type the generator cannot spell) or whose objects nm/objdump cannot read.
// They become failure records (reason "error"); anything else thrown while profiling is an internal error.
export class ProfilingBuildError extends Error {
  override name = "ProfilingBuildError";
}
