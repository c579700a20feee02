// The between-run component of a published figure (issue 26, docs/methodology.md "Its interval"): what repeated
// runs of the same code on the same machine differ by beyond what the workers of one run sample — a state of the
// host that lasts longer than a run (a sibling thread busy for minutes, another tenant's load, the clock) — measured
// by repeating the time step (A/A sessions) and added to each run's prediction interval.
import { mean } from "./quantile.ts";
import { tQuantile975 } from "./student-t.ts";

/** One operation's figure in one session: the published value and its within-run 95 % prediction half-width. */
export interface SessionFigure {
  value: number;
  /** The half-width of the session's own prediction interval (t · √2 · its figure's within-run sd). */
  halfWidth: number;
}

/** The between-run component: a relative standard deviation with the degrees of freedom behind it. */
export interface BetweenRunComponent {
  /** sd of a run's figure about the machine's long-run figure, beyond the within-run noise, as a fraction. */
  relativeSd: number;
  /** Degrees of freedom of relativeSd (sessions − 1: the operations of one session share its host state). */
  df: number;
  /** Sessions behind it. */
  sessions: number;
  /** Operations pooled. */
  operations: number;
}

/**
 * The between-run component from S ≥ 2 sessions of the same operations (one array of session figures per operation,
 * every array of the same length S, in session order). For each operation, over its session figures relative to
 * their mean: the variance of the sessions' figures less the variance the within-run noise alone gives a session's
 * figure (its half-width over √2 × t: halfWidthOf's prediction rule is t · √2 · sd), floored at zero (method of
 * moments); pooled over the operations by averaging the variances. The degrees of freedom are S − 1, not more:
 * the operations of one session saw one state of the host, so they are not independent evidence of it.
 */
export function betweenRunComponent(
  operations: readonly (readonly SessionFigure[])[],
  withinT = tQuantile975(3),
): BetweenRunComponent {
  if (operations.length === 0) throw new Error("betweenRunComponent: no operations");
  const s = operations[0]?.length ?? 0;
  if (s < 2) throw new Error("betweenRunComponent: at least 2 sessions");
  if (operations.some((o) => o.length !== s))
    throw new Error("betweenRunComponent: every operation needs every session");
  const variances = operations.map((sessions) => {
    const m = mean(sessions.map((x) => x.value));
    if (!(m > 0)) throw new Error("betweenRunComponent: a figure is not positive");
    const rel = sessions.map((x) => x.value / m);
    const rm = mean(rel);
    const observed = rel.reduce((a, r) => a + (r - rm) ** 2, 0) / (s - 1);
    const within = mean(sessions.map((x) => (x.halfWidth / x.value / (Math.SQRT2 * withinT)) ** 2));
    return Math.max(0, observed - within);
  });
  return { relativeSd: Math.sqrt(mean(variances)), df: s - 1, sessions: s, operations: operations.length };
}

/**
 * A within-run prediction half-width with the between-run component added: two runs' figures each carry a
 * between-run deviation of sd relativeSd × value, so their difference has that variance twice; the half-widths
 * add in quadrature, the between-run part with the Student-t quantile of its own degrees of freedom.
 */
export function withBetweenRun(halfWidth: number, value: number, c: Pick<BetweenRunComponent, "relativeSd" | "df">) {
  const between = tQuantile975(c.df) * Math.SQRT2 * c.relativeSd * value;
  return Math.sqrt(halfWidth ** 2 + between ** 2);
}

/**
 * A ratio B/A's 95 % interval (from the bootstrap of the two runs' samples, which sees only their within-run
 * noise) with the two sides' between-run components added: on the log scale, where a relative sd is an sd, the
 * difference of two runs' figures carries σ_A² + σ_B² more; each end's distance from the ratio adds
 * t(min df) · √(σ_A² + σ_B²) in quadrature.
 */
export function ratioWithBetweenRun(
  ratio: number,
  ci: { low: number; high: number },
  a: Pick<BetweenRunComponent, "relativeSd" | "df">,
  b: Pick<BetweenRunComponent, "relativeSd" | "df">,
): { low: number; high: number } {
  if (!(ratio > 0) || !(ci.low > 0) || !(ci.high > 0)) return ci;
  const e = tQuantile975(Math.min(a.df, b.df)) * Math.sqrt(a.relativeSd ** 2 + b.relativeSd ** 2);
  const lo = Math.log(ci.low / ratio);
  const hi = Math.log(ci.high / ratio);
  return { low: ratio * Math.exp(-Math.sqrt(lo ** 2 + e ** 2)), high: ratio * Math.exp(Math.sqrt(hi ** 2 + e ** 2)) };
}
