// The store index: one system's folder of a record store, its algorithms (section 1 facts) and every file with
// its hash (written by `ngcc-perf run` and `ngcc-perf index`).
import { recordSchema, ref } from "./builders.ts";
import {
  algorithmId,
  arr,
  buildProfileName,
  category,
  dateTime,
  instanceName,
  link,
  nat,
  nullable,
  obj,
  oneOfEnum,
  operationName,
  pickDefs,
  relPath,
  str,
  systemId,
} from "./common.ts";
import { recordHeader } from "./header.ts";

export const storeIndex = recordSchema(
  "store-index",
  "ngcc-perf store index",
  "Index of one system's folder of a record store: the algorithms measured (section 1 facts) and every file with its hash.",
  {
    ...recordHeader,
    algorithms: arr(
      "Algorithms in the store.",
      obj(
        "One algorithm.",
        {
          id: algorithmId,
          name: str("Algorithm name, e.g. MAMBA-Frost.", { minLength: 1 }),
          category,
          implementations: arr("Implementation versions measured.", { type: "string" }, { minItems: 1 }),
          instances: arr("Instances (parameter sets), in page order.", instanceName, { minItems: 1 }),
        },
        {
          operations: arr(
            "Operations measured, in page order (e.g. exchange, init_a, init_b, pass1, derive_a, derive_b).",
            operationName,
            { minItems: 1 },
          ),
          links: obj("Section 1 links.", {}, { security: link, method: link, submission: link }),
          katManifest: str(
            "The submission's KAT manifest as named on the page: the algorithm id, then its path inside the submission, e.g. kem-20/KAT/kat.sha256.",
          ),
        },
      ),
    ),
    files: arr(
      "Every record and log of the system's folder.",
      obj(
        "One file.",
        {
          path: relPath,
          kind: oneOfEnum("Record kind, or kat-log.", [
            "environment",
            "timing",
            "kat",
            "kat-log",
            "hash-profile",
            "survey",
            "size-audit",
            "instructions",
            "memory",
            "code-size",
            "constant-time",
          ]),
        },
        {
          sha256: ref("sha256", "SHA-256 of the file."),
          bytes: nat("File size in bytes."),
        },
      ),
    ),
  },
  {
    systems: arr("Every system the published site covers, for the system switcher.", systemId, { minItems: 1 }),
    campaign: obj(
      "The campaign that produced the store.",
      { name: str("Campaign name.") },
      {
        path: str("Campaign file."),
        sha256: ref("sha256", "SHA-256 of the campaign file."),
      },
    ),
    // ---- buildProfiles: the campaign's build profiles (issue 27, i27-registry); one optional field.
    buildProfiles: arr(
      "The build profiles the store's records were made under, as the campaign defines them, in campaign order: the pages show each one's description beside its name.",
      obj(
        "One build profile.",
        { name: buildProfileName, cflags: arr("Compiler flags.", { type: "string" }) },
        { ldflags: arr("Linker flags.", { type: "string" }), description: str("What the profile is for.") },
      ),
    ),
    // ---- end of buildProfiles
    evidenceRoot: str("How section 7 names the folder the paths are relative to, e.g. performance/data/arm_1/."),
    reindexed: arr(
      "Every deliberate re-hash of this index by ngcc-perf index, oldest first: a run never re-hashes a store (it refuses one whose files differ from its index), so each time files were accepted as they are on disk is recorded here and kept by later runs and merges.",
      obj(
        "One re-hash.",
        {
          at: dateTime("When the index was rebuilt (UTC, RFC 3339)."),
          command: str("The command that rebuilt it, e.g. ngcc-perf index.", { minLength: 1 }),
          tool: obj("The program that rebuilt it.", {
            name: str("Program name, e.g. ngcc-perf.", { minLength: 1 }),
            version: str("Program version.", { minLength: 1 }),
          }),
          previousIndex: nullable(
            str("SHA-256 of the index.json it replaced, or null when there was none.", { pattern: "^[0-9a-f]{64}$" }),
          ),
          changed: arr("Files whose SHA-256 or size differed from the previous index.", relPath),
          added: arr("Files the previous index did not list.", relPath),
          removed: arr("Files the previous index listed that were gone.", relPath),
        },
        {
          by: str("Who ran it: the user name and host name (user@host).", { minLength: 1 }),
          dropped: arr("Entries of the previous index that could not be checked, with why.", { type: "string" }),
        },
      ),
    ),
  },
  pickDefs("provenance", "sha256"),
);
