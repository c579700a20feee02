// A copy of the submission in init's scratch folder, for build systems that write while they are read (CMake's
// build folder, a Makefile's `$(shell mkdir …)`): regular files and folders only (no symlink is copied or
// followed), KAT response files and version-control folders left behind, at most MAX_COPY bytes.
import { copyFileSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../../errors.ts";

const MAX_COPY = 256 * 1024 * 1024;

export function copySubmission(from: string, to: string): void {
  let bytes = 0;
  const walk = (src: string, dst: string) => {
    mkdirSync(dst, { recursive: true });
    for (const e of readdirSync(src)) {
      if (e === ".git" || e === "meta.json") continue;
      const s = join(src, e);
      const st = lstatSync(s);
      if (st.isDirectory()) walk(s, join(dst, e));
      else if (st.isFile() && !/\.(rsp|req)$/i.test(e)) {
        bytes += st.size;
        if (bytes > MAX_COPY) throw new InputError(`${from}: more than ${MAX_COPY >> 20} MiB of files to read`);
        copyFileSync(s, join(dst, e));
      }
    }
  };
  walk(from, to);
}
