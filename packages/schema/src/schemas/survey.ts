// The survey record: whether an algorithm uses the ICCS placeholder functions only, mixes them with its own
// primitives or bypasses them, per algorithm × build profile (made by the `profile` step beside the hash profiles).
import { recordSchema } from "./builders.ts";
import {
  algorithmId,
  arr,
  bool,
  buildProfileName,
  inputsHash,
  instanceName,
  obj,
  oneOfEnum,
  pickDefs,
  str,
  systemId,
} from "./common.ts";
import { provenance } from "./header.ts";
import { groupKind, groupSource } from "./profiler-groups.ts";

const verdictEnum = ["ICCS-only", "mixed", "bypass"] as const;
export const survey = recordSchema(
  "survey",
  "ngcc-perf symmetric-primitive survey verdict",
  "Whether an algorithm uses the ICCS placeholder functions only, mixes them with its own primitives, or bypasses them; the automatic finding and the curated text are kept apart.",
  {
    provenance,
    algorithmId,
    verdict: oneOfEnum("Published verdict: the curated one when given, else the automatic one.", verdictEnum),
  },
  {
    system: systemId,
    buildProfile: buildProfileName,
    inputsHash,
    automatic: obj(
      "What the survey found in the built objects.",
      {
        verdict: oneOfEnum("Automatic verdict.", verdictEnum),
      },
      {
        placeholders: arr("Placeholder symbols referenced.", { type: "string" }),
        ownPrimitives: arr(
          "Own primitives found (by symbol or constant fingerprint).",
          obj("One primitive.", {
            name: str("Primitive, e.g. Keccak-f[1600], AES, ChaCha20, SHA-256, SM3."),
            evidence: str("What gave it away: a symbol, a constant fingerprint, an object file."),
          }),
        ),
        shims: arr(
          "Functions that only forward to a placeholder (e.g. shake256 → pseudoXOF).",
          obj("One shim.", {
            symbol: str("The shim."),
            forwardsTo: str("The placeholder it calls."),
          }),
        ),
        switches: arr(
          "Compile-time switches that change the answer.",
          obj("One switch.", {
            define: str("The macro, e.g. KAT_BUILD."),
            effect: str("What changes with it."),
          }),
        ),
        text: str("Generated one-line summary."),
        groups: arr(
          "The profiler groups the survey looked for (its placeholders are their symbols).",
          obj(
            "One group.",
            {
              name: str("Group name.", { pattern: "^[a-z][a-z0-9_]*$" }),
            },
            {
              label: str("Column label."),
              kind: groupKind,
              iccs: bool("Whether the group is ICCS placeholder functions."),
              source: groupSource,
            },
          ),
        ),
        instances: arr(
          "Per instance: what its timing build references and contains.",
          obj(
            "One instance.",
            {
              instance: instanceName,
              verdict: oneOfEnum("Verdict of this instance alone.", verdictEnum),
            },
            {
              placeholders: arr("Placeholder (hash group) symbols its objects reference.", { type: "string" }),
              drng: arr("DRNG group symbols its objects reference (empty: the DRNG is bypassed).", {
                type: "string",
              }),
              ownPrimitives: arr("Own primitives found in its objects.", { type: "string" }),
              defines: arr("The defines of its timing build.", { type: "string" }),
            },
          ),
        ),
      },
    ),
    curated: obj(
      "Curated wording from the campaign's notes file.",
      {},
      {
        verdict: oneOfEnum("Curated verdict overriding the automatic one.", verdictEnum),
        text: str("Curated summary shown after the verdict, e.g. shake* names are shims over pseudoXOF."),
        source: str("Notes file the wording came from."),
      },
    ),
    text: str("Summary shown after the verdict on the page (curated text when given)."),
  },
  pickDefs("provenance"),
);
