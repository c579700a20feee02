/**
 * A real single-node Slurm cluster for the tests (Debian's slurm-wlm and munge, as root, no systemd): munged with
 * its own key and socket, slurmctld and slurmd in the foreground with a slurm.conf of their own — one node (this
 * machine, the CPUs `slurmd -C` reports), proctrack/linuxproc, task/none, the default cgroup plugin, ports of
 * their own, state and spool folders — everything inside one temporary folder. The daemons are children of the
 * test process; `stop` cancels this cluster's jobs and ends only these daemons (by their ids).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { delimiter, join } from "node:path";

/** The programs the cluster needs. */
export const SLURM_PROGRAMS = [
  "munged",
  "slurmctld",
  "slurmd",
  "sbatch",
  "scontrol",
  "squeue",
  "scancel",
  "sinfo",
] as const;
export type SlurmProgram = (typeof SLURM_PROGRAMS)[number];

/** The absolute path of a program on PATH (or in the sbin folders, where Debian puts the daemons), or null. */
export function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/sbin", "/usr/bin"];
  for (const d of dirs) {
    if (!d) continue;
    const p = join(d, name);
    if (existsSync(p)) return p;
  }
  return null;
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One job or array task as `scontrol -o show job` prints it. */
export interface JobState {
  jobId: string;
  arrayTaskId: string | null;
  state: string;
  exitCode: string;
  restarts: number;
  start: string;
  end: string;
}

export const TERMINAL_STATES = new Set([
  "COMPLETED",
  "FAILED",
  "CANCELLED",
  "TIMEOUT",
  "NODE_FAIL",
  "OUT_OF_MEMORY",
  "BOOT_FAIL",
  "DEADLINE",
  "PREEMPTED",
]);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `probe` every half second until it returns a value other than undefined; throws after `timeoutMs`. */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(500);
  }
}

/** Processes (other than this one) whose command line, working folder or environment mentions `text`. */
export function processesMentioning(text: string): Array<{ pid: number; cmd: string; cwd: string }> {
  const found: Array<{ pid: number; cmd: string; cwd: string }> = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    const read = (f: string) => {
      try {
        return readFileSync(`/proc/${e}/${f}`, "latin1");
      } catch {
        return ""; // gone, or not readable
      }
    };
    let cwd = "";
    try {
      cwd = readlinkSync(`/proc/${e}/cwd`);
    } catch {
      // gone, or a kernel thread
    }
    const cmd = read("cmdline").replaceAll("\0", " ").trim();
    if (cmd.includes(text) || cwd.includes(text) || read("environ").includes(text)) {
      found.push({ pid: Number(e), cmd: cmd.slice(0, 200), cwd });
    }
  }
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** This host's CPUs and their topology from `slurmd -C` (not its memory, which moves). */
function nodeHardware(slurmd: string): string {
  const r = spawnSync(slurmd, ["-C"], { encoding: "utf8" });
  const line = (r.stdout ?? "").split("\n").find((l) => l.startsWith("NodeName="));
  if (r.status !== 0 || !line) throw new Error(`slurmd -C failed (${r.status}): ${r.stderr}`);
  const keep = ["CPUs", "Boards", "SocketsPerBoard", "CoresPerSocket", "ThreadsPerCore"];
  return line
    .split(/\s+/)
    .filter((kv) => keep.includes(kv.split("=")[0] as string))
    .join(" ");
}

type Daemon = { name: string; child: ChildProcess };
const alive = (d: Daemon) => d.child.exitCode === null && d.child.signalCode === null;

export class SlurmCluster {
  readonly conf: string;
  /** The environment for Slurm commands and jobs of this cluster (SLURM_CONF set). */
  readonly env: NodeJS.ProcessEnv;
  readonly daemons: Daemon[] = [];
  private stopped = false;

  private constructor(
    readonly root: string,
    private readonly programs: Record<string, string>,
  ) {
    this.conf = join(root, "slurm.conf");
    this.env = { ...process.env, SLURM_CONF: this.conf };
  }

