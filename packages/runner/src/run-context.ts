// What every child process of a run is started with: the sandbox settings (docs/security.md) and the campaign's
// toolchain (target.ts: its compiler flags, emulator prefix, binary tools). A campaign's run context is made from
// it when the campaign is resolved and passed down (runProcess takes it); nothing of it is this process's state.
import { resolve } from "node:path";
import { DEFAULT_SANDBOX_LIMITS, type SandboxSettings } from "./sandbox.ts";
import { HOST_TOOLCHAIN, type TargetToolchain } from "./target.ts";

export interface RunContext {
  /** The sandbox of every process that builds or runs submission code. */
  sandbox: SandboxSettings;
  /** The toolchain the campaign's code is built with and run through. */
  target: TargetToolchain;
  /**
   * Tests only: what a process printed, replayed instead of running it (runProcess starts nothing), so that a
   * measurement's record building is tested on recorded driver output without compiling C.
   */
  replay?: Replay;
  /**
   * The processor vendor of the machine the processes run on, as /proc/cpuinfo's vendor_id says (absent: read from
   * this machine): a replay states the recorded machine's, so that what depends on it (the contention floor) is
   * the recorded run's.
   */
  hostVendor?: string | null;
}

/** What a replayed process printed and how it ended. */
export interface ReplayedRun {
  stdout: string;
  stderr?: string;
  exitCode: number | null;
  signal?: string | null;
  /** The runner's clock over the process, as the real run would have read it (default 0). */
  durationMs?: number;
}

/** Answers a command (its argv and folder) with what it printed; may write the files the real program writes. */
export type Replay = (argv: readonly string[], cwd: string | undefined) => Promise<ReplayedRun>;

/**
 * Outside a campaign (init, env-check, the counter probe of `ngcc-perf env`): the host's toolchain, the default
 * limits, nothing readable beyond the system folders and the paths named on a command line.
 */
export const HOST_CONTEXT: RunContext = {
  sandbox: { enabled: true, limits: { ...DEFAULT_SANDBOX_LIMITS }, readable: [], argvPaths: true },
  target: HOST_TOOLCHAIN,
};

/** A campaign's run context: its sandbox (folders resolved, each once) and its toolchain. */
export function runContextOf(campaign: { sandbox: SandboxSettings; target: TargetToolchain }): RunContext {
  const s = campaign.sandbox;
  return {
    sandbox: {
      enabled: s.enabled,
      limits: { ...s.limits },
      readable: [...new Set(s.readable.map((p) => resolve(p)))],
      argvPaths: s.argvPaths ?? false,
      hidden: [...new Set((s.hidden ?? []).map((p) => resolve(p)))],
    },
    target: campaign.target,
  };
}
