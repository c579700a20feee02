// The campaign configuration (YAML or JSON) `ngcc-perf run` reads: the system, the algorithms and instances,
// build profiles, profiler groups, the size catalog and the steps' settings (docs/adding-a-submission.md).
import { DRAFT, ID_BASE, type JsonSchema, map, SCHEMA_VERSION } from "./builders.ts";
import {
  algorithmId,
  arr,
  bool,
  category,
  fraction,
  ID_PATTERN,
  int,
  link,
  nat,
  nonneg,
  nullable,
  num,
  obj,
  oneOfEnum,
  str,
  systemId,
} from "./common.ts";
import { algorithmProfiler, profilerGroups } from "./profiler-groups.ts";

const katExpectation = obj(
  "One expected KAT hash.",
  {
    sha256: str("Expected SHA-256 (hex) of the generated output in this form.", { pattern: "^[0-9a-fA-F]{64}$" }),
    form: oneOfEnum(
      "Which output the hash covers: single (entry 0 without header or empty lines, PQClean nistkat-sha256 / liboqs single), all (entries 0..N-1 without header, an empty line between entries, liboqs all), rsp (the whole NIST .rsp file).",
      ["single", "all", "rsp"],
    ),
  },
  {
    entries: int("Entries the hash covers (all: default 100; rsp: 100; single: 1).", { minimum: 1, maximum: 100 }),
    source: str("Where the expected hash comes from, e.g. PQClean META.yml nistkat-sha256 @ 3730b32."),
  },
);

