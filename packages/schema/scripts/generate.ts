// Generates, from the schema sources in src/schemas/:
//   schemas/<kind>.schema.json         the JSON Schemas users install (file exports)
//   src/generated/types.ts             TypeScript types (json-schema-to-typescript)
//   src/generated/validators.js(.d.ts) validators compiled ahead of time (ajv standalone, ESM)
// `--check` writes nothing and exits 1 when a committed file differs (the drift test uses it too).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";
import { generateOutputs } from "./outputs.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  const outputs = await generateOutputs(compile);
  let stale = 0;
  for (const [rel, text] of Object.entries(outputs)) {
    const path = join(root, rel);
    let current: string | null = null;
    try {
      current = readFileSync(path, "utf8");
    } catch {
      current = null;
    }
    if (current === text) continue;
    if (check) {
      process.stderr.write(`stale: ${rel} differs from what scripts/generate.ts produces\n`);
      stale++;
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
    process.stderr.write(`wrote ${rel}\n`);
  }
  return stale > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`generate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
