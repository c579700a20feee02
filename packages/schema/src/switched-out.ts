// Which of a worker's per-call samples the timing figures are taken from (docs/methodology.md, "Samples during
// which the process was switched out"): the driver reads the process's context switches before and after each
// sample, outside the timed region, and lists the samples during which they changed (the timing record's
// samples[].switchedOut). Such a sample holds another task's time too — on a loaded 2-core machine a preemption
// adds one scheduler slice, 4–8 ms, to a call of 0.1–0.2 ms — so it is left out: the rule is here, in the schema
// package, so that the runner (the figures) and compare (which resamples the raw samples) apply the same one.

/**
 * The most a worker's samples may be left out for a switch, as a share of them: a quarter. Beyond it the worker
 * keeps every sample (it is measured as it ran, and the record says so): a worker switched out that often shared
 * its CPU for most of its run, and a driver — which shares its process with the submission's code — cannot drop
 * more than a quarter of its samples, its slowest or any others, by listing them. A process sharing its CPU with a
 * busy one is switched every few milliseconds whatever it runs, so the share grows with the length of a sample: on
 * this project's 2-core VM with one busy process beside the run, 50 ms workers were switched out 6–37 times, in
 * 0.9–5.0 % of the samples of 60–90 µs calls and 8.8–12 % of those of 370 µs calls.
 */
export const SWITCHED_OUT_CAP = 0.25;

/** The samples kept and left out of one worker. */
export interface KeptSamples {
  /** 0-based indices of the samples kept, ascending. */
  kept: number[];
  /** How many were left out (0 when none was switched out, or when more than the cap were). */
  dropped: number;
  /** More than the cap's share was switched out, so none was left out. */
  overCap: boolean;
}

/**
 * The samples of a worker the figures use: all but those listed as switched out, unless more than `cap` of them
 * are (then all). `count` is the worker's number of samples; indices outside it are ignored.
 */
export function keptSamples(
  count: number,
  switchedOut: readonly number[] | undefined,
  cap: number = SWITCHED_OUT_CAP,
): KeptSamples {
  const all = Array.from({ length: count }, (_, i) => i);
  const out = new Set((switchedOut ?? []).filter((i) => Number.isInteger(i) && i >= 0 && i < count));
  if (out.size === 0) return { kept: all, dropped: 0, overCap: false };
  if (out.size > cap * count) return { kept: all, dropped: 0, overCap: true };
  return { kept: all.filter((i) => !out.has(i)), dropped: out.size, overCap: false };
}
