// prepack (copy) and postpack (--remove) of @ngcc-perf/runner: the C sources in native/ ship inside the package, so that the runner
// installed on its own from npm can compile the driver on the user's machine.
import { cpSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dest = join(process.cwd(), "native");
rmSync(dest, { recursive: true, force: true });
if (process.argv.includes("--remove")) process.exit(0); // postpack: the copy is only for the tarball
cpSync(join(root, "native"), dest, {
  recursive: true,
  filter: (src) => !src.endsWith(".md") || src.endsWith("README.md"),
});
process.stderr.write(`copied native/ into ${dest}\n`);
