// The constant-time record: one operation of one instance run under valgrind's memcheck with its secrets marked
// undefined, at each optimisation level (the `constant-time` step, docs/methodology.md "Constant-time smoke test").
import { ref } from "./builders.ts";
import { arr, int, nat, num, obj, oneOfEnum, pickDefs, str } from "./common.ts";
import { jobFields, jobStatus, operationRecord } from "./header.ts";

const frame = (description: string) =>
  obj(
    description,
    {},
    {
      file: str(
        "Source file from the debug information: relative to the submission folder when inside it, else as valgrind names it (folder and file).",
      ),
      line: int("Line in that file.", { minimum: 1 }),
      function: str("Function (the inlined one when the frame is inlined)."),
      object: str("The object file (executable or library) the instruction belongs to, when no source is known."),
    },
  );

const finding = obj(
  "One finding: memcheck's errors of one kind at one place, summed.",
  {
    kind: str(
      "memcheck's error kind: UninitCondition (a conditional jump or move depends on secret data), UninitValue (secret data used as an address or passed on), SyscallParam, InvalidRead, …, or UninitVarLat (the patched memcheck: an integer division with a secret-derived operand).",
    ),
    check: oneOfEnum(
      "The check that found it: variable latency (kind UninitVarLat: an instruction whose latency depends on its operands, an integer division, on secret data) or branch/index (every other kind).",
      ["branch/index", "variable latency"],
    ),
    what: str("memcheck's description of the first of these errors."),
    count: int("How many times memcheck saw it (its errorcounts, summed over the errors grouped here).", {
      minimum: 1,
    }),
    contexts: int("Distinct call stacks memcheck reported for it (grouped here).", { minimum: 1 }),
    top: frame("The innermost stack frame (where the error happened)."),
    status: oneOfEnum("open: a leak not triaged; accepted: the campaign's triage accepts it (reason).", [
      "open",
      "accepted",
    ]),
  },
  {
    location: frame(
      "The first (innermost) stack frame inside the submission's own sources: what triage matches and the page shows. Absent when no frame is (e.g. only library code).",
    ),
    reason: str("Why the campaign's triage accepts it (accepted only)."),
  },
);

const checkOutcome = (what: string, notRun: boolean) =>
  obj(
    what,
    {
      status: oneOfEnum(
        `pass: no finding at any level; open: at least one open finding; accepted: findings, every one accepted by the triage${notRun ? "; not run: the check did not run (reason)" : ""}.`,
        notRun ? ["pass", "open", "accepted", "not run"] : ["pass", "open", "accepted"],
      ),
      open: nat("Open findings over all levels."),
      accepted: nat("Accepted findings over all levels."),
    },
    notRun ? { reason: str("Why it did not run (not run only).") } : {},
  );

const level = obj(
  "The run at one optimisation level.",
  {
    level: str("The optimisation flag, e.g. -O2, which replaced the profile's -O flag."),
    flags: arr("Compiler flags of the instance's objects: the profile's, its -O flag replaced, -g added.", {
      type: "string",
    }),
    verdict: oneOfEnum("pass: no open finding; leaks found: at least one.", ["pass", "leaks found"]),
    errorsReported: nat("Errors memcheck reported in all (its errorcounts summed), accepted or open."),
    findings: arr("The findings, open ones first.", finding),
    command: ref("command", "The valgrind process."),
  },
  {
    declassifiedSites: arr(
      "Where the submission itself declared data public (crypto_declassify, native/declassify/crypto_declassify.h) while a tested call ran: memcheck saw those bytes as defined from there on, so nothing computed from them afterwards is a finding. Absent on records written before the hook existed.",
      obj("One call site.", {
        file: str(
          "Its source file: relative to the submission folder when inside it, else as the compiler was given it.",
        ),
        line: nat("Its line (__LINE__: what a #line directive of the source says, if any)."),
        calls: int("Calls there over the level's tested calls.", { minimum: 1 }),
        bytes: nat("Bytes declassified there, summed."),
      }),
    ),
    declassifyOtherCalls: nat("Calls at further sites the program did not list (beyond its first 64)."),
  },
);

const LEAK_STATUS = ["leak", "leak likely", "no leak detected", "too few measurements", "not run"] as const;

const worker = obj("One worker process of the statistical test: its command and every measurement it made.", {
  seed: nat("Its --seed."),
  measurements: int("Calls it measured.", { minimum: 1 }),
  times: arr("Each call's counter delta, in call order (the raw samples).", { type: "number", minimum: 0 }),
  class: str("Each call's class, in call order: 0 fixed, 1 random.", { pattern: "^[01]*$" }),
  command: ref("command", "The process."),
});

