// The timing record: per-call time of one operation (the `time` step, docs/methodology.md "Timing"), with the raw
// trials behind the aggregates and the seeds' memory figures.
import { type JsonSchema, ref } from "./builders.ts";
import {
  arr,
  bool,
  buildProfileName,
  fraction,
  int,
  nat,
  nonneg,
  nullable,
  obj,
  oneOfEnum,
  pickDefs,
  str,
} from "./common.ts";
import { jobFields, operationRecord } from "./header.ts";

/** What the betweenRun fields (the time's and the cycles') say. */
const BETWEEN_RUN_REF =
  "The between-run component added to the interval beside it: the time's to ci95Ns, the cycles' own to cycles.ci95.";

/** The between-run component a run added to an interval (`ngcc-perf run --between-run FILE`). */
const betweenRunApplied: JsonSchema = obj(
  "The between-run component of this machine added to the interval beside it (ngcc-perf calibrate; ngcc-perf run --between-run FILE): its half-width is √(within² + (t(df) · √2 · relativeSd · figure)²), the lower end at 0 at most. Absent when none was given: the interval is then the within-run prediction interval, which does not hold across a change of the machine's state that no worker of the run saw.",
  {
    relativeSd: nonneg("The component: sd of a run's figure beyond its within-run noise, a fraction of the figure."),
    df: int("Its degrees of freedom (sessions − 1).", { minimum: 1 }),
    sessions: int("A/A sessions behind it.", { minimum: 2 }),
    withinRelativeHalfWidth: nonneg(
      "The within-run prediction interval's half-width, a fraction of the figure: what the run's own workers give (the precision target judges it).",
    ),
    sha256: str("SHA-256 of the between-run file.", { pattern: "^[0-9a-f]{64}$" }),
    measured: str("When and where it was measured: the file's system, host and end time."),
  },
);

export const timing = operationRecord({
  kind: "timing",
  title: "ngcc-perf timing and memory record",
  description:
    "Timing and memory of one operation of one instance under one build profile (sections 4 and 5), with the raw trials behind the aggregates.",
  fields: {
    ...jobFields("How the measured library was built."),
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
        metTarget: bool(
          "Whether the within-run half-width ≤ the target: relativeHalfWidth, or betweenRun.withinRelativeHalfWidth when a between-run component was added (sampling cannot narrow that part).",
        ),
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
        cycles: obj(
          "The same statistic in estimated core cycles, with its interval (the same rule as ci95Ns).",
          {
            value: nonneg("The figure, estimated core cycles per call."),
            ci95: ref(
              "interval",
              "95 % prediction interval of a repeat run's estimated core cycles, the rule of ci95Ns over the workers' cycle figures.",
            ),
            relativeHalfWidth: nonneg("Half-width of ci95 (the prediction interval) as a fraction of value."),
            metTarget: bool(
              "Whether the within-run half-width ≤ the target: relativeHalfWidth, or betweenRun.withinRelativeHalfWidth when a between-run component was added (sampling cannot narrow that part).",
            ),
          },
          { betweenRun: ref("betweenRun", BETWEEN_RUN_REF) },
        ),
        betweenRun: ref("betweenRun", BETWEEN_RUN_REF),
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
          "The least reference, adds per cycle: 3.75 on an AMD x86-64 core run natively, 0 elsewhere (Intel x86-64 cores alone read no one figure; ARM; emulation).",
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
              "runner-clock: the samples (or trials) of a worker add up to no more than the runner's own clock over its process (durationMs); requested-duration: they add up to at least a tenth of the duration the runner asked for, unless the count is at its cap; counter-vs-clock: the counter's figures agree with the driver's CLOCK_MONOTONIC; warm-up-estimate: the median call is no faster than an 8th of the driver's own warm-up estimate; core-clock: each worker's core-clock probe (the dependent add chain) reads 0.2–7 GHz; cycles-per-instruction: cycles per call ÷ the instructions counted per call lies within 0.1–8.",
              [
                "runner-clock",
                "requested-duration",
                "counter-vs-clock",
                "warm-up-estimate",
                "core-clock",
                "cycles-per-instruction",
              ],
            ),
            outcome: oneOfEnum("pass or flagged.", ["pass", "flagged"]),
            message: str("What was compared, with the figures; for a flagged check, which worker and by how much."),
          }),
        ),
      },
    ),
  },
  defs: {
    ...pickDefs("provenance", "failure", "build", "counter", "trial", "interval", "memory", "command"),
    betweenRun: betweenRunApplied,
  },
  ok: { required: ["counter", "trials", "aggregates"] },
});
