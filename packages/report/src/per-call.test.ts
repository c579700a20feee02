// Records measured per call (method "per-call") on the pages: the seed columns in their order with the published
// central figure in the median column, a ± column (the time's own interval's relative half-width, † where the
// target was missed), n as workers × calls (× batch), the mean marked ‡ for an input-dependent operation with its
// tail and reason in their own columns and one legend line, the method as measured under the table and the
// environment's warnings above it; a mixed page (per-call
// and trials records) and a page of seed records (trials method, synthesized: the seeds' columns, no warning); the
// system index's headline and the method page's per-call sections.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { environmentWarnings, recordPath } from "@ngcc-perf/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCounter, formatHalfWidth, formatOpsPerSecond, formatTime } from "./format.ts";
import { renderSite } from "./site.ts";
import {
  jittered,
  measuredProvenance,
  miniStore,
  type PerCallOptions,
  perCallRecord,
  prng,
  type Rec,
  readJson,
  recordAt,
  SEED,
  sectionOf as sectionText,
  writeJson,
} from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-per-call-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const INPUTS: Record<string, PerCallOptions["inputs"]> = {
  keygen: { keyPairs: 0, pool: 0, messages: "none", description: "fresh randomness per call" },
  enc: { keyPairs: 4, pool: 0, messages: "none", description: "4 key pairs in rotation" },
  dec: { keyPairs: 4, pool: 64, messages: "none", description: "a pool of 64 ciphertexts over 4 keys" },
};

/** A measured environment: a VM whose clock is not fixed, boost and SMT on, the driver pinned to CPU 1. */
function measuredEnvironment(root: string): void {
  const file = recordPath(root, { kind: "environment", key: { system: "arm_1" } });
  const env = readJson(file);
  env.provenance = measuredProvenance("2026-10-02T09:00:00Z");
  env.processor = { ...env.processor, logicalCpus: 2, pinnedCpu: 1, hypervisor: true };
  env.clock = { fixedFrequencyHz: null, governor: "schedutil", boost: "on", smt: "on" };
  env.counter = { ...env.counter, overhead: 12, description: "test counter" };
  writeJson(file, env);
}

/** Rewrites a seed timing record of the store as a per-call record. */
function perCall(
  root: string,
  key: { algorithmId: string; instance: string; operation: string },
  options: (centerNs: number, rand: () => number) => PerCallOptions,
): Rec {
  const file = recordAt(root, "timing", key);
  const seed = readJson(file);
  const rand = prng(key.instance.length * 31 + key.operation.length);
  const r = perCallRecord(seed, { inputs: INPUTS[key.operation], ...options(seed.aggregates.medianTrialNs, rand) });
  writeJson(file, r);
  return r;
}

const threeWorkers = (center: number, rand: () => number, counts = [2000, 2000, 2000]) =>
  counts.map((c) => jittered(rand, c, center, 0.02));

/** Rounds of rejection sampling: 0, 1 or 2 extra rounds of half a call each (a wide, discrete distribution). */
const rejection = (center: number, rand: () => number, count: number) =>
  Array.from({ length: count }, () => {
    const u = rand();
    const rounds = u < 0.5 ? 0 : u < 0.8 ? 1 : 2;
    return Math.round(center * (1 + 0.5 * rounds) * (1 + (rand() * 2 - 1) * 0.01));
  });

const records = new Map<string, Rec>();
const pages = new Map<string, string>();
const page = (name: string, rel: string) => {
  const key = `${name}/${rel}`;
  let text = pages.get(key);
  if (text === undefined) {
    text = readFileSync(join(tmp, `${name}-out`, "site", rel), "utf8");
    pages.set(key, text);
  }
  return text;
};
const rec = (instance: string, op: string) => records.get(`${instance} ${op}`) as Rec;

