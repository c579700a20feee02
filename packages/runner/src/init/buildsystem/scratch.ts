// A copy of the submission in init's scratch folder, for build systems that write while they are read (CMake's
// build folder, a Makefile's `$(shell mkdir …)`): regular files and folders only (a symlink is copied as its
// target when that stays inside the submission, else left behind), KAT response files and version-control
// folders left behind, at most MAX_COPY bytes.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../../errors.ts";
import { statInside } from "../util.ts";

const MAX_COPY = 256 * 1024 * 1024;

export function copySubmission(from: string, to: string): void {
  let bytes = 0;
  const walk = (src: string, dst: string, depth: number) => {
    mkdirSync(dst, { recursive: true });
    for (const e of readdirSync(src)) {
      if (e === ".git" || e === "meta.json") continue;
      const s = join(src, e);
      const st = statInside(s);
      if (!st) continue;
      if (st.isDirectory() && depth < 12) walk(s, join(dst, e), depth + 1);
      else if (st.isFile() && !/\.(rsp|req)$/i.test(e)) {
        bytes += st.size;
        if (bytes > MAX_COPY) throw new InputError(`${from}: more than ${MAX_COPY >> 20} MiB of files to read`);
        copyFileSync(s, join(dst, e));
      }
    }
  };
  walk(from, to, 0);
}
