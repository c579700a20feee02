// The instructions record: instructions per call of one operation, counted under valgrind's callgrind (the
// `instructions` step, docs/methodology.md "Instruction counts").
import { ref } from "./builders.ts";
import { arr, int, nat, nonneg, obj, oneOfEnum, pickDefs, str } from "./common.ts";
import { jobFields, jobStatus, operationRecord } from "./header.ts";

export const instructions = operationRecord({
  kind: "instructions",
  title: "ngcc-perf instruction-count record",
  description:
    "Instructions executed per call of one operation, counted by valgrind's callgrind (Ir, user-mode instructions as valgrind decodes them) call by call over N calls with seeded KAT-DRBG randomness: exact and repeatable, no hardware counter needed. The randomness source's instructions are not in the operation's count (collection is off inside randombytes while a call is counted; records made before per-call counting include them and have no perCall). Instructions, never cycles.",
  status: jobStatus("counted"),
  fields: {
    ...jobFields("How the counted program was built (the instance's objects of the timing build)."),
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
    collectedIr: nat(
      "Ir collected over the N calls (the sum of the per-call dumps `ngcc-call-<c>`; older records: the one `ngcc-calls` dump), including the client requests.",
    ),
    baselineIr: nat(
      "Ir of N collection toggle pairs around nothing (the `ngcc-baseline` dump): baselineIr / N is what one pair of client requests counts.",
    ),
    instructionsPerCall: nonneg(
      "The mean instructions per call of the algorithm alone: the mean of perCall.instructions (older records: (collectedIr − baselineIr) / calls, the randomness source included).",
    ),
    perCall: obj(
      "Each counted call's instructions, the algorithm alone: the call's dump less one toggle pair (baselineIr / N) per pair of client requests in it (its own, and one per randombytes call, inside which collection is off).",
      {
        instructions: arr("One per counted call, call 1 first.", { type: "number", minimum: 0 }, { minItems: 1 }),
        min: nonneg("The fewest instructions of a call."),
        max: nonneg("The most instructions of a call."),
        median: nonneg("The median over the calls."),
      },
    ),
    randombytes: obj(
      "The randomness source beside the count (not in it): per counted call, means over the N counted calls.",
      {
        calls: nonneg("randombytes calls per counted call (mean)."),
        bytes: nonneg("Bytes drawn per counted call (mean)."),
        instructions: nonneg(
          "The DRBG's instructions per counted call (mean): the calls' requests replayed in order with collection on (the `ngcc-randombytes` dump, less one toggle pair), divided by N. AES-256 CTR_DRBG's instructions depend on the request lengths, not on the data.",
        ),
      },
      { replayIr: nat("Ir of the `ngcc-randombytes` dump (the replay, one toggle pair included).") },
    ),
    messageBytes: nat("Signed message length (signatures)."),
    commands: arr("Child processes run.", ref("command", "One process.")),
  },
  defs: pickDefs("provenance", "failure", "build", "command"),
  ok: { required: ["tool", "calls", "collectedIr", "baselineIr", "instructionsPerCall"] },
});
