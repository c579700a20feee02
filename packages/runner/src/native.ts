// Where the C sources in native/ are: beside the package when installed from npm (copied in at pack
// time), else the monorepo's native/ folder; NGCC_PERF_NATIVE overrides both.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "./errors.ts";

export function nativeDir(): string {
  const env = process.env.NGCC_PERF_NATIVE;
  if (env) return env;
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, "..", "native"), join(here, "..", "..", "..", "native")]) {
    if (existsSync(join(candidate, "driver"))) return candidate;
  }
  throw new InputError("cannot find ngcc-perf's C sources (native/); set NGCC_PERF_NATIVE to the folder");
}