  /** Starts munged, slurmctld and slurmd in `root` (an empty folder of the caller's) and waits for the node. */
  static async start(root: string): Promise<SlurmCluster> {
    const programs: Record<string, string> = {};
    const missing: string[] = [];
    for (const p of SLURM_PROGRAMS) {
      const at = findProgram(p);
      if (at) programs[p] = at;
      else missing.push(p);
    }
    if (missing.length > 0) {
      throw new Error(`not installed: ${missing.join(", ")} (apt-get install -y slurm-wlm munge)`);
    }
    if (process.getuid?.() !== 0) throw new Error("the Slurm test starts slurmd, which must run as root");
    const c = new SlurmCluster(root, programs);
    try {
      await c.boot();
    } catch (err) {
      const logs = c.logs();
      await c.stop();
      throw new Error(`${(err as Error).message}\n${logs}`);
    }
    return c;
  }

  private spawnDaemon(name: SlurmProgram, args: string[]): void {
    const out = openSync(join(this.root, "log", `${name}.stdio`), "a");
    const child = spawn(this.programs[name] as string, args, { env: this.env, stdio: ["ignore", out, out] });
    closeSync(out);
    child.on("error", () => {}); // seen as an exit
    this.daemons.push({ name, child });
  }

  private async boot(): Promise<void> {
    const { root } = this;
    // munged wants every folder on the way to its socket searchable by all, and its key private.
    mkdirSync(root, { recursive: true });
    chmodSync(root, 0o755);
    for (const [d, mode] of [
      ["munge", 0o755],
      ["key", 0o700],
      ["state", 0o700],
      ["spool", 0o755],
      ["log", 0o755],
    ] as const) {
      mkdirSync(join(root, d), { mode });
    }
    const key = join(root, "key", "munge.key");
    writeFileSync(key, randomBytes(1024), { mode: 0o400 });
    const socket = join(root, "munge", "munge.socket");
    this.spawnDaemon("munged", [
      "--foreground",
      `--key-file=${key}`,
      `--socket=${socket}`,
      `--pid-file=${join(root, "munge", "munged.pid")}`,
      `--log-file=${join(root, "log", "munged.log")}`,
      `--seed-file=${join(root, "munge", "munged.seed")}`,
    ]);
    await waitFor("munged's socket", 20_000, () => {
      this.checkAlive();
      return existsSync(socket) ? true : undefined;
    });
    const ctldPort = await freePort();
    const slurmdPort = await freePort();
    const host = hostname().split(".")[0] as string;
    writeFileSync(
      this.conf,
      [
        "# one node: this machine (written by packages/tests/src/slurm-cluster.ts)",
        "ClusterName=ngccperftest",
        `SlurmctldHost=${host}(127.0.0.1)`,
        `SlurmctldPort=${ctldPort}`,
        `SlurmdPort=${slurmdPort}`,
        "SlurmUser=root",
        "SlurmdUser=root",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        `AuthInfo=socket=${socket}`,
        `StateSaveLocation=${join(root, "state")}`,
        `SlurmdSpoolDir=${join(root, "spool")}`,
        `SlurmctldPidFile=${join(root, "slurmctld.pid")}`,
        `SlurmdPidFile=${join(root, "slurmd.pid")}`,
        `SlurmctldLogFile=${join(root, "log", "slurmctld.log")}`,
        `SlurmdLogFile=${join(root, "log", "slurmd.log")}`,
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_CPU",
        "ReturnToService=2",
        "MpiDefault=none",
        "JobCompType=jobcomp/none",
        "AccountingStorageType=accounting_storage/none",
        "JobAcctGatherType=jobacct_gather/none",
        "MailProg=/bin/true",
        "MinJobAge=3600", // ended jobs stay visible to scontrol for the whole test
        `NodeName=${host} NodeAddr=127.0.0.1 ${nodeHardware(this.programs.slurmd as string)} State=UNKNOWN`,
        `PartitionName=test Nodes=${host} Default=YES MaxTime=INFINITE State=UP`,
        "",
      ].join("\n"),
    );
    this.spawnDaemon("slurmctld", ["-D", "-f", this.conf]);
    this.spawnDaemon("slurmd", ["-D", "-f", this.conf]);
    await waitFor("the node to be idle", 60_000, () => {
      this.checkAlive();
      const r = this.run("sinfo", ["-h", "-N", "-o", "%T"]);
      return r.code === 0 && r.stdout.trim() === "idle" ? true : undefined;
    });
  }