export const campaign: JsonSchema = {
  $schema: DRAFT,
  $id: `${ID_BASE}campaign.schema.json`,
  title: "ngcc-perf campaign",
  description:
    "A campaign configuration (YAML or JSON): the system, the algorithms and instances to measure, build profiles, profiler symbol groups and the size catalog. Relative paths are resolved against the campaign file's folder.",
  ...obj(
    "Campaign configuration.",
    {
      name: str("Campaign name, used in logs and the store index.", { minLength: 1 }),
      system: systemId,
      algorithms: arr(
        "Algorithms (submissions) to measure.",
        obj(
          "One algorithm.",
          {
            id: algorithmId,
            source: {
              description:
                "Where the submission comes from: a folder holding an NGCC submission with its meta.json, or a PQClean scheme from the pqclean npm package.",
              oneOf: [
                obj("An NGCC-packaged submission folder.", {
                  submission: str("Folder of the submission (holding meta.json), relative to the campaign file."),
                }),
                obj(
                  "A PQClean scheme.",
                  {
                    pqclean: str("PQClean scheme folder name, e.g. ml-kem-512 or falcon-512."),
                  },
                  {
                    implementation: str("PQClean implementation folder; default clean."),
                    root: str("PQClean checkout root; default the pqclean npm package's deps/PQClean."),
                  },
                ),
              ],
            },
          },
          {
            name: str("Display name; default from the submission's metadata."),
            category,
            instances: arr("Instance names (or globs) to measure; default all.", { type: "string" }, { minItems: 1 }),
            buildProfiles: arr("Build profiles to use for this algorithm; default [defaultProfile].", {
              type: "string",
            }),
            signContext: str(
              "Signatures with the FIPS 204 context API (meta.json's api.style fips204, or a PQClean scheme with crypto_sign_ctx): the context string of timing and profiling, in hex (at most 255 bytes); default the instance's api.context, else empty. The KAT always uses api.context, with which the submitter's .rsp was made.",
              { pattern: "^([0-9A-Fa-f]{2}){0,255}$" },
            ),
            randomness: oneOfEnum(
              "Randomness provider linked in timing builds: iccs (the ICCS DRNG stand-in), system (a randombytes over getrandom) or pqclean (PQClean's common/randombytes.c).",
              ["iccs", "system", "pqclean"],
            ),
            links: obj(
              "Links shown in section 1 of the page.",
              {},
              {
                security: link,
                submission: link,
              },
            ),
            surveyNotes: str("Curated wording for the survey verdict, kept apart from the automatic finding."),
            profiler: algorithmProfiler(
              "This algorithm's profiler groups, added to the campaign's and the submission's meta.json profiler groups (a group of the same name overrides theirs) or, with replaceCampaignGroups, instead of the campaign's.",
            ),
            libraries: arr(
              "System libraries linked after the objects on every link line of this algorithm's instances, added to each instance's meta.json libraries (e.g. crypto for -lcrypto).",
              str("A library name as -l takes it.", { pattern: "^[A-Za-z0-9_][A-Za-z0-9_.+-]*$" }),
            ),
            katRng: oneOfEnum(
              "Randomness of the KAT generator: nist (the AES-256 CTR_DRBG of NIST's rng.c, the default) or hqc (HQC's SHAKE256-based KAT RNG; the default for PQClean hqc-* schemes).",
              ["nist", "hqc"],
            ),
            kat: {
              description:
                "Expected KAT hash(es) instead of .rsp files (PQClean-style): one expectation or a list; the output is generated once and each form's SHA-256 is compared.",
              oneOf: [katExpectation, arr("Several expectations.", katExpectation, { minItems: 1 })],
            },
          },
        ),
        { minItems: 1 },
      ),
    },
    {
      schemaVersion: { const: SCHEMA_VERSION, description: "Version of this schema the campaign was written against." },
      description: str("What the campaign is for."),
      systems: arr("Every system the published site covers (for the system switcher); default [system].", systemId),
      machine: obj(
        "Facts about the machine that cannot be read from it, shown in section 2.",
        {},
        {
          machine: str("Machine name, e.g. ASUS Vivobook S 15."),
          clockNote: str("How the clock was fixed, if it was."),
        },
      ),
      compiler: obj(
        "Toolchain: the compiler every native part is built with and, for a cross toolchain, the emulator every program it built is run through. Default: the host's compiler, no emulator.",
        {},
        {
          cc: str("C compiler command; default gcc (or $CC); e.g. aarch64-linux-gnu-gcc."),
          cflags: arr("Flags added right after the compiler to every compile and link, before the build profile's.", {
            type: "string",
          }),
          ldflags: arr("Flags added to every link, after cflags.", { type: "string" }),
          sysroot: str(
            "The target's system root (its libc and loader, which the emulator loads), relative to the campaign file or absolute (e.g. /usr/aarch64-linux-gnu): made readable in the sandbox. Not passed to the compiler (Debian's cross gcc finds it itself); a compiler that needs it gets --sysroot=<dir> in cflags.",
            { minLength: 1 },
          ),
          emulator: arr(
            "Argument vector prefix every program the compiler built is run through (e.g. [qemu-aarch64, -L, /usr/aarch64-linux-gnu]). Under an emulator nothing is timed: the time and profile steps are refused and pages say emulated — not a timing.",
            { type: "string", minLength: 1 },
            { minItems: 1 },
          ),
          arch: str("The target architecture as uname -m prints it there, e.g. aarch64; default the host's.", {
            pattern: "^[a-z0-9_]+$",
          }),
        },
      ),
      iccs: obj("The ICCS common library submissions link against.", {
        dir: str("Folder of the ICCS sources (e.g. fixtures/iccs), relative to the campaign file."),
      }),
      counter: obj(
        "Counter selection.",
        {},
        {
          kind: oneOfEnum("Counter to use; auto picks the best available.", [
            "auto",
            "rdtsc",
            "perf-cycles",
            "perf-instructions",
            "cntvct",
            "clock_gettime",
            "fixed-clock",
          ]),
          fixedClockHz: nonneg("Clock frequency for fixed-clock mode, in Hz (cycles = time × frequency)."),
        },
      ),
      timing: obj(
        "Calibration and statistics.",
        {},
        {
          trials: int("Trials per operation; default 5.", { minimum: 1, maximum: 1000 }),
          minIterations: int("Minimum iterations per trial; default 20.", { minimum: 1 }),
          maxIterations: int("Maximum iterations per trial.", { minimum: 1 }),
          targetTrialMs: nonneg("Calibrated minimum duration of one trial, in milliseconds (ms)."),
          warmupMs: nonneg("Untimed warm-up before calibration, in milliseconds (ms); default 50."),
          unstableThreshold: fraction(
            "Relative trial spread above which an operation is flagged unstable; default 0.05.",
          ),
          pinCpu: {
            description:
              'CPU to pin every driver process to; "auto" (default): the last CPU this process may run on; null: no pinning.',
            anyOf: [{ type: "integer", minimum: 0 }, { const: "auto" }, { type: "null" }],
          },
          messageBytes: nat("Message length for sign/verify, in bytes; default 32."),
          method: oneOfEnum(
            "per-call (default): every call (or a small fixed batch of very short calls) timed alone, in several fresh worker processes, until the precision target or the budget; trials: the seed pages' method (trials × calibrated iterations).",
            ["per-call", "trials"],
          ),
          target: fraction(
            "Precision target of the per-call method: the published figure's 95 % interval within ± this fraction of it; default 0.01.",
          ),
          budgetMs: nonneg(
            "Sampling time an operation may spend at most before it stops short of its target, in ms; default 2000.",
          ),
          meanBudgetMs: nonneg(
            "The budget of an operation whose mean is published (its time depends on the input), in ms; default 4 × budgetMs (8000): the mean of a wide per-call distribution needs many more calls for the same interval.",
          ),
          contendedBudgetMs: nonneg(
            "Per-call method: the sampling time an operation may spend on contended workers (their core shared with a busy sibling thread: the contention probe) on top of its budget, which counts the uncontended workers' time only; in ms; default the operation's budget (budgetMs, or meanBudgetMs for a published mean). 0: contended workers count against the budget like the others.",
          ),
          workerMs: nonneg("Sampling time of one worker process, in ms; default 100."),
          minWorkers: int("Fresh worker processes per operation at least; default 4 (one per code layout).", {
            minimum: 1,
            maximum: 100,
          }),
          keyPairs: int("Key pairs in rotation for enc, dec, sign, verify; default 4.", { minimum: 1, maximum: 64 }),
          inputPool: int("Inputs in a pool (ciphertexts, message/signature pairs, protocol states); default 64.", {
            minimum: 1,
            maximum: 4096,
          }),
          clockProbe: bool(
            "Per-call method: after every sample, time a dependent chain of one-cycle adds to estimate the core clock, so that records carry estimated core cycles and the precision target applies to them (the time per call moves with the core clock); default true.",
          ),
          central: map(
            "Published central figure per operation name: median, mean, or auto (default: as the instance's per-call instruction counts under its reference profile decide — mean when they spread by more than 10 %, input-dependent work such as rejection sampling, else median — the same for every profile; where valgrind cannot count, mean when the per-call distribution is wide below its median, i.e. its 5th percentile lies more than 10 % below the median; interference only adds time).",
            oneOfEnum("The statistic.", ["auto", "median", "mean"]),
            "^[a-z][a-z0-9_]*$",
          ),
        },
      ),
      timeouts: obj(
        "Time limits for child processes.",
        {},
        {
          buildSeconds: nonneg("Per compiler invocation, in seconds (s)."),
          operationSeconds: nonneg("Per timing/memory process, in seconds (s)."),
          katSeconds: nonneg("Per KAT generation, in seconds (s)."),
        },
      ),
      buildProfiles: map(
        "Named compiler flag sets.",
        obj(
          "One build profile.",
          {
            cflags: arr("Compiler flags.", { type: "string" }),
          },
          {
            ldflags: arr("Linker flags.", { type: "string" }),
            description: str("What the profile is for."),
          },
        ),
        ID_PATTERN,
      ),
      defaultProfile: str("Build profile used when an algorithm names none.", { pattern: ID_PATTERN }),
      profiler: obj(
        "Symbol groups for the hash/DRNG profiler.",
        {
          groups: profilerGroups(
            "Group name → its symbols, e.g. hash: [pseudohash, pseudoXOF, sm3hash], drng: [randombytes]; an algorithm's own groups (its meta.json profiler, the campaign's algorithms[].profiler) are added to these or override a group of the same name.",
          ),
        },
        {
          notes: str(
            "Curated survey notes file (YAML), relative to the campaign file: algorithm id → { verdict, text }; kept apart from the automatic finding.",
          ),
        },
      ),
      sizes: obj("Size catalog.", {
        catalog: str("Path of external_sizes.csv, relative to the campaign file."),
      }),
      instructions: obj(
        "The instructions step: instruction counts per operation under valgrind's callgrind (docs/methodology.md).",
        {},
        {
          enabled: bool(
            "true: a plain run (no --steps) counts instructions; default false (then only --steps instructions does).",
          ),
          calls: int("Calls counted per operation (N), after one warm-up call; default 16.", {
            minimum: 1,
            maximum: 100000,
          }),
          keys: int("Key pairs in rotation; default 4.", { minimum: 1, maximum: 4096 }),
          pool: int("Inputs (ciphertexts, signed messages, protocol runs) in the pool; default 16.", {
            minimum: 1,
            maximum: 65536,
          }),
        },
      ),
      memory: obj(
        "The memory step: stack and heap high-water per operation (docs/methodology.md, Memory).",
        {},
        {
          enabled: bool(
            "true: a plain run (no --steps) measures stack and heap high-water; default false (then only --steps memory does).",
          ),
        },
      ),
      constantTime: obj(
        "The constant-time step: each operation under valgrind's memcheck with its secrets marked undefined (docs/methodology.md, Constant-time smoke test).",
        {},
        {
          enabled: bool(
            "true: a plain run (no --steps) runs it; default false (then only --steps constant-time does).",
          ),
          levels: arr(
            "Optimisation flags to test at, each replacing the build profile's -O flag (-g is added); default [-O2, -O3]; at least two.",
            { type: "string", pattern: "^-O([0-3sgz]|fast)?$" },
            { minItems: 2, uniqueItems: true },
          ),
          only: arr(
            "Only the instances matching one of these globs (as --only: <algorithm-id>/<instance>, <instance> or <algorithm-id>); default every instance of the campaign.",
            { type: "string", minLength: 1 },
            { minItems: 1 },
          ),
          keys: int("Calls per operation and level, each with its own key pair; default 3.", {
            minimum: 1,
            maximum: 64,
          }),
          variableLatency: oneOfEnum(
            "The variable-latency check (integer division on secret data, reported by the patched memcheck that native/valgrind-varlat/build.sh builds under /opt/ngcc-valgrind or NGCC_VARLAT_PREFIX): auto (default) runs it when that memcheck is built and records it as not run, with the reason, when it is not; require makes a missing build an error (exit 2); off never runs it (stock memcheck).",
            ["auto", "require", "off"],
          ),
          statistical: obj(
            "The fixed-vs-random timing test (dudect's method) of each operation that has input classes (KEM keygen, enc, dec; signature keygen, sign): ngcc-leak's calls of the two classes interleaved in random order, in worker processes pinned to timing.pinCpu, Welch's t on the raw, cropped and second-order times; it stops at |t| >= 10 (a leak) or when a budget is spent.",
            {},
            {
              enabled: bool("false: not run (recorded as not run); default true."),
              seconds: num("Time budget per operation, in seconds of measuring; default 10.", {
                minimum: 0.5,
                maximum: 3600,
              }),
              maxMeasurements: int("Measurement budget per operation (both classes); default 1,000,000.", {
                minimum: 10_000,
                maximum: 10_000_000,
              }),
              accepted: arr(
                "Timing differences accepted, with the reason: a leak (or leak likely) of this operation of the matching instances is shown as accepted, and does not make the record's verdict leaks found (e.g. ML-KEM keygen, whose time depends on the public seed rho through the rejection sampling of matrix A).",
                obj(
                  "One accepted difference.",
                  {
                    operation: str("The operation (keygen, enc, dec, sign).", { minLength: 1 }),
                    reason: str("Why the difference is not a leak of a secret (or is accepted anyway).", {
                      minLength: 1,
                    }),
                  },
                  {
                    only: arr(
                      "Only the instances matching one of these globs (as --only: <algorithm-id>/<instance>, <instance> or <algorithm-id>); default every instance.",
                      str("A glob."),
                    ),
                  },
                ),
              ),
            },
          ),
          triage: arr(
            "Findings accepted, with the reason: each matches a finding whose first frame inside the submission's sources has this file (relative to the submission folder) and, when given, line and function. The others stay open.",
            obj(
              "One accepted finding (or group of findings).",
              {
                file: str("Source file, relative to the submission folder (e.g. indcpa.c)."),
                reason: str("Why the finding is not a leak of a secret (or is accepted anyway).", { minLength: 1 }),
              },
              {
                line: int("Line in that file.", { minimum: 1 }),
                function: str("Function, as the debug information names it."),
                check: oneOfEnum(
                  "Only findings of this check: branch/index (secret data in a branch or an address) or variable latency (an integer division on secret data); default both.",
                  ["branch/index", "variable latency"],
                ),
              },
            ),
          ),
        },
      ),
      sandbox: obj(
        "Containment of every process that builds or runs submission code (docs/security.md): bubblewrap (own PID, network, IPC and UTS namespaces), the system read-only, only the job's folders writable, a private /tmp, a clean environment, a user namespace without capabilities, a seccomp filter and resource limits.",
        {},
        {
          enabled: bool(
            "false: run submission code unconfined — no sandbox, no limits (every record's commands then say sandboxed: false); default true. Without bubblewrap installed, a campaign that does not say false is refused.",
          ),
          readable: arr(
            "Further folders the sandbox may read, relative to the campaign file (e.g. a toolchain outside /usr and /opt); the system folders, the campaign's submissions, the PQClean and ICCS folders, the toolchain's and ngcc-perf's native/ are readable without this — the campaign's own folder is not (a campaign kept in $HOME must not make $HOME readable).",
            { type: "string", minLength: 1 },
          ),
          limits: obj(
            "Resource limits (setrlimit) of every sandboxed process; null: no limit (e.g. addressSpaceBytes for sanitizer builds). A core dump is never written.",
            {},
            {
              addressSpaceBytes: nullable(
                int("RLIMIT_AS: virtual memory of one process, in bytes; default 8 GiB (8589934592).", { minimum: 1 }),
              ),
              cpuSeconds: nullable(
                int("RLIMIT_CPU: processor time of one process, in seconds (SIGXCPU); default twice its time limit.", {
                  minimum: 1,
                }),
              ),
              fileSizeBytes: nullable(
                int("RLIMIT_FSIZE: the largest file a process may write, in bytes (SIGXFSZ); default 1 GiB.", {
                  minimum: 1,
                }),
              ),
              processes: nullable(
                int(
                  "Processes and threads of one sandbox: RLIMIT_NPROC, and a pids cgroup of the sandbox's own where ngcc-perf may make one (so that it holds when run as root); default 256.",
                  { minimum: 1 },
                ),
              ),
              openFiles: nullable(int("RLIMIT_NOFILE: open files of one process; default 1024.", { minimum: 1 })),
              tmpBytes: int("Size of the private /tmp (and of /dev/shm), in bytes; default 1 GiB.", { minimum: 4096 }),
              writableBytes: nullable(
                int(
                  "What one process may add to its writable folders (a build folder, the KAT output), in bytes, files and folders counted at 4 KiB at least: checked every 200 ms, the process is stopped above it; default 4 GiB.",
                  { minimum: 4096 },
                ),
              ),
            },
          ),
        },
      ),
    },
  ),
};
