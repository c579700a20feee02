// Profiler symbol groups: the hash and DRNG functions a profiling build wraps, as the campaign, an algorithm of
// it and a submission's meta.json name them (the `profile` step, docs/methodology.md).
import { type JsonSchema, map } from "./builders.ts";
import { arr, bool, obj, oneOfEnum, str } from "./common.ts";

export const groupKind = oneOfEnum(
  "What the group holds: hash (hash/XOF functions), drng (the randomness source) or other; default drng for a group named drng or holding randombytes, else hash.",
  ["hash", "drng", "other"],
);
/** Where a group came from (the hash-profile and survey records name it). */
export const groupSource = oneOfEnum(
  "Where the group came from: default (the profiler's defaults), campaign (profiler.groups), meta (the submission's meta.json profiler) or algorithm (the campaign's algorithms[].profiler).",
  ["default", "campaign", "meta", "algorithm"],
);
/** Group name → its symbols, label, calls-column names and kind (the campaign's and an algorithm's groups alike). */
export const profilerGroups = (description: string): JsonSchema =>
  map(
    description,
    obj(
      "One symbol group.",
      {
        symbols: arr(
          "Linker symbols wrapped with -Wl,--wrap.",
          { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
          {
            minItems: 1,
          },
        ),
      },
      {
        label: str("Column label in the report, e.g. pseudohash/XOF/sm3 or SHA-3/SHAKE."),
        symbolLabels: map(
          "Symbol → name shown in the calls column (e.g. randombytes → drng); by default a symbol is shown without the prefix all of its group's symbols share.",
          {
            type: "string",
          },
        ),
        kind: groupKind,
        iccs: bool(
          "true: the group is ICCS placeholder functions (worded so on the page); default: true only when every symbol is an ICCS function the submission's meta.json iccs lists or iccs.h declares.",
        ),
      },
    ),
    "^[a-z][a-z0-9_]*$",
  );

/** An algorithm's own profiler groups (a meta.json's or the campaign's algorithms[].profiler). */
export const algorithmProfiler = (description: string): JsonSchema =>
  obj(
    description,
    {
      groups: profilerGroups(
        "Group name → its symbols; added to the campaign's groups, a group of the same name overriding the campaign's.",
      ),
    },
    {
      replaceCampaignGroups: bool("true: these groups instead of the campaign's (or the defaults); default false."),
    },
  );