const statistical = obj(
  "The fixed-vs-random timing test (dudect's method) of this operation: calls of two input classes interleaved in random order in pinned worker processes, Welch's t between the classes on the raw per-call times, on the times below each of 100 percentiles (cropped) and on the squared distance to the class mean (second order); the largest |t| over the tests with at least 1,000 measurements of each class decides. It detects; no leak detected is no proof of none (a VM's noise hides small leaks).",
  {
    status: oneOfEnum(
      "leak: max |t| >= 10; leak likely: >= 4.5; no leak detected: below, over at least 10,000 measurements; too few measurements: fewer; not run: the operation has no input classes, the test is off, or its program failed (reason).",
      [...LEAK_STATUS],
    ),
  },
  {
    reason: str("Why it did not run (not run only)."),
    accepted: str(
      "The campaign's reason for accepting this leak or leak likely (constantTime.statistical.accepted); absent otherwise.",
    ),
    maxT: num("The largest |t|.", { minimum: 0 }),
    test: str("The test it came from: raw, second order, or cropped below p<percentile>."),
    testMeasurements: nat("Measurements that test used."),
    measurements: nat("Measurements in all (both classes)."),
    perClass: arr(
      "Measurements of each class: fixed, random.",
      { type: "integer", minimum: 0 },
      { minItems: 2, maxItems: 2 },
    ),
    rawT: num("|t| of the raw times.", { minimum: 0 }),
    secondOrderT: num("|t| of second order (0 before it ran).", { minimum: 0 }),
    thresholds: obj("The verdict's thresholds.", {
      leak: num("|t| for leak."),
      likely: num("|t| for leak likely."),
      enoughMeasurements: int("Measurements below which the verdict is too few measurements.", { minimum: 1 }),
    }),
    budget: obj("What the run was allowed.", {
      seconds: num("Seconds of measuring.", { minimum: 0 }),
      maxMeasurements: int("Measurements.", { minimum: 1 }),
    }),
    stoppedBy: oneOfEnum("What ended the run.", ["leak", "time budget", "measurement budget"]),
    seconds: num("Seconds the workers ran, in all.", { minimum: 0 }),
    classes: obj("The two input classes, in words.", {
      fixed: str("Class 0: the same inputs at every call."),
      random: str("Class 1: inputs that differ from call to call."),
    }),
    counter: obj("The counter the calls were timed with.", {
      kind: str("Its kind (rdtsc, cntvct, clock_gettime, …)."),
      unit: str("Its unit."),
      rateHz: { description: "Increments per second, or null.", anyOf: [{ type: "number" }, { type: "null" }] },
    }),
    pinnedCpu: {
      description: "The CPU the workers were pinned to, or null.",
      anyOf: [{ type: "integer", minimum: 0 }, { type: "null" }],
    },
    flags: arr("Compiler flags of the instance's objects: the build profile's, as timed.", { type: "string" }),
    workers: arr("The worker processes, in order, with their raw samples.", worker),
  },
);

export const constantTime = operationRecord({
  kind: "constant-time",
  title: "ngcc-perf constant-time record",
  description:
    "One operation run under valgrind's memcheck with the DRNG's output and the secret inputs marked undefined and the public outputs declassified, at two or more optimisation levels: each use of secret data in a branch or an address is a finding (file:line from debug information, with a count), accepted by the campaign's triage or open. Run with the patched memcheck (native/valgrind-varlat) where it is built, an integer division on secret data is a finding of its own check (variable latency). A smoke test: only the paths the inputs took, and nothing memcheck's definedness tracking does not see.",
  status: jobStatus("run at every level", "the tool or the build failed"),
  fields: {
    verdict: oneOfEnum(
      "pass: no open finding at any level (accepted ones listed) and no statistical leak not accepted; leaks found: at least one open finding, or a statistical leak the campaign does not accept; tool error: valgrind failed or wrote no report (a failure record). Absent on a failure record of another cause (the build failed).",
      ["pass", "leaks found", "tool error"],
    ),
    ...jobFields("How the tested program was built (the flags of the first level; each level's in levels)."),
    tool: obj(
      "The tool.",
      {
        name: oneOfEnum("The tool.", ["memcheck"]),
        version: str("First line of `valgrind --version`, e.g. valgrind-3.19.0."),
      },
      {
        options: arr("valgrind options used (the XML file added per run).", { type: "string" }),
        valgrind: str(
          "The launcher run when it is not the system's valgrind: the patched memcheck's (variable latency run).",
        ),
        patchSha256: str("SHA-256 of ngcc-varlat.patch the launcher was built with (variable latency run).", {
          pattern: "^[0-9a-f]{64}$",
        }),
      },
    ),
    checks: obj(
      "The outcome of each check, over every level (absent on records written before the variable-latency check existed).",
      {
        branchIndex: checkOutcome("Secret data in a branch or an address (stock memcheck's errors).", false),
        variableLatency: checkOutcome(
          "An integer division on secret data (the patched memcheck's UninitVarLat errors).",
          true,
        ),
      },
    ),
    statistical,
    randomness: str("Where the instance's randombytes came from, and that its output was marked undefined."),
    secret: arr("What was marked undefined (secret) for the call.", { type: "string" }),
    declassified: arr("What was marked defined (public) right after the call.", { type: "string" }),
    note: str("What the program said about this operation (e.g. verify takes no secret input)."),
    calls: int("Calls tested at each level (one per key pair).", { minimum: 1 }),
    randomBytesMarked: nat("Bytes of randomness marked undefined over the calls of one level."),
    messageBytes: nat("Signed message length (signatures)."),
    levels: arr("One run per optimisation level, in the campaign's order.", level, { minItems: 1 }),
    triage: arr(
      "The campaign's triage entries (constantTime.triage) in force.",
      obj(
        "One triage entry.",
        { file: str("File relative to the submission folder."), reason: str("Why it is accepted.") },
        {
          line: int("Line.", { minimum: 1 }),
          function: str("Function."),
          check: oneOfEnum("Only findings of this check.", ["branch/index", "variable latency"]),
        },
      ),
    ),
    commands: arr("Child processes run (the valgrind runs).", ref("command", "One process.")),
  },
  defs: pickDefs("provenance", "failure", "build", "command"),
  ok: {
    required: ["verdict", "tool", "levels", "secret", "declassified"],
    properties: {
      verdict: {
        enum: ["pass", "leaks found"],
        description: "A record run at every level passes or finds leaks.",
      },
    },
  },
  failed: {
    required: ["failure"],
    properties: { verdict: { const: "tool error", description: "A failure record says tool error." } },
  },
});
