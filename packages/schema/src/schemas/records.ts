// The record kinds of an ngcc-perf store, as JSON Schema (draft 2020-12) sources.
import { DRAFT, ID_BASE, type JsonSchema, map, recordSchema, ref, SCHEMA_VERSION } from "./builders.ts";
import {
  algorithmId,
  arr,
  bool,
  buildProfileName,
  category,
  dateTime,
  fraction,
  ID_PATTERN,
  implementationName,
  inputsHash,
  instanceName,
  int,
  nat,
  nonneg,
  nullable,
  num,
  obj,
  oneOfEnum,
  operationName,
  pickDefs,
  relPath,
  str,
  systemId,
} from "./common.ts";

const status = oneOfEnum("ok: measured; failed: the job failed, see failure.", ["ok", "failed"]);
const failedNeedsFailure = {
  if: { properties: { status: { const: "failed" } }, required: ["status"] },
  then: { required: ["failure"] },
};

// ---------------------------------------------------------------- campaign (YAML)
const link = obj(
  "A link shown in section 1 of a page.",
  { label: str("Link text, e.g. kem-20 report.") },
  {
    href: nullable(str("Target URL or relative path; null when only the label is known.")),
  },
);

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

// ---------------------------------------------------------------- profiler groups (campaign, algorithm, meta.json)
export const groupKind = oneOfEnum(
  "What the group holds: hash (hash/XOF functions), drng (the randomness source) or other; default drng for a group named drng or holding randombytes, else hash.",
  ["hash", "drng", "other"],
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

// ---------------------------------------------------------------- environment
export const environment = recordSchema(
  "environment",
  "ngcc-perf environment record",
  "The machine and toolchain a system's measurements ran on (section 2 of every page).",
  {
    provenance: ref("provenance", "Where this record came from."),
    system: systemId,
    processor: obj(
      "The processor.",
      {
        model: str("Processor model name (e.g. from /proc/cpuinfo), e.g. Qualcomm Oryon."),
        architecture: str("Machine architecture as uname -m prints it, e.g. x86_64 or aarch64."),
        logicalCpus: nullable(int("Logical CPUs online; null when not known.", { minimum: 1 })),
      },
      {
        pinnedCpu: nullable(nat("CPU the driver was pinned to, or null when not pinned.")),
        hypervisor: nullable(bool("True when running under a hypervisor (cpuinfo hypervisor flag); null if unknown.")),
      },
    ),
    machine: nullable(str("Machine name (DMI product name or the campaign's machine), e.g. ASUS Vivobook S 15.")),
    clock: obj(
      "Processor clock settings.",
      {},
      {
        fixedFrequencyHz: nullable(nonneg("Fixed clock frequency in Hz when the clock was pinned, else null.")),
        governor: nullable(str("cpufreq scaling governor, e.g. performance.")),
        minFrequencyHz: nullable(nonneg("cpufreq minimum frequency in Hz.")),
        maxFrequencyHz: nullable(nonneg("cpufreq maximum frequency in Hz.")),
        boost: oneOfEnum("Turbo/boost state.", ["on", "off", "unknown"]),
        smt: str("Simultaneous multithreading state (on, off, none, unknown)."),
        note: str("Free text on how the clock was set."),
      },
    ),
    memory: obj("Installed memory.", { totalMiB: nat("MemTotal in MiB.") }),
    os: obj("Operating system.", {
      name: str("PRETTY_NAME from /etc/os-release, e.g. Ubuntu 26.04.1 LTS."),
      kernel: str("Kernel release (uname -r), e.g. 7.0.0-34-generic."),
    }),
    toolchain: obj("Compiler and build tool.", {
      compiler: str("First line of the compiler's --version, e.g. gcc (Ubuntu 15.2.0-16ubuntu1) 15.2.0."),
      buildTool: nullable(str("First line of the build tool's --version, e.g. cmake version 4.2.3, or null.")),
    }),
    counter: ref("counter", "Counter used for the timing records of this system."),
    campaign: obj(
      "The campaign run.",
      {
        start: dateTime("Campaign start (UTC, RFC 3339)."),
        end: nullable(dateTime("Campaign end (UTC, RFC 3339), or null while running.")),
      },
      { name: str("Campaign name.") },
    ),
  },
  {
    hostname: str("Host name of the machine."),
    runtime: obj(
      "Harness runtime.",
      {},
      {
        node: str("Node.js version."),
        ngccPerf: str("ngcc-perf version."),
      },
    ),
    emulated: bool(
      "True when the campaign's programs ran through an emulator (compiler.emulator): KAT, functional check, sizes and calls per operation are the target's; no time, cycle count or time share is a measurement of it. Absent or false: native.",
    ),
    emulator: obj("The emulator the programs ran through (with emulated: true).", {
      argv: arr("The argument vector prefix, as the campaign gives it.", { type: "string" }, { minItems: 1 }),
      version: str("First line of the emulator's --version output, e.g. qemu-aarch64 version 7.2.17."),
      architecture: str("The emulated architecture (compiler.arch, else what uname -m prints under the emulator)."),
    }),
  },
  pickDefs("provenance", "counter"),
);

// ---------------------------------------------------------------- timing (+ memory)
export const timing = recordSchema(
  "timing",
  "ngcc-perf timing and memory record",
  "Timing and memory of one operation of one instance under one build profile (sections 4 and 5), with the raw trials behind the aggregates.",
  {
    provenance: ref("provenance", "Where this record came from."),
    system: systemId,
    algorithmId,
    instance: instanceName,
    implementation: implementationName,
    buildProfile: buildProfileName,
    operation: operationName,
    status,
  },
  {
    inputsHash,
    failure: ref("failure", "Why the job failed."),
    build: ref("build", "How the measured library was built."),
    counter: ref("counter", "The counter that produced counterDelta and meanCounter."),
    messageBytes: nat("Message length for sign/verify, in bytes."),
    calibration: obj(
      "How iterations per trial were chosen.",
      {
        targetTrialNs: nonneg("Target minimum duration of one trial, in ns."),
        warmupIterations: nat("Untimed iterations run before the trials."),
      },
      {
        minIterations: int("Minimum iterations per trial.", { minimum: 1 }),
        maxIterations: int("Maximum iterations per trial.", { minimum: 1 }),
        warmupNs: nonneg("Minimum duration of the untimed warm-up, in ns."),
        estimateNs: nonneg(
          "The driver's estimate of one call, in ns: the smallest batch mean of the warm-up (interference only adds time).",
        ),
        limitedBy: oneOfEnum(
          "What decided the iterations per trial: the minimum, the target trial duration (target ÷ estimate), 1000 × the counter overhead ÷ estimate, or the maximum capping either.",
          ["min-iterations", "target-ns", "counter-overhead", "max-iterations"],
        ),
      },
    ),
    method: oneOfEnum(
      "per-call: every call (or a fixed small batch) timed alone in several fresh worker processes (sampling, samples, distribution, central); trials: trials × calibrated iterations, the seed pages' method. Absent: trials.",
      ["per-call", "trials"],
    ),
    sampling: obj(
      "How the per-call samples were taken.",
      {
        batch: int("Calls per sample: 1 = every call timed alone.", { minimum: 1 }),
        batchReason: str(
          "Why this batch: single calls are ≥ 1000 × the counter overhead, or the batch that makes a sample so.",
        ),
        workers: int("Fresh driver processes that sampled this operation.", { minimum: 1 }),
        samplesPerWorker: arr("Samples each worker took, in the order they ran.", { type: "integer", minimum: 1 }),
        inputs: obj("How inputs varied from call to call.", {
          keyPairs: int("Key pairs in rotation (0 when the operation takes none).", { minimum: 0 }),
          pool: int("Inputs in the pool the calls rotate over (0 when none).", { minimum: 0 }),
          messages: oneOfEnum(
            "fresh: a new message every call; pool: messages from the pool; none: the operation takes no message.",
            ["fresh", "pool", "none"],
          ),
          description: str("The same in words, as the page shows it."),
        }),
        pinnedCpu: nullable(nat("CPU every worker was pinned to, or null.")),
        target: obj(
          "The precision target.",
          {
            relativeHalfWidth: fraction("Target half-width of the 95 % interval, as a fraction of the figure."),
            budgetMs: nonneg("Sampling budget of the operation, in ms."),
            minWorkers: int("Workers at least.", { minimum: 1 }),
          },
          {
            contendedBudgetMs: nonneg(
              "Sampling time the operation could spend on contended workers on top of budgetMs (the budget counts the uncontended workers' time only), in ms.",
            ),
            figure: oneOfEnum(
              "The figure the target applies to: cycles (the estimated core cycles, when the core clock was probed) or time. Absent: time.",
              ["cycles", "time"],
            ),
          },
        ),
        stoppedBy: oneOfEnum(
          "target: the interval reached the target; budget: the budget was spent first; quick: a --quick smoke run (no target).",
          ["target", "budget", "quick"],
        ),
        elapsedMs: nonneg(
          "Sampling time spent on this operation over all workers, in ms (warm-up and process start-up included).",
        ),
        overheadShare: nonneg(
          "Counter read overhead as a fraction of the median sample (shown negligible when ≤ 0.001).",
        ),
      },
      {
        switchedOut: obj(
          "Samples during which a worker was switched out (samples[].switchedOut), when any was: they are left out of the figures, except in a worker where more than cap of its samples were (it keeps them all).",
          {
            listed: int("Samples listed as switched out, over all workers.", { minimum: 1 }),
            dropped: int("Of them, left out of the figures.", { minimum: 0 }),
            workersOverCap: int("Workers switched out in more than cap of their samples, which kept them all.", {
              minimum: 0,
            }),
            cap: fraction("The largest share of a worker's samples left out."),
            keptPerWorker: arr("Samples each worker's figures used, in worker order.", { type: "integer", minimum: 0 }),
          },
        ),
        contendedMs: nonneg(
          "Of elapsedMs, the time of the workers judged contended (the contention block), which the budget did not count, in ms.",
        ),
        layouts: obj(
          "The code layouts the workers ran: driver executables linked with the instance's code starting at these byte offsets past a 64-byte boundary (the time of the same code depends on where the linker places it); worker i ran layout i mod their number.",
          {
            padBytes: arr("The layouts the workers used, as padding bytes before the instance's code.", {
              type: "integer",
              minimum: 0,
            }),
            workerPadBytes: arr("Each worker's layout, in worker order.", { type: "integer", minimum: 0 }),
          },
        ),
      },
    ),
    samples: arr(
      "Raw samples per worker: the counter delta of each sample (batch calls), in the counter's unit, in the order taken.",
      obj(
        "One worker's samples.",
        {
          worker: int("Worker number, from 1, in the order the workers ran.", { minimum: 1 }),
          counterDeltas: arr("Counter deltas, one per sample.", { type: "number", minimum: 0 }, { minItems: 1 }),
        },
        {
          clockDeltas: arr(
            "Counter delta of the core-clock probe after each sample (distribution.coreClock.adds one-cycle adds), overhead not subtracted.",
            { type: "number", minimum: 0 },
          ),
          throughputDeltas: arr(
            "Counter delta of the contention probe after each sample (contention.adds one-cycle adds on contention.chains independent chains), overhead not subtracted.",
            { type: "number", minimum: 0 },
          ),
          switchedOut: arr(
            "The samples (0-based, ascending) during which the worker's process was switched out (its context switches changed): they hold another task's time too, and are left out of distribution, central and trials unless more than sampling.switchedOut.cap of the worker's samples are (then all are kept). Absent when none.",
            { type: "integer", minimum: 0 },
            { minItems: 1 },
          ),
        },
      ),
    ),
    distribution: obj(
      "Per-call statistics over every worker's samples pooled (per call: a sample's delta ÷ batch), in ns; over the uncontended workers' only when contention.publishedFrom is uncontended (the worker lists below are then of those workers, in worker order).",
      {
        n: int("Samples pooled (those a worker was switched out in left out: sampling.switchedOut).", { minimum: 1 }),
        calls: int("Calls timed: samples × batch (of the samples pooled).", { minimum: 1 }),
        meanNs: nonneg("Mean, ns."),
        medianNs: nonneg("Median, ns."),
        minNs: nonneg("Smallest, ns."),
        maxNs: nonneg("Largest, ns."),
        p1Ns: nonneg("1st percentile (type 7), ns."),
        p5Ns: nonneg("5th percentile, ns."),
        p25Ns: nonneg("25th percentile, ns."),
        p75Ns: nonneg("75th percentile, ns."),
        p95Ns: nonneg("95th percentile, ns."),
        p99Ns: nonneg("99th percentile, ns."),
        madNs: nonneg("Median absolute deviation from the median (unscaled), ns."),
        sdNs: nonneg("Sample standard deviation, ns."),
        medianCi95Ns: ref("interval", "Distribution-free 95 % interval of the median from order statistics, ns."),
        meanCi95Ns: ref("interval", "95 % interval of the mean, ns."),
        outliers: obj("Tukey's fences (1.5 × IQR beyond the quartiles): samples counted, never dropped.", {
          low: nat("Samples below the lower fence."),
          high: nat("Samples above the upper fence."),
          fences: ref("interval", "The fences, ns."),
        }),
        workerMediansNs: arr("Each worker's median, ns, in worker order.", { type: "number", minimum: 0 }),
        workerMeansNs: arr("Each worker's mean, ns, in worker order.", { type: "number", minimum: 0 }),
        workerSpread: nonneg(
          "The run's own noise floor: (max − min) / median of the workers' central figures, a fraction.",
        ),
      },
      {
        meanCounter: nonneg("Mean per call in the counter's unit."),
        medianCounter: nonneg("Median per call in the counter's unit."),
        p999Ns: nonneg(
          "99.9th percentile (type 7), ns: with p99Ns and maxNs the tail of the `calls` calls behind them (a sample's delta ÷ batch, so with batch > 1 a per-call mean of each sample).",
        ),
        coreClock: obj(
          "The core clock during sampling, from the probes: per worker, adds ÷ (median probe − counter overhead) × the counter's rate.",
          {
            method: oneOfEnum("add-chain: a dependent chain of one-cycle integer adds timed with the counter.", [
              "add-chain",
            ]),
            adds: int("Adds per probe.", { minimum: 1 }),
            workerHz: arr("Each worker's core clock, Hz, in worker order.", { type: "number", minimum: 0 }),
            minHz: nonneg("Slowest worker's core clock, Hz."),
            maxHz: nonneg("Fastest worker's core clock, Hz."),
          },
        ),
        cycles: obj("Estimated core cycles per call (a sample's ns × its worker's core clock), pooled.", {
          meanCycles: nonneg("Mean, estimated core cycles."),
          medianCycles: nonneg("Median, estimated core cycles."),
          p5Cycles: nonneg("5th percentile."),
          p25Cycles: nonneg("25th percentile."),
          p75Cycles: nonneg("75th percentile."),
          p95Cycles: nonneg("95th percentile."),
          workerMediansCycles: arr("Each worker's median.", { type: "number", minimum: 0 }),
          workerMeansCycles: arr("Each worker's mean.", { type: "number", minimum: 0 }),
          workerSpread: nonneg("(max − min) / median of the workers' figures of the published statistic, a fraction."),
        }),
      },
    ),
    central: obj(
      "The published central figure and its interval.",
      {
        statistic: oneOfEnum("median, or mean for an operation whose time depends on its input.", ["median", "mean"]),
        valueNs: nonneg("The figure, ns per call."),
        valueCounter: nonneg("The figure in the counter's unit."),
        ci95Ns: ref(
          "interval",
          "95 % prediction interval of the figure a repeat run on the same machine publishes (as many workers, same campaign): valueNs ± the larger of √2 × the pooled interval's half-width and t · sd(worker figures) · √(1/W + 1/W), so that of two such runs each run's figure lies inside the other's interval about 95 % of the time (docs/methodology.md); ns.",
        ),
        relativeHalfWidth: nonneg(
          "Half-width of ci95Ns (the prediction interval of a repeat run's figure) as a fraction of valueNs.",
        ),
        metTarget: bool("Whether relativeHalfWidth ≤ the target."),
        reason: str("Why this statistic, in words (shown on the page)."),
      },
      {
        decision: {
          description:
            "How the statistic was decided when the campaign does not set it: from the per-call instruction counts of the instance's reference profile (one decision per instance × operation for the whole campaign: mean when input-dependent, else median), or, where valgrind could not count, from this record's per-call distribution (the fallback rule). Absent in older records.",
          oneOf: [
            obj("Decided by the instruction counts (inputDependence in @ngcc-perf/schema).", {
              by: { const: "instructions", description: "Decided from instruction counts." },
              profile: buildProfileName,
              calls: int("Calls counted.", { minimum: 1 }),
              minInstructions: nonneg("The fewest instructions of a counted call."),
              maxInstructions: nonneg("The most instructions of a counted call."),
              relativeSpread: nonneg("(max − min) / median of the per-call counts."),
              threshold: nonneg(
                "The spread above which the operation is input-dependent (INPUT_DEPENDENCE_THRESHOLD).",
              ),
              inputDependent: bool("relativeSpread > threshold: the mean is published, else the median."),
            }),
            obj("Decided by this record's per-call distribution (the fallback rule).", {
              by: { const: "distribution", description: "Decided from the timing distribution." },
              why: str(
                "Why the instruction counts could not decide (not installed, emulation, AVX-512, the count failed).",
              ),
            }),
          ],
        },
        cycles: obj("The same statistic in estimated core cycles, with its interval (the same rule as ci95Ns).", {
          value: nonneg("The figure, estimated core cycles per call."),
          ci95: ref(
            "interval",
            "95 % prediction interval of a repeat run's estimated core cycles, the rule of ci95Ns over the workers' cycle figures.",
          ),
          relativeHalfWidth: nonneg("Half-width of ci95 (the prediction interval) as a fraction of value."),
          metTarget: bool("Whether relativeHalfWidth ≤ the target."),
        }),
      },
    ),
    contention: obj(
      "Whether each worker's core was shared with a busy sibling hyperthread, from the contention probe after every sample (independent add chains: a shared core issues fewer adds per cycle; the dependent chain of the core-clock probe gives the cycles), and which workers distribution and central were computed from. Absent without the probes (--clock-chain none, counters that count cycles or instructions).",
      {
        probe: oneOfEnum("add-throughput: one-cycle adds on `chains` independent interleaved chains.", [
          "add-throughput",
        ]),
        chains: int("Independent chains of the probe.", { minimum: 1 }),
        share: fraction("A worker is contended below share × reference adds per cycle."),
        floor: nonneg(
          "The least reference, adds per cycle: 3.75 on x86-64 run natively (four integer ALUs), 0 elsewhere.",
        ),
        reference: nonneg("The larger of the best worker's adds per cycle and floor."),
        threshold: nonneg("share × reference: adds per cycle below which a worker is contended."),
        workers: arr(
          "Every worker, in worker order (as in samples).",
          obj("One worker's contention state.", {
            worker: int("Worker number, from 1.", { minimum: 1 }),
            addsPerCycle: nonneg(
              "Adds per core cycle on the independent chains: the probe's adds ÷ its median delta, over the core-clock probe's adds ÷ its median delta (overhead subtracted from both).",
            ),
            contended: bool("addsPerCycle < threshold."),
          }),
        ),
        state: oneOfEnum("uncontended: no worker contended; contended: every worker; mixed: some.", [
          "uncontended",
          "contended",
          "mixed",
        ]),
        publishedFrom: oneOfEnum(
          "uncontended: distribution and central (their worker lists included) are of the uncontended workers only, at least the campaign's minWorkers of them; all: of every worker (too few uncontended ones; state says whether any was contended). samples and sampling list every worker.",
          ["uncontended", "all"],
        ),
      },
    ),
    trials: arr("Raw trials, in the order they ran.", ref("trial", "One trial."), { minItems: 1 }),
    aggregates: obj(
      "Statistics over the trials. Per-operation figures divide a trial's totals by its iterations.",
      {
        n: int("Operations timed in all: trials × iterations per trial.", { minimum: 1 }),
        trials: int("Number of trials.", { minimum: 1 }),
        iterationsPerTrial: int("Iterations per trial.", { minimum: 1 }),
        meanCounter: nonneg(
          "Mean per operation over all iterations, in the counter's unit (mean cycles when the unit is core-cycles).",
        ),
        meanNs: nonneg("Mean time per operation over all iterations, in ns."),
        opsPerSecond: nonneg("Operations per second: 1e9 / meanNs."),
        medianTrialNs: nonneg("Median of the trials' per-operation means, in ns."),
        minTrialNs: nonneg("Smallest trial mean per operation, in ns."),
        maxTrialNs: nonneg("Largest trial mean per operation, in ns."),
        q1TrialNs: nonneg("First quartile of the trial means, in ns."),
        q3TrialNs: nonneg("Third quartile of the trial means, in ns."),
        stddevTrialNs: nonneg("Sample standard deviation of the trial means, in ns."),
        cv: nonneg("Coefficient of variation of the trial means (stddev / mean), a fraction."),
        ci95Ns: ref(
          "interval",
          "95% confidence interval of the mean per-operation time (Student t over trial means), in ns.",
        ),
        unstable: bool("True when the trial spread exceeds unstableThreshold."),
        unstableThreshold: fraction(
          "Threshold on the relative spread ((max − min) / median of trial means) used for unstable.",
        ),
      },
      {
        medianTrialCounter: nonneg("Median of the trials' per-operation counter means, in the counter's unit."),
      },
    ),
    memory: ref("memory", "Memory of this operation."),
    lengths: obj(
      "Output lengths seen while timing (variable-length outputs such as Falcon signatures).",
      {},
      {
        signatureBytes: obj("Signature length (signed message length minus message length) over every sign call.", {
          min: nat("Shortest, bytes."),
          mean: nonneg("Mean, bytes."),
          max: nat("Longest, bytes."),
          samples: int("Signatures measured.", { minimum: 1 }),
        }),
      },
    ),
    commands: arr("Child processes run to produce this record.", ref("command", "One process.")),
    plausibility: obj(
      "Cross-checks of the published figures against what the measured code cannot touch (docs/methodology.md, Plausibility): the runner's own clock over every worker process, the duration the runner asked for, the driver's two clocks, and the cycles per instruction against the instructions step's count when that record was in the store. A flagged record's figure is shown marked as not plausible.",
      {
        verdict: oneOfEnum("flagged when any check is; else plausible.", ["plausible", "flagged"]),
        checks: arr(
          "Every check made, passed or flagged.",
          obj("One check.", {
            check: oneOfEnum(
              "runner-clock: the samples (or trials) of a worker add up to no more than the runner's own clock over its process (durationMs); requested-duration: they add up to at least a tenth of the duration the runner asked for, unless the count is at its cap; counter-vs-clock: the counter's figures agree with the driver's CLOCK_MONOTONIC; warm-up-estimate: the median call is no faster than an 8th of the driver's own warm-up estimate; cycles-per-instruction: cycles per call ÷ the instructions counted per call lies within 0.1–8.",
              ["runner-clock", "requested-duration", "counter-vs-clock", "warm-up-estimate", "cycles-per-instruction"],
            ),
            outcome: oneOfEnum("pass or flagged.", ["pass", "flagged"]),
            message: str("What was compared, with the figures; for a flagged check, which worker and by how much."),
          }),
        ),
      },
    ),
  },
  pickDefs("provenance", "failure", "build", "counter", "trial", "interval", "memory", "command"),
  {
    allOf: [
      failedNeedsFailure,
      {
        if: { properties: { status: { const: "ok" } }, required: ["status"] },
        then: { required: ["counter", "trials", "aggregates"] },
      },
    ],
  },
);

// ---------------------------------------------------------------- KAT
const abbreviated = str("Value abbreviated for display (first and last bytes in hex).");
const katLength = obj("A length distribution over the KAT entries.", {
  min: nat("Shortest, bytes."),
  mean: nonneg("Mean, bytes."),
  max: nat("Longest, bytes."),
  samples: int("Outputs measured.", { minimum: 1 }),
});
export const kat = recordSchema(
  "kat",
  "ngcc-perf KAT record",
  "Known-Answer-Test verification of one instance under one build profile (section 3), pointing at its log.",
  {
    provenance: ref("provenance", "Where this record came from."),
    system: systemId,
    algorithmId,
    instance: instanceName,
    implementation: implementationName,
    buildProfile: buildProfileName,
    verdict: oneOfEnum(
      "PASS: every entry line of the generated output equals the expected .rsp's byte for byte (CRLF line endings, comment lines, empty lines and the final newline may differ, each named in warnings), or the output hashes to the expected hash; FAIL: an entry differs or the KAT file is corrupt; ERROR: generation failed (crash, timeout, build error).",
      ["PASS", "FAIL", "ERROR"],
    ),
    log: obj(
      "The KAT log, evidence listed in section 7.",
      { path: relPath },
      {
        sha256: ref("sha256", "SHA-256 of the log file."),
        sha256Prefix: str(
          "Leading hex digits of the log's SHA-256 when only a prefix is known (synthesized records made from published pages).",
          { pattern: "^[0-9a-f]{8,63}$" },
        ),
      },
      { oneOf: [{ required: ["sha256"] }, { required: ["sha256Prefix"] }] },
    ),
  },
  {
    inputsHash,
    build: ref("build", "How the KAT generator was built."),
    manifest: obj(
      "Check of the submission's kat.sha256 manifest against its .rsp files.",
      {
        path: str(
          "Manifest path as shown in the report: the algorithm id, then its path in the submission, e.g. kem-20/KAT/kat.sha256.",
        ),
        status: oneOfEnum(
          "ok: every listed file matches; mismatch: a file's hash differs (corrupt or altered KAT file); missing: no manifest; not-applicable: an expected hash is given instead of files.",
          ["ok", "mismatch", "missing", "not-applicable"],
        ),
      },
      {
        mismatches: arr(
          "Files whose hash differs from the manifest.",
          obj(
            "One mismatch.",
            {
              file: str("File named in the manifest."),
              expected: ref("sha256", "Hash in the manifest."),
            },
            {
              actual: nullable(ref("sha256", "Hash of the file as found, or null when missing.")),
            },
          ),
        ),
      },
    ),
    expected: obj(
      "What the generated output was compared with.",
      {
        source: oneOfEnum("rsp-file: a NIST .rsp file; sha256: an expected hash (PQClean-style).", [
          "rsp-file",
          "sha256",
        ]),
      },
      {
        path: str("Path of the expected .rsp file."),
        sha256: ref("sha256", "SHA-256 of the expected output."),
        form: oneOfEnum(
          "Which output the hash covers: rsp (the whole .rsp), single (entry 0, PQClean nistkat-sha256), all (N entries, liboqs).",
          ["rsp", "single", "all"],
        ),
        entries: int("Entries the expected output covers.", { minimum: 1 }),
        note: str("Where an expected hash comes from."),
      },
    ),
    generated: obj(
      "The output generated with the instance.",
      {
        sha256: ref("sha256", "SHA-256 of the generated output."),
      },
      {
        entries: nat("Entries generated."),
        bytes: nat("Size of the generated output in bytes."),
        forms: obj(
          "SHA-256 of every form made from the one run.",
          {},
          {
            rsp: ref("sha256", "The whole .rsp (header, entries each followed by an empty line)."),
            single: ref("sha256", "Entry 0 without header or empty lines (PQClean nistkat-sha256)."),
            all: ref("sha256", "All generated entries, no header, an empty line between entries (liboqs all)."),
          },
        ),
      },
    ),
    diagnosis: obj(
      "On FAIL: where the output first differs.",
      {
        differingEntries: nat("How many entries differ."),
      },
      {
        firstCount: nat("count of the first differing entry."),
        field: str("First differing field of that entry (seed, pk, sk, ct, ss, mlen, msg, smlen, sm, …)."),
        expected: abbreviated,
        actual: abbreviated,
      },
    ),
    error: ref(
      "failure",
      "On ERROR: what went wrong; on a FAIL output-differs without a diagnosis: why the generator's output was not compared (its forms disagree with each other: tampered or inconsistent output).",
    ),
    corruption: arr(
      "With outcome corrupt-kat: every problem found in the shipped .rsp or its manifest (the submission's fault, not the implementation's).",
      obj(
        "One problem.",
        {
          file: str("The file, relative to the store's view of the submission (e.g. kem-90/KAT/kat.sha256)."),
          message: str("What is wrong and what was expected."),
        },
        { line: int("1-based line of the file, when the problem has one.", { minimum: 1 }) },
      ),
    ),
    outcome: oneOfEnum(
      "Why the verdict is what it is: match (PASS); output-differs (FAIL: the implementation's output differs from the expected KAT, see diagnosis — or the generator's output forms disagree with each other, tampered or inconsistent, see error); corrupt-kat (FAIL: the shipped .rsp is malformed, missing or disagrees with its manifest, or the manifest is malformed: a corrupt or altered KAT file, reported apart from implementation failures, see corruption); no-expected-kat (ERROR: nothing to compare with); error (ERROR: build, crash, timeout or a failed check, see error).",
      ["match", "output-differs", "corrupt-kat", "no-expected-kat", "error"],
    ),
    rng: oneOfEnum(
      "KAT randomness: nist-ctr-drbg (AES-256 CTR_DRBG of NIST's rng.c) or hqc-shake256 (HQC's SHAKE256 KAT RNG).",
      ["nist-ctr-drbg", "hqc-shake256"],
    ),
    checks: arr(
      "Every comparison made (one per expected .rsp file or expected hash).",
      obj(
        "One comparison.",
        {
          form: oneOfEnum("Output form compared: rsp, single or all.", ["rsp", "single", "all"]),
          entries: int("Entries the form covers.", { minimum: 1 }),
          expectedSha256: ref("sha256", "SHA-256 of the expected output (LF line endings)."),
          generatedSha256: ref("sha256", "SHA-256 of the generated output."),
          match: bool(
            "True when the generated output equals the expected one: for a .rsp every entry line byte for byte (expectedSha256 then differs from generatedSha256 when only comments, empty lines or the final newline differ; see warnings).",
          ),
        },
        {
          source: str("Where the expectation comes from: the .rsp path or the origin of the hash."),
        },
      ),
    ),
    lengths: obj(
      "Output lengths seen while generating the KAT (for the size audit; signatures: signed message length minus message length).",
      {},
      {
        publicKeyBytes: katLength,
        ciphertextBytes: katLength,
        signatureBytes: katLength,
      },
    ),
    warnings: arr(
      "Non-fatal findings: CRLF line endings; a .rsp differing from the generated output only outside its entries (each line, expected and generated); .rsp files the manifest lists that no instance uses; a missing manifest.",
      { type: "string" },
    ),
    commands: arr("Child processes run.", ref("command", "One process.")),
  },
  pickDefs("provenance", "sha256", "build", "failure", "command"),
);

// ---------------------------------------------------------------- hash/DRNG profile
const groupSource = oneOfEnum(
  "Where the group came from: default (the profiler's defaults), campaign (profiler.groups), meta (the submission's meta.json profiler) or algorithm (the campaign's algorithms[].profiler).",
  ["default", "campaign", "meta", "algorithm"],
);
export const hashProfile = recordSchema(
  "hash-profile",
  "ngcc-perf hash/DRNG profile record",
  "Share of one operation's time spent in the placeholder hash functions and the DRNG, measured with link-time wrappers in a profiling build separate from the timing build.",
  {
    provenance: ref("provenance", "Where this record came from."),
    system: systemId,
    algorithmId,
    instance: instanceName,
    implementation: implementationName,
    buildProfile: buildProfileName,
    operation: operationName,
    status,
  },
  {
    inputsHash,
    failure: ref("failure", "Why the job failed."),
    build: ref("build", "How the profiling build was made."),
    emulated: bool(
      "True when the profiled build ran under an emulator (compiler.emulator): calls per operation only — no share, time or tick figure (those would be the emulator's), groups is empty and no trials are kept.",
    ),
    iterations: int("Operations profiled in all.", { minimum: 1 }),
    totalNsPerOp: nonneg("Mean time per operation in the profiling build (ns), the denominator of the shares."),
    unprofiledNsPerOp: nullable(
      nonneg("Mean time per operation of the unprofiled (timing) build in the same run (ns)."),
    ),
    wrapperOverhead: nullable(num("Relative wrapper overhead: totalNsPerOp / unprofiledNsPerOp − 1.")),
    wrapperClock: oneOfEnum(
      "Clock the wrappers read (plain rdtsc on x86-64, cntvct_el0 on aarch64, else CLOCK_MONOTONIC); shares are ratios of sums in this clock.",
      ["rdtsc", "cntvct", "clock_gettime"],
    ),
    totalTicks: nonneg("Sum of the profiled trials' durations in the wrapper clock (the shares' denominator)."),
    trials: obj(
      "Raw trials of the two runs behind totalNsPerOp and unprofiledNsPerOp.",
      {
        profiled: arr(
          "Trials of the profiling build.",
          obj("One trial.", {
            iterations: int("Operations in the trial.", { minimum: 1 }),
            ns: nonneg("CLOCK_MONOTONIC duration of the trial (ns)."),
          }),
        ),
      },
      {
        unprofiled: arr(
          "Trials of the timing build.",
          obj("One trial.", {
            iterations: int("Operations in the trial.", { minimum: 1 }),
            ns: nonneg("CLOCK_MONOTONIC duration of the trial (ns)."),
          }),
        ),
      },
    ),
    katCheck: obj(
      "The KAT generator linked with the same wrappers (a profiled KAT build), compared with the reference: the wrappers must forward every call unchanged.",
      {
        verdict: oneOfEnum("PASS: identical output; FAIL: it differs; ERROR: it could not be built or run.", [
          "PASS",
          "FAIL",
          "ERROR",
        ]),
      },
      {
        comparedWith: str(
          "What the output was compared with: the committed .rsp file, or the KAT generator built from the same objects without wrappers.",
        ),
        sha256: str("SHA-256 of the profiled KAT generator's output.", { pattern: "^[0-9a-f]{64}$" }),
        message: str("On FAIL or ERROR: what differed or went wrong."),
      },
    ),
    groups: arr(
      "Per symbol group: the share of the operation's time spent inside its outermost wrapped calls.",
      obj(
        "One group.",
        {
          name: str("Group name, e.g. hash or drng.", { pattern: "^[a-z][a-z0-9_]*$" }),
          symbols: arr("Symbols in the group.", { type: "string" }),
          share: fraction(
            "Fraction of the operation's time spent in this group (0.028 = 2.8%); nested wrapped calls counted once.",
          ),
        },
        {
          label: str("Column label, e.g. pseudohash/XOF/sm3."),
          kind: groupKind,
          iccs: bool("Whether the group is ICCS placeholder functions (the page says ICCS only for these)."),
          source: groupSource,
          nsPerOp: nonneg("Mean time per operation inside the group, in ns."),
          ticks: nonneg("Time inside the group's outermost calls over all profiled trials, in the wrapper clock."),
        },
      ),
    ),
    calls: arr(
      "Calls per operation per wrapped symbol (zero counts may be left out).",
      obj(
        "One symbol.",
        {
          symbol: str("Linker symbol, e.g. pseudoXOF."),
          group: str("Group the symbol belongs to."),
          meanPerOperation: nonneg("Mean number of calls per operation (fractions allowed)."),
        },
        {
          label: str("Name shown in the calls column, e.g. drng for randombytes."),
          nsPerOp: nonneg("Mean time per operation inside this symbol's outermost calls, in ns."),
          nestedPerOperation: nonneg(
            "Mean calls per operation made from inside another wrapped call of the same group (not in meanPerOperation, not timed again).",
          ),
          callsPerOperation: obj(
            "The distribution of the outermost calls (as meanPerOperation counts them) over the profiled operations, each operation counted alone: for a rejection-sampling function 1 + the rejections.",
            {
              min: nat("Fewest calls in one operation."),
              max: nat("Most calls in one operation."),
              median: nonneg("Median calls per operation (a half when the two middle operations differ)."),
              mean: nonneg("Mean calls per operation (equals meanPerOperation)."),
              operations: nat("Operations counted (the profiled trials' iterations)."),
            },
            {
              histogram: arr(
                "Calls → operations, in increasing calls; present when there are at most 64 distinct values.",
                {
                  type: "array",
                  description: "[calls, operations that made that many]",
                  prefixItems: [nat("Calls."), nat("Operations.", { minimum: 1 })],
                  items: nat("Calls or operations."),
                  minItems: 2,
                  maxItems: 2,
                },
                { minItems: 1, maxItems: 64 },
              ),
            },
          ),
        },
      ),
    ),
    blindSpots: arr(
      "Configured symbols that cannot be intercepted, reported instead of a silent 0%.",
      obj(
        "One blind spot.",
        {
          symbol: str("The symbol."),
          reason: oneOfEnum(
            "same-object: defined in the same object as its callers; static: not an external symbol; inlined: no call remains; not-referenced: never called.",
            ["same-object", "static", "inlined", "not-referenced"],
          ),
        },
        { detail: str("Where it was found (object file, caller).") },
      ),
    ),
    commands: arr("Child processes run.", ref("command", "One process.")),
  },
  pickDefs("provenance", "failure", "build", "command"),
  {
    allOf: [
      failedNeedsFailure,
      {
        if: { properties: { status: { const: "ok" } }, required: ["status"] },
        then: { required: ["groups", "calls"] },
      },
    ],
  },
);

// ---------------------------------------------------------------- survey
const verdictEnum = ["ICCS-only", "mixed", "bypass"] as const;
export const survey = recordSchema(
  "survey",
  "ngcc-perf symmetric-primitive survey verdict",
  "Whether an algorithm uses the ICCS placeholder functions only, mixes them with its own primitives, or bypasses them; the automatic finding and the curated text are kept apart.",
  {
    provenance: ref("provenance", "Where this record came from."),
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

// ---------------------------------------------------------------- size catalog row
const kexMessageList = (description: string) => arr(description, { type: "integer", minimum: 0 }, { minItems: 1 });
export const sizeCatalogRow: JsonSchema = {
  $schema: DRAFT,
  $id: `${ID_BASE}size-catalog-row.schema.json`,
  title: "ngcc-perf size catalog row",
  description:
    "One row of external_sizes.csv, the curated catalog of transmitted sizes (docs/sizes.md): columns algorithm_id, instance, public_key, ciphertext, signature, source, note, and optionally category, public_key_a, kex_messages. Empty cells are null.",
  ...obj(
    "A catalog row.",
    {
      algorithmId,
      instance: instanceName,
      publicKeyBytes: nullable(nat("Public key size in bytes (key exchange: the responder B's long-term public key).")),
      ciphertextBytes: nullable(nat("Ciphertext size in bytes (KEM).")),
      signatureBytes: nullable(
        nat("Signature size in bytes as the source quotes it (the API gives the maximum for variable-length ones)."),
      ),
      source: str("Where the figure comes from (specification section, URL)."),
      note: str("Remark, e.g. why it differs from the API."),
    },
    {
      category,
      publicKeyABytes: nullable(
        nat("Key exchange: the initiator A's long-term public key in bytes (0 when A has none)."),
      ),
      kexMessageBytes: nullable(
        kexMessageList(
          "Key exchange: each protocol message's size in pass order, bytes (column kex_messages: 1632+832).",
        ),
      ),
    },
  ),
};

// ---------------------------------------------------------------- size audit
const sizes = (what: string) =>
  obj(
    `${what} sizes in bytes; absent fields do not apply.`,
    {},
    {
      publicKeyBytes: nat("Public key, bytes."),
      secretKeyBytes: nat("Secret key, bytes."),
      ciphertextBytes: nat("Ciphertext, bytes."),
      signatureBytes: nat("Signature, bytes (API: the maximum)."),
      sharedSecretBytes: nat("Shared secret, bytes."),
    },
  );
const apiSizes = obj(
  "API (from the compiled api.h) sizes in bytes; absent fields do not apply.",
  {},
  {
    publicKeyBytes: nat("Public key, bytes."),
    secretKeyBytes: nat("Secret key, bytes (key exchange: the long-term secret key, as longTermSecretKeyBytes)."),
    ciphertextBytes: nat("Ciphertext, bytes."),
    signatureBytes: nat("Signature, bytes: CRYPTO_BYTES, the maximum."),
    sharedSecretBytes: nat("Shared secret, bytes."),
    passes: int("Key exchange: CRYPTO_KEX_PASSES.", { minimum: 1 }),
    msg1Bytes: nat("Key exchange: CRYPTO_KEX_MSG1BYTES, bytes."),
    msg2Bytes: nat("Key exchange: CRYPTO_KEX_MSG2BYTES, bytes."),
    publicKeyABytes: nat("Key exchange: CRYPTO_KEX_PUBLICKEYBYTES_A, bytes."),
    secretKeyABytes: nat("Key exchange: CRYPTO_KEX_SECRETKEYBYTES_A, bytes."),
    publicKeyBBytes: nat("Key exchange: CRYPTO_KEX_PUBLICKEYBYTES_B, bytes."),
    secretKeyBBytes: nat("Key exchange: CRYPTO_KEX_SECRETKEYBYTES_B, bytes."),
    stateABytes: nat("Key exchange: CRYPTO_KEX_STATEBYTES_A, bytes."),
    stateBBytes: nat("Key exchange: CRYPTO_KEX_STATEBYTES_B, bytes."),
    bandwidthBytes: nat("Key exchange: NGCC_KEX_BANDWIDTH_BYTES as the compiler computed it, bytes."),
  },
);
const lengthFields = {
  min: nat("Shortest, bytes."),
  mean: nonneg("Mean, bytes."),
  max: nat("Longest, bytes."),
  samples: int("Outputs measured.", { minimum: 1 }),
};
const distribution = obj("A measured length distribution.", lengthFields, {
  sources: arr(
    "The records the lengths were read from; the figures above combine them (min of the minima, max of the maxima, mean weighted by samples).",
    obj("One source.", {
      source: oneOfEnum(
        "kat: the lengths the KAT record holds (outputs of the KAT generation); timing: the timing record's lengths (every call of the timing run).",
        ["kat", "timing"],
      ),
      path: relPath,
      ...lengthFields,
    }),
    { minItems: 1 },
  ),
});
const tableSource = oneOfEnum("catalog: the catalog's figure; api: the API's (no catalog figure).", ["catalog", "api"]);
export const sizeAudit = recordSchema(
  "size-audit",
  "ngcc-perf size audit",
  "Sizes of one algorithm's instances from the catalog, the API and measurement, the section-6 table, and every disagreement found.",
  {
    provenance: ref("provenance", "Where this record came from."),
    system: systemId,
    algorithmId,
    category,
    instances: arr(
      "Per instance.",
      obj(
        "One instance.",
        { instance: instanceName },
        {
          algname: nullable(str("CRYPTO_ALGNAME from the compiled api.h, or null when it defines none.")),
          api: apiSizes,
          catalog: nullable(
            obj(
              "The catalog row, or null when missing.",
              {},
              {
                publicKeyBytes: nullable(nat("Public key, bytes.")),
                ciphertextBytes: nullable(nat("Ciphertext, bytes.")),
                signatureBytes: nullable(nat("Signature, bytes.")),
                publicKeyABytes: nullable(nat("Key exchange: the initiator's public key, bytes.")),
                kexMessageBytes: nullable(kexMessageList("Key exchange: each protocol message, bytes.")),
                source: str("Catalog source column."),
                note: str("Catalog note column."),
                line: int("Line of the row in the catalog file.", { minimum: 1 }),
              },
            ),
          ),
          measured: obj(
            "Output lengths seen in KAT and timing runs.",
            {},
            {
              publicKeyBytes: distribution,
              ciphertextBytes: distribution,
              signatureBytes: distribution,
            },
          ),
          table: sizes(
            "Section 6 row (public key, ciphertext, signature from the catalog; secret key, shared secret from the API)",
          ),
          tableFrom: obj(
            "Where the section-6 public key, ciphertext and signature came from (secret key and shared secret are always the API's).",
            {},
            { publicKeyBytes: tableSource, ciphertextBytes: tableSource, signatureBytes: tableSource },
          ),
          kex: obj("Key-exchange section 6 row.", {
            passes: int("Protocol passes.", { minimum: 1 }),
            messageBytes: arr(
              "Each protocol message's size from the API, in pass order, bytes.",
              {
                type: "integer",
                minimum: 0,
              },
              { minItems: 1 },
            ),
            protocolMessageBytes: nat("Sum of the protocol messages, bytes."),
            publicKeyABytes: nat("Initiator's public key that must be transmitted, bytes (0 when none is required)."),
            publicKeyBBytes: nat("Responder's public key that must be transmitted, bytes."),
            bandwidthBytes: nat(
              "All protocol messages plus each required public key once, bytes; certificates and framing excluded.",
            ),
            longTermSecretKeyBytes: nat(
              "Long-term secret key (API cap), bytes: the larger of the two parties' (each party stores its own).",
            ),
            sharedSecretBytes: nat("Shared secret, bytes."),
          }),
          failure: ref("failure", "Why the instance's API figures could not be read (e.g. api.h does not compile)."),
          commands: arr(
            "Child processes run for this instance (building and running printparams).",
            ref("command", "One process."),
          ),
        },
      ),
    ),
    findings: arr(
      "Disagreements found (empty when catalog, API and measurement agree).",
      obj(
        "One disagreement.",
        {
          instance: str("Instance (or catalog instance name) concerned."),
          kind: oneOfEnum(
            "catalog-differs-from-api; measured-exceeds-api (an implementation bug); catalog-row-missing; catalog-row-unknown-instance.",
            ["catalog-differs-from-api", "measured-exceeds-api", "catalog-row-missing", "catalog-row-unknown-instance"],
          ),
        },
        {
          field: oneOfEnum(
            "Size field concerned. Key exchange: publicKeyBBytes (catalog public_key), publicKeyABytes, message1Bytes / message2Bytes (kex_messages), passes (how many messages the catalog lists vs CRYPTO_KEX_PASSES).",
            [
              "publicKeyBytes",
              "secretKeyBytes",
              "ciphertextBytes",
              "signatureBytes",
              "sharedSecretBytes",
              "publicKeyABytes",
              "publicKeyBBytes",
              "message1Bytes",
              "message2Bytes",
              "passes",
            ],
          ),
          catalog: nullable(nat("Catalog figure, bytes.")),
          api: nullable(nat("API figure, bytes.")),
          measured: nullable(nat("Largest measured figure, bytes.")),
          note: str("Catalog note or explanation."),
          line: int("Line of the catalog row concerned.", { minimum: 1 }),
        },
      ),
    ),
  },
  {
    inputsHash,
    buildProfile: buildProfileName,
    catalog: obj(
      "The catalog used.",
      { path: str("Catalog file path as shown in the report.") },
      {
        sha256: ref("sha256", "SHA-256 of the catalog file."),
      },
    ),
    notes: arr(
      "Notes shown under the section-6 table (e.g. on authentication when only the responder has a long-term key).",
      {
        type: "string",
      },
    ),
  },
  pickDefs("provenance", "sha256", "failure", "command"),
);

// ---------------------------------------------------------------- store index
export const storeIndex = recordSchema(
  "store-index",
  "ngcc-perf store index",
  "Index of one system's folder of a record store: the algorithms measured (section 1 facts) and every file with its hash.",
  {
    provenance: ref("provenance", "Where this record came from."),
    system: systemId,
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

/** Every schema by record kind. */
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
} as const;