/** The text of one section of a Markdown page (from its heading to the next), which the page must have. */
function sectionOf(md: string, heading: string): string {
  expect(md.indexOf(`## ${heading}`), heading).toBeGreaterThanOrEqual(0);
  return sectionText(md, heading);
}

/** kem-22 measured per call, every operation of every instance. */
function kem22(root: string): void {
  for (const instance of ["Mithril-128", "Mithril-256", "Mithril-512"])
    for (const operation of ["keygen", "enc", "dec"]) {
      const key = { algorithmId: "kem-22", instance, operation };
      let r: Rec;
      if (instance === "Mithril-128" && operation === "dec")
        // Input-dependent: the mean is published, over 5 workers.
        r = perCall(root, key, (c, rand) => ({
          workersNs: Array.from({ length: 5 }, () => rejection(c, rand, 6000)),
          statistic: "mean",
          reason:
            "mean of 30000 single calls over 5 workers: the per-call distribution is wide (IQR 50 % of the median): the time depends on the input",
        }));
      else if (instance === "Mithril-512" && operation === "enc")
        // The workers disagree by a few percent: the interval stays wide and the budget stops the sampling.
        r = perCall(root, key, (c, rand) => ({
          workersNs: [1, 1.03, 0.98].map((f) => jittered(rand, 2000, c * f, 0.02)),
          stoppedBy: "budget",
          elapsedMs: 2105,
        }));
      else if (instance === "Mithril-256" && operation === "keygen")
        r = perCall(root, key, (c, rand) => ({ workersNs: threeWorkers(c, rand, [2000, 2004, 1998]) }));
      else r = perCall(root, key, (c, rand) => ({ workersNs: threeWorkers(c, rand) }));
      records.set(`${instance} ${operation}`, r);
    }
}

/** kem-21: one instance measured per call (unpinned, keygen batched with a counter overhead to show), the rest the
 * seed's trials records. */
function kem21(root: string): void {
  const instance = "MAMBA-Viper-128";
  records.set(
    `${instance} keygen`,
    perCall(root, { algorithmId: "kem-21", instance, operation: "keygen" }, (c, rand) => ({
      workersNs: Array.from({ length: 4 }, () => jittered(rand, 500, c, 0.02)),
      batch: 32,
      batchReason: "batches of 32: a call is < 1000 × the counter overhead",
      overheadShare: 0.004,
      pinnedCpu: null,
      minWorkers: 4,
    })),
  );
  for (const operation of ["enc", "dec"])
    records.set(
      `${instance} ${operation}`,
      perCall(root, { algorithmId: "kem-21", instance, operation }, (c, rand) => ({
        workersNs: threeWorkers(c, rand),
        pinnedCpu: null,
      })),
    );
}

beforeAll(async () => {
  const mixed = miniStore(join(tmp, "mixed"), ["kem-21", "kem-22", "kex-06"]);
  measuredEnvironment(mixed);
  kem22(mixed);
  kem21(mixed);
  await renderSite(mixed, { out: join(tmp, "mixed-out") });
  // A store whose every record was measured per call.
  const only = miniStore(join(tmp, "only"), ["kem-22"]);
  measuredEnvironment(only);
  kem22(only);
  await renderSite(only, { out: join(tmp, "only-out"), formats: ["md"] });
});

const ENV_WARNINGS = [
  "Measured in a virtual machine: the host can take the CPU away, so the figures are weaker than on bare metal.",
  "The clock frequency was not fixed and the cpufreq governor was schedutil, not performance: the frequency may have changed during the run.",
  "Turbo boost was on: the clock may have risen and fallen with temperature and the load of other cores.",
  "SMT (hyper-threading) was on: another thread may have shared the measuring core.",
];
const NOT_PINNED = "The driver was not pinned to a CPU: the scheduler may have moved it between CPUs.";

