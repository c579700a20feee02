// Every schema by kind, one file each: the campaign, the record kinds of a store (header.ts builds the header they
// share), a submission's meta.json, the exports (the comparison of two stores, a system's summary) and what the
// native programs print (driver-output.ts).
import { betweenRun } from "./between-run.ts";
import { campaign } from "./campaign.ts";
import { codeSize } from "./code-size.ts";
import { comparison } from "./comparison.ts";
import { constantTime } from "./constant-time.ts";
import { driverOutputs } from "./driver-output.ts";
import { environment } from "./environment.ts";
import { hashProfile } from "./hash-profile.ts";
import { instructions } from "./instructions.ts";
import { kat } from "./kat.ts";
import { memory } from "./memory.ts";
import { meta } from "./meta.ts";
import { sizeAudit } from "./size-audit.ts";
import { sizeCatalogRow } from "./size-catalog-row.ts";
import { storeIndex } from "./store-index.ts";
import { summary } from "./summary.ts";
import { survey } from "./survey.ts";
import { timing } from "./timing.ts";

/** Every schema by kind. */
export const schemas = {
  campaign,
  environment,
  timing,
  kat,
  "hash-profile": hashProfile,
  survey,
  "size-catalog-row": sizeCatalogRow,
  "size-audit": sizeAudit,
  "store-index": storeIndex,
  instructions,
  memory,
  "code-size": codeSize,
  "constant-time": constantTime,
  meta,
  comparison,
  summary,
  "between-run": betweenRun,
  ...driverOutputs,
} as const;
