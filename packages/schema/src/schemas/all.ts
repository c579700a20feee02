// Every schema by kind, one file each: the campaign, the record kinds of a store (header.ts builds the header they
// share), a submission's meta.json and the exports (the comparison of two stores, a system's summary).
import { campaign } from "./campaign.ts";
import { comparison } from "./comparison.ts";
import { constantTime } from "./constant-time.ts";
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
  "constant-time": constantTime,
  meta,
  comparison,
  summary,
} as const;
