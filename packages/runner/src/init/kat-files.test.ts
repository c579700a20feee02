// init checks an existing kat.sha256 with the harness's own rights: only the submission's own regular files are
// hashed — a listed ../ path or a link out of the folder (a stand-in for /etc/shadow) is named and not read.
import { createHash } from "node:crypto";
import { symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { planManifest, readRsp } from "./kat-files.ts";
import { kemRsp, tempTrees } from "./testkit.ts";

const tree = tempTrees();

describe("planManifest on an existing kat.sha256", () => {
  it("hashes the listed files inside the submission, and names the ones it will not read", () => {
    const outside = tree({ shadow: "root:SECRET:19000::::::\n" });
    const dir = tree({ "KAT/Toy-1/PQCkemKAT_100.rsp": kemRsp(10, 100, 20) });
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
