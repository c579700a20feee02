// The output of ngcc-perf's native programs (the timing driver's commands, the counter probe, the instruction
// counter, the constant-time test) checked before anything is read from it: all but the probe run a submission's
// code in their own process, so their JSON line is what that process wrote (docs/security.md). The schema of the kind
// (schemas/driver-output.ts) first — types, bounds, no field it does not print — then what one field implies for
// another, which a schema cannot say: indices below the count they index, arrays of the length a count gives.
import * as compiled from "./generated/validators.js";
import { type DriverOutputKind, driverOutputs } from "./schemas/driver-output.ts";
import { type ValidationError, validatorErrors } from "./validate.ts";

export { DRIVER_OUTPUT_KINDS, type DriverOutputKind } from "./schemas/driver-output.ts";

const validators: Record<DriverOutputKind, unknown> = {
  "driver-info": compiled.driver_info,
  "driver-check": compiled.driver_check,
  "driver-time": compiled.driver_time,
  "driver-sample": compiled.driver_sample,
  "driver-memory": compiled.driver_memory,
  "driver-overhead": compiled.driver_overhead,
  "driver-probe": compiled.driver_probe,
  "driver-icount": compiled.driver_icount,
  "driver-ct": compiled.driver_ct,
  "driver-leak": compiled.driver_leak,
};

type Json = Record<string, unknown>;
const lengthOf = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/** An array's length against the count it must equal. */
function sameLength(out: ValidationError[], value: unknown, pointer: string, expected: number, of: string): void {
  if (value !== undefined && lengthOf(value) !== expected)
    out.push({ pointer, message: `must have ${expected} entries (${of}), has ${lengthOf(value)}` });
}

/** An index against the count it indexes. */
function below(out: ValidationError[], value: unknown, pointer: string, bound: number, of: string): void {
  if (typeof value === "number" && value >= bound)
    out.push({ pointer, message: `must be below ${bound} (${of}), is ${value}` });
}

function sampleRelations(v: Json, out: ValidationError[]): void {
  const n = lengthOf(v.samples);
  const switched = (v.switchedOut ?? []) as number[];
  switched.forEach((at, i) => {
    below(out, at, `/switchedOut/${i}`, n, "a sample index: the sample count");
    if (i > 0 && at <= (switched[i - 1] as number))
      out.push({ pointer: `/switchedOut/${i}`, message: `must be above the index before it (${switched[i - 1]})` });
  });
  sameLength(out, (v.clockChain as Json | undefined)?.deltas, "/clockChain/deltas", n, "one per sample");
  sameLength(out, (v.throughputChain as Json | undefined)?.deltas, "/throughputChain/deltas", n, "one per sample");
  if ((v.clockChain === undefined) !== (v.throughputChain === undefined))
    out.push({ pointer: "/throughputChain", message: "must be present exactly when clockChain is" });
  const settings = v.settings as Json;
  const [min, max] = [settings.minSamples as number, settings.maxSamples as number];
  if (n < min || n > max)
    out.push({ pointer: "/samples", message: `must have ${min}–${max} entries (minSamples–maxSamples), has ${n}` });
}

function memoryRelations(v: Json, out: ValidationError[]): void {
  const inputs = v.inputs as Json | undefined;
  if (inputs === undefined) return;
  const n = inputs.count as number;
  if (n > (inputs.asked as number))
    out.push({ pointer: "/inputs/count", message: `must be at most asked (${inputs.asked}), is ${n}` });
  below(out, v.stackMaxInput, "/stackMaxInput", n, "an input index: inputs.count");
  below(out, v.heapMaxInput, "/heapMaxInput", n, "an input index: inputs.count");
  for (const k of ["stackBytesPerInput", "heapPeakBytesPerInput", "heapAllocationsPerInput"])
    sameLength(out, v[k], `/${k}`, n, "one per input: inputs.count");
}

function timeRelations(v: Json, out: ValidationError[]): void {
  const cal = v.calibration as Json;
  const per = v.iterationsPerTrial as number;
  if (per < (cal.minIterations as number) || per > (cal.maxIterations as number))
    out.push({
      pointer: "/iterationsPerTrial",
      message: `must be within ${cal.minIterations}–${cal.maxIterations} (calibration.minIterations–maxIterations), is ${per}`,
    });
  (v.trials as Json[]).forEach((t, i) => {
    if (t.iterations !== per)
      out.push({
        pointer: `/trials/${i}/iterations`,
        message: `must be iterationsPerTrial (${per}), is ${t.iterations}`,
      });
  });
}

function icountRelations(v: Json, out: ValidationError[]): void {
  const rb = v.randombytes as Json;
  for (const k of ["calls", "bytes"]) sameLength(out, rb[k], `/randombytes/${k}`, v.calls as number, "one per call");
}

function leakRelations(v: Json, out: ValidationError[]): void {
  const n = v.measurements as number;
  sameLength(out, v.times, "/times", n, "one per measurement");
  if ((v.class as string).length !== n)
    out.push({
      pointer: "/class",
      message: `must have ${n} digits (one per measurement), has ${(v.class as string).length}`,
    });
}

const relations: Partial<Record<DriverOutputKind, (v: Json, out: ValidationError[]) => void>> = {
  "driver-leak": leakRelations,
  "driver-sample": sampleRelations,
  "driver-memory": memoryRelations,
  "driver-time": timeRelations,
  "driver-icount": icountRelations,
};

/**
 * A native program's parsed output checked against the schema of its kind, then its fields against each other.
 * Errors carry JSON pointers; none when the output is what the program prints.
 */
export function validateDriverOutput(kind: DriverOutputKind, value: unknown): ValidationError[] {
  const errors = validatorErrors(validators[kind], driverOutputs[kind], value);
  if (errors.length > 0) return errors;
  const out: ValidationError[] = [];
  relations[kind]?.(value as Json, out);
  return out;
}
