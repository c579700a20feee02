// init checks an existing kat.sha256 with the harness's own rights: only the submission's own regular files are
// hashed — a listed ../ path or a link out of the folder (a stand-in for /etc/shadow) is named and not read.
import { createHash } from "node:crypto";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planManifest, readRsp } from "./kat-files.ts";
import { kemRsp, writeTree } from "./testkit.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("planManifest on an existing kat.sha256", () => {
  it("hashes the listed files inside the submission, and names the ones it will not read", () => {
    const outside = writeTree({ shadow: "root:SECRET:19000::::::\n" });
    const dir = writeTree({ "KAT/Toy-1/PQCkemKAT_100.rsp": kemRsp(10, 100, 20) });
    dirs.push(outside, dir);
    symlinkSync(join(outside, "shadow"), join(dir, "KAT", "linked.rsp"));
    const rsp = join(dir, "KAT/Toy-1/PQCkemKAT_100.rsp");
    const digest = createHash("sha256")
      .update(kemRsp(10, 100, 20))
      .digest("hex");
    const secret = createHash("sha256").update("root:SECRET:19000::::::\n").digest("hex");
    const up = relative(join(dir, "KAT"), join(outside, "shadow"));
    writeFileSync(
      join(dir, "KAT", "kat.sha256"),
      `${digest}  Toy-1/PQCkemKAT_100.rsp\n${secret}  linked.rsp\n${secret}  ${up}\n`,
    );
    const m = planManifest(dir, [readRsp(dir, rsp)], (p) => relative(dir, p));
    expect(m.action).toBe("checked");
    expect(m.problems).toEqual([
      "KAT/kat.sha256: lists linked.rsp, which is a symbolic link that leaves the submission folder; it is not read",
      `KAT/kat.sha256: lists ${up}, which is outside the submission folder`,
    ]);
  });
});
