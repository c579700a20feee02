// Record store paths and atomic writes: a store never holds half a record.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
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