  private checkAlive(): void {
    for (const d of this.daemons) {
      if (!alive(d)) throw new Error(`${d.name} exited (${d.child.exitCode ?? d.child.signalCode})`);
    }
  }

  /** Runs one of the Slurm commands against this cluster. */
  run(program: SlurmProgram, args: string[]): CommandResult {
    const r = spawnSync(this.programs[program] as string, args, { encoding: "utf8", env: this.env, timeout: 60_000 });
    return { code: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  }

  /** The job (every task of an array job) as the controller knows it; empty when it does not. */
  jobs(id: string): JobState[] {
    const r = this.run("scontrol", ["-o", "show", "job", id]);
    if (r.code !== 0) return [];
    return r.stdout
      .split("\n")
      .filter((l) => l.startsWith("JobId="))
      .map((line) => {
        const f = new Map(
          line.split(/\s+/).map((kv) => {
            const at = kv.indexOf("=");
            return [kv.slice(0, at), kv.slice(at + 1)] as const;
          }),
        );
        return {
          jobId: f.get("JobId") ?? "",
          arrayTaskId: f.get("ArrayTaskId") ?? null,
          state: f.get("JobState") ?? "",
          exitCode: f.get("ExitCode") ?? "",
          restarts: Number(f.get("Restarts") ?? 0),
          start: f.get("StartTime") ?? "",
          end: f.get("EndTime") ?? "",
        };
      });
  }

  /** Task `k` of an array job. */
  task(arrayId: string, k: number): JobState | undefined {
    return this.jobs(arrayId).find((j) => j.arrayTaskId === String(k));
  }

  /** Waits until the job (every task of it) has ended; returns its tasks. */
  waitEnded(id: string, timeoutMs: number): Promise<JobState[]> {
    return waitFor(`job ${id} to end`, timeoutMs, () => {
      this.checkAlive();
      const js = this.jobs(id);
      return js.length > 0 && js.every((j) => TERMINAL_STATES.has(j.state)) ? js : undefined;
    });
  }

  /** The tails of the daemons' logs, for failure messages. */
  logs(): string {
    const dir = join(this.root, "log");
    if (!existsSync(dir)) return "";
    return readdirSync(dir)
      .map((f) => `--- ${f}\n${readFileSync(join(dir, f), "utf8").trimEnd().split("\n").slice(-15).join("\n")}`)
      .join("\n");
  }

  /**
   * Cancels every job of this cluster and waits for them to go, shuts slurmctld and slurmd down
   * (`scontrol shutdown`), then ends munged; a daemon that does not exit in time gets SIGTERM, then SIGKILL.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const slurm = this.daemons.filter((d) => d.name !== "munged");
    const munged = this.daemons.filter((d) => d.name === "munged");
    if (slurm.length === 2 && slurm.every(alive)) {
      const ids = this.run("squeue", ["-h", "-o", "%A"]).stdout.split("\n").filter(Boolean);
      if (ids.length > 0) this.run("scancel", ids);
      await waitFor("the jobs to go", 90_000, () =>
        this.run("squeue", ["-h"]).stdout.trim() === "" ? true : undefined,
      ).catch(() => {});
      this.run("scontrol", ["shutdown"]);
    }
    const exited = (ds: Daemon[], ms: number) =>
      waitFor("the daemons to exit", ms, () => (ds.some(alive) ? undefined : true)).then(
        () => true,
        () => false,
      );
    for (const ds of [slurm, munged]) {
      if (ds === munged) for (const d of ds) if (alive(d)) d.child.kill("SIGTERM");
      if (await exited(ds, 30_000)) continue;
      for (const d of ds) if (alive(d)) d.child.kill("SIGTERM");
      if (await exited(ds, 10_000)) continue;
      for (const d of ds) if (alive(d)) d.child.kill("SIGKILL");
      await exited(ds, 10_000);
    }
  }
}