describe("a page measured per call", () => {
  it("keeps the seed columns in order, adds ± after the median, and writes n as workers × calls", () => {
    const perf = sectionOf(page("mixed", "arm_1/kem-22.md"), "4. Performance");
    expect(perf).toContain(
      "| instance | operation | mean cycles | mean time | ops/s | median per call | ± | n (workers × calls) |",
    );
    const k = rec("Mithril-128", "keygen");
    expect(k.central.metTarget).toBe(true);
    expect(perf).toContain(
      `| \`Mithril-128\` | keygen | ${formatCounter(k.aggregates.meanCounter)} | ${formatTime(k.aggregates.meanNs)} | ${formatOpsPerSecond(k.aggregates.opsPerSecond)} | ${formatTime(k.central.valueNs)} | ${formatHalfWidth(k.central.relativeHalfWidth)} | 6000 (3 × 2000) |`,
    );
    expect(formatHalfWidth(k.central.relativeHalfWidth)).toMatch(/^±0\.\d%$/);
    // Workers that took different numbers of samples: a range.
    expect(perf).toMatch(
      /\| `Mithril-256` \| keygen \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| ±[\d.]+% \| 6002 \(3 × 1998–2004\) \|/,
    );
  });

  it("marks the mean of an input-dependent operation, with its tail and its reason in its own cells", () => {
    const md = page("mixed", "arm_1/kem-22.md");
    const d = rec("Mithril-128", "dec");
    expect(d.central.statistic).toBe("mean");
    expect(d.central.metTarget).toBe(true);
    const tail = `p99 ${formatTime(d.distribution.p99Ns)} · max ${formatTime(d.distribution.maxNs)} / ${d.distribution.calls} calls`;
    const why = d.central.reason.replace(/^mean of 30000 single calls over 5 workers: /, "");
    expect(why).not.toBe(d.central.reason);
    expect(md).toContain(
      `| \`Mithril-128\` | dec | ${formatCounter(d.aggregates.meanCounter)} | ${formatTime(d.aggregates.meanNs)} | ${formatOpsPerSecond(d.aggregates.opsPerSecond)} | mean ${formatTime(d.central.valueNs)} ‡ | ${formatHalfWidth(d.central.relativeHalfWidth)} | 30000 (5 × 6000) | ${tail} | ${why} |`,
    );
    // One legend line, no list of operations.
    expect(md).toContain(
      "‡ The mean per call over the varied inputs is published, not the median: the operation's work depends on its input (1 of ",
    );
    expect(md).not.toContain("Mithril-128 dec: single calls");
    // A median row has no tail and no reason.
    expect(md).toMatch(/\| `Mithril-128` \| keygen \|[^\n]*\| 6000 \(3 × 2000\) \| — \| — \|/);
  });

  it("marks an interval that missed its target, with one legend line giving the target and the cause", () => {
    const md = page("mixed", "arm_1/kem-22.md");
    const e = rec("Mithril-512", "enc");
    expect(e.central.metTarget).toBe(false);
    const hw = formatHalfWidth(e.central.relativeHalfWidth);
    expect(md).toMatch(
      new RegExp(
        `\\| \`Mithril-512\` \\| enc \\| [^|]+ \\| [^|]+ \\| [^|]+ \\| [^|]+ \\| ${hw} † \\| 6000 \\(3 × 2000\\) \\|`,
      ),
    );
    expect(md).toContain(
      "† Precision target (±1% on the time) not reached, marked on the ± it applied to: stopped by the 2 s sampling budget (1 row).",
    );
    // No other row is marked.
    expect(md.match(/ †/g)?.length).toBe(1);
  });

  it("says how the records were measured, under the table", () => {
    const perf = sectionOf(page("mixed", "arm_1/kem-22.md"), "4. Performance");
    expect(perf).toContain(
      "Method as measured: per call (each sample one call timed alone), in 3 to 5 fresh worker processes per operation, pinned to CPU 1; sampling went on until the 95% interval was within ±1% with at least 3 workers, or until 2 s of sampling was spent. Inputs varied per call. For keygen, fresh randomness per call. For enc, 4 key pairs in rotation. For dec, a pool of 64 ciphertexts over 4 keys.",
    );
    expect(perf).not.toContain("read overhead");
    expect(perf).not.toContain("Unstable");
  });

  it("warns above the table of what the environment record says", () => {
    const md = page("mixed", "arm_1/kem-22.md");
    const perf = sectionOf(md, "4. Performance");
    const warning = `Warnings from the environment record: ${ENV_WARNINGS.join(" ")}`;
    expect(perf).toContain(warning);
    expect(perf.indexOf(warning)).toBeLessThan(perf.indexOf("| instance |"));
    expect(perf).not.toContain(NOT_PINNED);
  });

  it("shows the same in HTML: ± header, marks, notes and the warning before the table", () => {
    const html = page("mixed", "arm_1/kem-22.html");
    const perf = html.slice(html.indexOf('<section id="performance"'), html.indexOf('<section id="resources"'));
    expect(perf).toContain(
      '<th scope="col" class="num">median per call</th><th scope="col" class="num">±</th><th scope="col" class="num">n (workers × calls)</th><th scope="col">tail per call (p99 · p99.9 · max / calls)</th>',
    );
    const e = rec("Mithril-512", "enc");
    // Figures are right-aligned (class num) so that magnitudes line up.
    expect(perf).toContain(
      `<td class="num">${formatHalfWidth(e.central.relativeHalfWidth)} †</td><td class="num">6000 (3 × 2000)</td>`,
    );
    const d = rec("Mithril-128", "dec");
    expect(perf).toContain(`<td class="num">mean ${formatTime(d.central.valueNs)} ‡</td>`);
    expect(perf).toContain('<th scope="row"><code>Mithril-128</code></th><td>dec</td>');
    expect(perf).toContain("<p>‡ The mean per call over the varied inputs is published");
    expect(perf).toContain("<p>† Precision target (±1% on the time) not reached, marked on the ± it applied to");
    expect(perf).toContain("<p>Method as measured: per call (each sample one call timed alone)");
    const warning = perf.indexOf("<p>Warnings from the environment record: Measured in a virtual machine");
    expect(warning).toBeGreaterThan(0);
    expect(warning).toBeLessThan(perf.indexOf("<table>"));
    expect(perf).toContain('aria-label="Per-worker spread');
  });

  it("draws each worker's figure relative to the published one", () => {
    const svg = readFileSync(join(tmp, "mixed-out", "site", "arm_1", "img", "kem-22-workers.svg"), "utf8");
    expect(svg).toContain("Mithril-128 keygen");
    expect(svg).toContain("worker's figure relative to the published figure (%)");
    expect(page("mixed", "arm_1/kem-22.md")).toContain(
      "![Per-worker spread: each worker process's median, or its mean where the mean is published, relative to the published figure](img/kem-22-workers.svg)",
    );
    // The per-trial chart is for the trials method only.
    expect(page("mixed", "arm_1/kem-22.md")).not.toContain("kem-22-spread.svg");
    // Symmetric about 0, and 0 is a tick.
    expect(svg).toMatch(/>0(\.0)?<\/text>/);
  });

  it("draws the published figures with their 95 % intervals and their values, in µs on a fitted axis", () => {
    const svg = readFileSync(join(tmp, "mixed-out", "site", "arm_1", "img", "kem-22-time.svg"), "utf8");
    // A linear axis in µs (the figures span less than a factor 20), ticks in plain numbers, no SI suffixes.
    expect(svg).toContain("time per operation (µs)");
    expect(svg).not.toMatch(/>\d+µ<\/text>/);
    // Each bar's figure is written after it, as the table gives it.
    const k = rec("Mithril-128", "keygen");
    expect(svg).toContain(`>${formatTime(k.central.valueNs)}</text>`);
    // An error bar (a line of the chart's rule mark, not of its axes) per bar with an interval: 9 operations.
    const marks = svg.slice(svg.indexOf('class="mark-rule role-mark'));
    expect((marks.slice(0, marks.indexOf("</g>")).match(/<line /g) ?? []).length).toBe(9);
    expect(page("mixed", "arm_1/kem-22.md")).toContain("with its 95 % interval as an error bar");
  });
});

