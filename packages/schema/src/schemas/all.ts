// Every schema by kind: the record kinds of records.ts, a submission's meta.json (meta.ts) and the exports (the
// comparison of two stores, a system's summary) and what the native programs print (driver-output.ts).
import { comparison } from "./comparison.ts";
import { constantTime } from "./constant-time.ts";
import { driverOutputs } from "./driver-output.ts";
import { instructions } from "./instructions.ts";
import { memory } from "./memory.ts";
import { meta } from "./meta.ts";
import { schemas as records } from "./records.ts";
import { summary } from "./summary.ts";

/** Every schema by kind. */
export const schemas = {
  ...records,
  instructions,
  memory,
  "constant-time": constantTime,
  meta,
  comparison,
  summary,
  ...driverOutputs,
} as const;
