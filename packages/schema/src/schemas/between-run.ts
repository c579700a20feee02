// The between-run component of a machine (`ngcc-perf calibrate`, docs/methodology.md "Its interval"): the time step
// repeated as A/A sessions on one machine, each operation's published figure per session, and the relative sd by
// which a run's figure moves beyond what its own workers sample. `ngcc-perf run --between-run FILE` adds it to every
// per-call interval; not a record of a store.
import { arr, bool, int, type JsonSchema, nonneg, nullable, obj, recordSchema, str } from "./builders.ts";
import { algorithmId, buildProfileName, dateTime, instanceName, operationName, systemId } from "./common.ts";

const session = obj("One session's published figure.", {
  value: nonneg("The published figure (ns per call, or estimated core cycles per call)."),
  halfWidth: nonneg("Half-width of the session's own (within-run) 95 % prediction interval, same unit."),
});

const component = obj("The between-run component of one figure (betweenRunComponent in @ngcc-perf/stats).", {
  relativeSd: nonneg(
    "sd of a run's figure beyond its within-run noise, as a fraction of the figure: the variance of the sessions' figures (relative to their mean) less the within-run variance, floored at 0, averaged over the operations.",
  ),
  df: int("Degrees of freedom: sessions − 1 (the operations of one session share its host state).", { minimum: 1 }),
  sessions: int("Sessions behind it.", { minimum: 2 }),
  operations: int("Operations pooled.", { minimum: 1 }),
});

const operation = obj("One operation of one instance under one build profile, over the sessions.", {
  algorithmId,
  instance: instanceName,
  buildProfile: buildProfileName,
  operation: operationName,
  time: arr("The time per session, ns per call, in session order.", session),
  cycles: nullable(arr("The estimated core cycles per session (null: the core clock was not probed).", session)),
  contention: arr(
    "Each session's contention state and the workers it published from (state/publishedFrom; none: no probe).",
    str("state/publishedFrom, e.g. uncontended/uncontended, or none."),
  ),
});

export const betweenRun: JsonSchema = recordSchema(
  "between-run",
  "ngcc-perf between-run component of a machine",
  "The time step of a campaign repeated as A/A sessions on one machine (`ngcc-perf calibrate`): each operation's published figure and within-run half-width per session, and the between-run component of the time and of the estimated cycles that `ngcc-perf run --between-run FILE` adds to every per-call 95 % interval.",
  {
    system: systemId,
    campaign: str("The campaign's name."),
    host: obj("The machine the sessions ran on.", {
      hostname: str("os.hostname()."),
      cpuModel: str("The first 'model name' of /proc/cpuinfo (or os.cpus()[0].model)."),
      cpus: int("Logical CPUs.", { minimum: 1 }),
      kernel: str("os.release()."),
    }),
    start: dateTime("When the first session started."),
    end: dateTime("When the last session ended."),
    gapSeconds: nonneg("Idle seconds between sessions."),
    quick: bool(
      "Whether the sessions were --quick smoke runs (one short worker each: a test of the command, not a calibration).",
    ),
    operations: arr("Every operation timed in every session.", operation),
    time: component,
    cycles: nullable(component),
  },
  {},
  {},
);