describe("a page mixing per-call and trials records", () => {
  it("has the ± column, a dash for the trials rows, batches in n and says which rows are which", () => {
    const perf = sectionOf(page("mixed", "arm_1/kem-21.md"), "4. Performance");
    expect(perf).toContain("| instance | operation | mean cycles | mean time | ops/s | median | ± | n |");
    const k = rec("MAMBA-Viper-128", "keygen");
    expect(perf).toContain(
      `| \`MAMBA-Viper-128\` | keygen | ${formatCounter(k.aggregates.meanCounter)} | ${formatTime(k.aggregates.meanNs)} | ${formatOpsPerSecond(k.aggregates.opsPerSecond)} | ${formatTime(k.central.valueNs)} | ${formatHalfWidth(k.central.relativeHalfWidth)} | 64000 (4 × 500 × 32) |`,
    );
    expect(perf).toMatch(
      /\| `MAMBA-Viper-128` \| enc \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| ±[\d.]+% \| 6000 \(3 × 2000 × 1\) \|/,
    );
    const seed = readJson(join(SEED, "records", "kem-21", "guide", "MAMBA-Viper-192__dec.json")).aggregates;
    expect(perf).toContain(
      `| \`MAMBA-Viper-192\` | dec | ${formatCounter(seed.meanCounter)} | ${formatTime(seed.meanNs)} | ${formatOpsPerSecond(seed.opsPerSecond)} | ${formatTime(seed.medianTrialNs)} | — | ${seed.n} (5 × ${seed.iterationsPerTrial}) |`,
    );
    expect(perf).toContain(
      "Rows with — under ± were timed by the trials method: their median is the median of the trial means and n is trials × iterations per trial; the other rows were measured per call: n is the calls timed, workers × samples × batch.",
    );
  });

  it("states the batch and its reason, the unpinned workers and the counter overhead", () => {
    const perf = sectionOf(page("mixed", "arm_1/kem-21.md"), "4. Performance");
    expect(perf).toContain(
      "Method as measured: per call (each sample one call timed alone, except MAMBA-Viper-128 keygen: 32 calls per sample (batches of 32: a call is \\< 1000 × the counter overhead)), in 3 to 4 fresh worker processes per operation, not pinned to a CPU; sampling went on until the 95% interval was within ±1% with at least 3 or 4 workers, or until 2 s of sampling was spent, as each operation's record sets. Inputs varied per call. For keygen, fresh randomness per call. For enc, 4 key pairs in rotation. For dec, a pool of 64 ciphertexts over 4 keys. The counter's read overhead is more than 0.1% of the median sample for MAMBA-Viper-128 keygen (0.4%).",
    );
    // The records say the workers were not pinned, whatever the environment record says.
    expect(perf).toContain(`Warnings from the environment record: ${[...ENV_WARNINGS, NOT_PINNED].join(" ")}`);
  });
});

