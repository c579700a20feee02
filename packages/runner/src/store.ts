// Record store paths and atomic writes: a store never holds half a record.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function writeFileAtomic(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function sha256File(path: string): string {
  return sha256(readFileSync(path));
}

/** Paths of the store layout (docs/record-schema.md). */
export function storePaths(out: string, system: string) {
  const dataDir = join(out, "data", system);
  return {
    dataDir,
    environment: join(dataDir, "environment.json"),
    index: join(dataDir, "index.json"),
    timing: (alg: string, instance: string, op: string) => join(dataDir, "records", alg, `${instance}__${op}.json`),
    profile: (alg: string, instance: string, op: string) => join(dataDir, "profile", alg, `${instance}__${op}.json`),
    katRecord: (alg: string, instance: string) => join(dataDir, "kat", alg, `${instance}.json`),
    katLog: (alg: string, instance: string) => join(dataDir, "kat", alg, `${instance}.log`),
    sizes: (alg: string) => join(dataDir, "sizes", `${alg}.json`),
    survey: (alg: string) => join(dataDir, "survey", `${alg}.json`),
    buildDir: join(out, "build", system),
  };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes what a killed run left behind: temporary record files (`*.tmp`) below the store's data folder and
 * temporary build folders (`*.tmp-<pid>`) of processes that no longer exist. Finished records and builds
 * are never touched. Returns how many were removed.
 */
export function removeStaleTemps(out: string): number {
  let removed = 0;
  const walk = (dir: string, depth: number) => {
    if (!existsSync(dir) || depth > 8) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const build = /\.tmp-(\d+)$/.exec(e.name);
      if (e.isDirectory() && build && !pidAlive(Number(build[1]))) {
        rmSync(p, { recursive: true, force: true });
        removed++;
      } else if (e.isDirectory()) {
        walk(p, depth + 1);
      } else if (e.name.endsWith(".tmp")) {
        const m = /\.(\d+)\.\d+\.tmp$/.exec(e.name);
        if (!m || !pidAlive(Number(m[1]))) {
          rmSync(p, { force: true });
          removed++;
        }
      }
    }
  };
  walk(join(out, "data"), 0);
  walk(join(out, "build"), 0);
  return removed;
}

/** Sets the campaign end of a system's environment record (the run command, after its last step). */
export function setCampaignEnd(out: string, system: string, end: string): void {
  const path = storePaths(out, system).environment;
  if (!existsSync(path)) return;
  const env = JSON.parse(readFileSync(path, "utf8")) as { campaign?: { end?: string | null } };
  if (!env.campaign) return;
  env.campaign.end = end;
  writeJsonAtomic(path, env);
}
