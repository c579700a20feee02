// The instructions record: instructions per call of one operation, counted under valgrind's callgrind (the
// `instructions` step, docs/methodology.md "Instruction counts").
import { recordSchema, ref } from "./builders.ts";
import {
  algorithmId,
  arr,
  buildProfileName,
  implementationName,
  inputsHash,
  instanceName,
  int,
  nat,
  nonneg,
  obj,
  oneOfEnum,
  operationName,
  pickDefs,
  str,
  systemId,
} from "./common.ts";

export const instructions = recordSchema(
  "instructions",
  "ngcc-perf instruction-count record",
  "Instructions executed per call of one operation, counted by valgrind's callgrind (Ir, user-mode instructions as valgrind decodes them) around N calls with seeded KAT-DRBG randomness: exact and repeatable, no hardware counter needed. Instructions, never cycles.",
  {
    provenance: ref("provenance", "Where this record came from."),
    system: systemId,
    algorithmId,
    instance: instanceName,
    implementation: implementationName,
    buildProfile: buildProfileName,
    operation: operationName,
    status: oneOfEnum("ok: counted; failed: the job failed, see failure.", ["ok", "failed"]),
  },
  {
    inputsHash,
    failure: ref("failure", "Why the job failed."),
    build: ref("build", "How the counted program was built (the instance's objects of the timing build)."),
    tool: obj(
      "The counting tool.",
      {
        name: oneOfEnum("The tool.", ["callgrind"]),
        version: str("First line of `valgrind --version`, e.g. valgrind-3.19.0."),
      },
      { options: arr("valgrind options used.", { type: "string" }) },
    ),
    randomness: str("Where the instance's randombytes came from, e.g. the KAT CTR_DRBG seeded with 0x00..0x2F."),
    calls: int("Calls counted (N), after the warm-up calls.", { minimum: 1 }),
    warmupCalls: nat("Calls made before counting (not counted)."),
    chunks: int("Collection windows the N calls were run in (each staged outside collection).", { minimum: 1 }),
    inputs: obj("How the inputs varied from call to call (as a timing record's sampling.inputs).", {
      keyPairs: nat("Key pairs in rotation; 0 when the operation takes none."),
      pool: nat("Inputs in the pool; 0 when none."),
      messages: oneOfEnum("fresh, pool or none.", ["fresh", "pool", "none"]),
      description: str("The same in words."),
    }),
    collectedIr: nat("Ir collected over the N calls (the `ngcc-calls` dump), including the client requests."),
    baselineIr: nat("Ir of as many collection toggles around nothing (the `ngcc-baseline` dump)."),
    instructionsPerCall: nonneg("(collectedIr − baselineIr) / calls: the mean instructions per call."),
    messageBytes: nat("Signed message length (signatures)."),
    commands: arr("Child processes run.", ref("command", "One process.")),
  },
  pickDefs("provenance", "failure", "build", "command"),
  {
    allOf: [
      {
        if: { properties: { status: { const: "failed" } }, required: ["status"] },
        then: { required: ["failure"] },
      },
      {
        if: { properties: { status: { const: "ok" } }, required: ["status"] },
        then: { required: ["tool", "calls", "collectedIr", "baselineIr", "instructionsPerCall"] },
      },
    ],
  },
);