describe("the evidence index of records measured per call", () => {
  it("says they hold their raw samples (their trials are the workers' totals)", () => {
    expect(page("only", "arm_1/kem-22.md")).toContain(
      "Paths are relative to data/arm_1/ in the record store; each timing record holds its raw samples;",
    );
    expect(page("mixed", "arm_1/kem-21.md")).toContain(
      "each timing record holds its raw trials or, measured per call, its raw samples",
    );
  });
});

describe("pages of the seeds' records", () => {
  it("keep the seeds' columns and no warning: the seed environment yields none, and records are synthesized", () => {
    expect(environmentWarnings(readJson(join(SEED, "environment.json")))).toEqual([]);
    const perf = sectionOf(page("mixed", "arm_1/kex-06.md"), "4. Performance");
    expect(perf).toContain(
      "| instance | operation | mean cycles | mean time | ops/s | median trial | n (trials × iters) |",
    );
    expect(perf).not.toMatch(/±|Warnings|Method as measured|‡|†/);
    expect(page("mixed", "arm_1/kex-06.md")).toContain("kex-06-spread.svg");
  });
});

describe("the pages that summarise section 4", () => {
  it("gives the central figure as the system index's headline", () => {
    const index = page("mixed", "arm_1/index.md");
    expect(index).toContain(
      "| algorithm | name | function | parameter sets | KAT | time per operation (first parameter set; median per call, or the mean where written) |",
    );
    const [k, e, d] = ["keygen", "enc", "dec"].map((op) => rec("Mithril-128", op));
    expect(index).toContain(
      `keygen ${formatTime(k.central.valueNs)}, enc ${formatTime(e.central.valueNs)}, dec mean ${formatTime(d.central.valueNs)} (Mithril-128)`,
    );
    // A trials record beside per-call ones says it is a mean of trials.
    const seed = readJson(join(SEED, "records", "kex-06", "guide", "MAMBA-NIKE-128__init_a.json")).aggregates;
    expect(index).toMatch(
      new RegExp(`init_a mean ${formatTime(seed.meanNs)}, [^|]* \\(MAMBA-NIKE-128; trials method\\)`),
    );
    // A store of per-call records only.
    expect(page("only", "arm_1/index.md")).toContain("median per call, or the mean where written");
  });

  it("describes the per-call method on the method page, and the trials method only where records use it", () => {
    const only = page("only", "arm_1/method.md");
    expect(only).toContain(
      "How the figures of this system's pages were obtained: the counter, the per-call sampling, statistics, build profiles and environment, read from the records.",
    );
    expect(only).toContain("## Sampling per call");
    expect(only).toContain("## Statistics per call");
    expect(only).not.toContain("## Calibration");
    expect(only).not.toContain("trial means");
    expect(only).toContain(
      "Every timing record was measured per call: each sample is one call timed alone by the counter,",
    );
    expect(only).toContain("| operations measured per call | 9 |");
    expect(only).toContain("| published statistic | median (8), mean (1) |");
    expect(only).toContain("| precision target (95% interval within) | ±1% (9) |");
    expect(only).toContain("| sampling budget per operation | 2 s (9) |");
    expect(only).toContain("| stopped by | target (8), budget (1) |");
    expect(only).toContain("| target reached | 8 of 9 operations |");
    expect(only).toContain("| worker processes per operation | 3 – 5 |");
    expect(only).toContain("| pinned to | CPU 1 (9) |");
    expect(only).toContain("| dec | a pool of 64 ciphertexts over 4 keys | 3 |");
    expect(only).toContain(
      "Mean published instead of the median: 1 of 9 operations, decided by the per-call distribution (1); each algorithm page gives the evidence per row",
    );
    expect(only).toContain(
      "Target not reached: 1 of 9 operations (stopped by budget (1); target on time (1)), marked † on the algorithm pages beside the ± of the figure the target applied to.",
    );
    expect(only).toContain("the Student-t prediction interval over the workers' own figures");
    expect(only).toContain("Records also hold every raw sample,");
    expect(only).toContain(`Warnings from the environment record: ${ENV_WARNINGS.join(" ")}`);
    const mixed = page("mixed", "arm_1/method.md");
    expect(mixed).toContain("the counter, the calibration of the trials, the per-call sampling, statistics");
    expect(mixed).toContain("## Calibration");
    expect(mixed).toContain("## Sampling per call");
    expect(mixed).toContain("| operations measured per call | 12 of ");
    expect(page("mixed", "arm_1/method.html")).toContain(
      "<caption>Calibration over the timing records of the trials method</caption>",
    );
  });
});
