// Hostile and faulty submissions through the real pipeline (`ngcc-perf run … --steps …`), each with its expected
// outcome: a failure record with its reason and exit 1 for the faulty ones; for the hostile ones, attempts that
// all fail inside the sandbox (docs/security.md) — no secret byte anywhere in the store or the site, no file
// outside the job's folder, no connection accepted by a listener on 127.0.0.1, no process left in `ps` after the
// run or after a kill -9 of the CLI (or of its process group).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, repoRoot, runCliAsync } from "./fixture-tools.ts";
import { type HostileCase, hostileCampaign, storeRecords, storeText } from "./hostile-tools.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-hostile-"));
const token = randomBytes(8).toString("hex");
const secretText = `NGCC-SECRET-${token}`;
const plantedSecret = join(homedir(), `.ngcc-hostile-secret-${token}`);
/** What of /etc/shadow this process can read (as root: its lines); nothing of it may reach the store. */
const shadowLines = (() => {
  try {
    return readFileSync("/etc/shadow", "utf8")
      .split("\n")
      .filter((l) => l.length >= 8);
  } catch {
    return [];
  }
})();

let listener: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  writeFileSync(plantedSecret, `${secretText}\n`, { mode: 0o600 });
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((res) => listener.listen(0, "127.0.0.1", () => res()));
  const address = listener.address();
  port = typeof address === "object" && address ? address.port : 0;
});

afterAll(async () => {
  rmSync(plantedSecret, { force: true });
  await new Promise<void>((res) => listener.close(() => res()));
  rmSync(tmp, { recursive: true, force: true });
});

/** A campaign over one hostile copy of kem-90 (Puffin-128) per case. */
function campaign(
  name: string,
  cases: HostileCase[],
  timeouts: string,
  extra: string[] = [],
): { file: string; out: string } {
  return hostileCampaign(join(tmp, name), cases, {
    timeouts,
    extra,
    options: (_c, dest, out) => ({
      secrets: [plantedSecret],
      port,
      targets: outsideTargets(join(dest, "kem-90"), out),
    }),
  });
}

/** Where write-outside tries to create files: /tmp, /var/tmp, /dev/shm, $HOME, the repository, its sources, the store. */
function outsideTargets(submission: string, out: string): string[] {
  const name = `ngcc-hostile-${token}`;
  return [
    join("/tmp", name),
    join("/var/tmp", name),
    join("/dev/shm", name),
    join(homedir(), name),
    join(repoRoot, name),
    join(submission, name),
    join(out, name),
    `../${name}`,
    `../../${name}`,
  ];
}

/** Processes still alive (not zombies) that belong to a run: the store in their arguments, or the hostile name. */
function survivors(marker: string): string[] {
  const r = spawnSync("ps", ["-eo", "pid=,stat=,comm=,args="], { encoding: "utf8" });
  return r.stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => {
      const m = /^(\d+)\s+(\S+)\s+(\S+)\s+(.*)$/.exec(l);
      if (!m || Number(m[1]) === process.pid || (m[2] ?? "").startsWith("Z")) return false;
      return m[3] === "ngcc-hostile" || (m[4] ?? "").includes(marker);
    });
}

async function noSurvivorsWithin(marker: string, ms: number): Promise<string[]> {
  const end = Date.now() + ms;
  let left = survivors(marker);
  while (left.length > 0 && Date.now() < end) {
    await new Promise((res) => setTimeout(res, 100));
    left = survivors(marker);
  }
  return left;
}

describe("hostile submissions are contained", () => {
  it("reads no secret, reaches no listener, writes nothing outside its folder, leaves no process — and still measures", async () => {
    const cases: HostileCase[] = [
      { id: "read-secrets", kinds: ["read-secrets"] },
      { id: "connect", kinds: ["connect"] },
      { id: "write-outside", kinds: ["write-outside"] },
      { id: "fork-outlive", kinds: ["fork-outlive"] },
      { id: "setsid-daemon", kinds: ["setsid-daemon"] },
    ];
    const { file, out } = campaign("escape", cases, "{ buildSeconds: 120, operationSeconds: 20, katSeconds: 30 }");
    const started = Date.now();
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "build,kat,time,report"]);
    const took = Date.now() - started;
    expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)/);
    expect(r.code, r.stderr).toBe(0);
    // The daemon holding stdout and stderr held nothing up: no job timed out.
    expect(took).toBeLessThan(120_000);

    // The attempts ran (their messages are in the records' stderr tails) and failed.
    const text = storeText(out, true);
    expect(text).toMatch(/ngcc-hostile: read \/etc\/shadow: (Permission denied|No such file)/);
    expect(text).toMatch(/ngcc-hostile: connect 127\.0\.0\.1: (Connection refused|Network is unreachable)/);
    expect(text).toMatch(/ngcc-hostile: create \/tmp\/ngcc-hostile-[0-9a-f]+: succeeded/); // its private /tmp
    expect(text).toMatch(
      /ngcc-hostile: create [^:]*\/ngcc-hostile-[0-9a-f]+: (Read-only file system|Permission denied|No such file)/,
    );
    expect(/ngcc-hostile: read [^:\n]*: got.{0,300}/s.exec(text)?.[0]).toBeUndefined();
    expect(/ngcc-hostile: connect 127\.0\.0\.1: succeeded.{0,300}/s.exec(text)?.[0]).toBeUndefined();

    // No secret byte anywhere in the store or the site.
    expect(existsSync(join(out, "site"))).toBe(true);
    const all = storeText(out);
    expect(all.includes(secretText)).toBe(false);
    expect(all.includes(Buffer.from(secretText).toString("hex"))).toBe(false);
    for (const line of shadowLines) expect(all.includes(line)).toBe(false);

    // No connection reached the listener.
    expect(connections).toBe(0);

    // No file outside the job's folder (the store holds none of the names either).
    for (const c of cases) {
      for (const t of outsideTargets(join(tmp, "escape", "submissions", c.id, "kem-90"), out)) {
        if (t.startsWith("/")) expect(existsSync(t), t).toBe(false);
      }
    }
    expect(filesUnder(out).filter((f) => f.includes(`ngcc-hostile-${token}`))).toEqual([]);
    expect(filesUnder(join(tmp, "escape", "submissions")).filter((f) => f.includes(`ngcc-hostile-${token}`))).toEqual(
      [],
    );

    // No process left: neither the forked child nor the daemon.
    expect(await noSurvivorsWithin(out, 2000)).toEqual([]);

    // And they were measured: KAT PASS, every operation timed, every command sandboxed.
    const kat = storeRecords(out, "kat");
    const timing = storeRecords(out, "records");
    for (const c of cases) {
      expect(kat[`${c.id}/Puffin-128`]?.verdict, c.id).toBe("PASS");
      for (const op of ["keygen", "enc", "dec"]) expect(timing[`${c.id}/Puffin-128__${op}`]?.status, c.id).toBe("ok");
    }
    const commands = [...Object.values(kat), ...Object.values(timing)].flatMap((x) => x.commands ?? []);
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.every((c) => c.sandboxed === true)).toBe(true);
  }, 180_000);

  it("turns faulty submissions into failure records with their reason, exit 1", async () => {
    const cases: HostileCase[] = [
      { id: "segfault", kinds: ["segfault"] },
      { id: "endless-loop", kinds: ["endless-loop"] },
      { id: "overflow-small", kinds: ["overflow-small"] },
      { id: "overflow-large", kinds: ["overflow-large"] },
      { id: "abort", kinds: ["abort"] },
      { id: "output-200mb", kinds: ["output-200mb"] },
      { id: "alloc-20gb", kinds: ["alloc-20gb"] },
      { id: "nonzero-return", kinds: ["nonzero-return"] },
    ];
    const { file, out } = campaign("faults", cases, "{ buildSeconds: 120, operationSeconds: 3, katSeconds: 30 }");
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "build,time"]);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)/);
    expect(r.code, r.stderr).toBe(1);
    const timing = storeRecords(out, "records");
    const failure = (id: string, op = "enc") => timing[`${id}/Puffin-128__${op}`]?.failure;
    const expected: Record<string, [string, RegExp]> = {
      segfault: ["crash", /SIGSEGV/],
      "endless-loop": ["timeout", /time limit of 3 s/],
      "overflow-small": ["canary", /wrote past an output buffer/],
      "overflow-large": ["crash", /SIGSEGV/],
      abort: ["crash", /SIGABRT/],
      "alloc-20gb": ["check-failed", /malloc\(20 GiB\) = NULL/],
      "nonzero-return": ["check-failed", /result check failed/],
    };
    for (const [id, [reason, message]] of Object.entries(expected)) {
      expect(failure(id)?.reason, `${id}: ${JSON.stringify(failure(id))}`).toBe(reason);
      expect(failure(id)?.message, id).toMatch(message);
      for (const op of ["keygen", "dec"])
        expect(timing[`${id}/Puffin-128__${op}`]?.status, `${id} ${op}`).toBe("failed");
    }
    // 200 MB of output (the driver sends what an implementation prints to stderr) is capped and measured around:
    // no record is large.
    for (const op of ["keygen", "enc", "dec"]) expect(timing[`output-200mb/Puffin-128__${op}`]?.status, op).toBe("ok");
    for (const f of filesUnder(join(out, "data"))) expect(statSync(f).size, f).toBeLessThan(1024 * 1024);
    expect(await noSurvivorsWithin(out, 2000)).toEqual([]);
  }, 180_000);

  it("reports non-deterministic output as a KAT mismatch and times nothing of it, exit 1", async () => {
    const { file, out } = campaign(
      "nondet",
      [{ id: "nondeterministic", kinds: ["nondeterministic"] }],
      "{ buildSeconds: 120, operationSeconds: 20, katSeconds: 30 }",
    );
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "build,kat,time"]);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)/);
    expect(r.code, r.stderr).toBe(1);
    const kat = storeRecords(out, "kat")["nondeterministic/Puffin-128"];
    expect(kat?.verdict).toBe("FAIL");
    expect(kat?.outcome).toBe("output-differs");
    for (const op of ["keygen", "enc", "dec"]) {
      expect(storeRecords(out, "records")[`nondeterministic/Puffin-128__${op}`]?.failure?.reason).toBe("kat-failed");
    }
    expect(await noSurvivorsWithin(out, 2000)).toEqual([]);
  }, 120_000);

  it("needs bubblewrap, naming the package, unless the campaign runs unconfined — which every record then says", async () => {
    const { file, out } = campaign(
      "unconfined",
      [{ id: "plain", kinds: [] }],
      "{ buildSeconds: 120, operationSeconds: 20 }",
    );
    // A PATH with prlimit and a compiler but no bwrap.
    const bin = join(tmp, "bin-without-bwrap");
    mkdirSync(bin, { recursive: true });
    for (const tool of ["prlimit", "gcc"]) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const env = { ...process.env, PATH: bin };
    const refused = await runCliAsync(["run", file, "--out", out, "--steps", "build,time"], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /campaign\.yaml: the sandbox for submission code needs bwrap \(apt-get install bubblewrap\)/,
    );
    expect(refused.stderr).toMatch(/sandbox: \{ enabled: false \}/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(out, "data"))).toBe(false);

    writeFileSync(file, readFileSync(file, "utf8").replace("algorithms:", "sandbox: { enabled: false }\nalgorithms:"));
    const r = await runCliAsync(["run", file, "--out", out, "--steps", "build,time"]);
    expect(r.code, r.stderr).toBe(0);
    const commands = Object.values(storeRecords(out, "records")).flatMap((x) => x.commands ?? []);
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.every((c) => c.sandboxed === false)).toBe(true);
  }, 120_000);

  for (const how of ["the CLI", "the CLI's process group"] as const) {
    it(`leaves no process running after a kill -9 of ${how}`, async () => {
      const { file, out } = campaign(
        how === "the CLI" ? "kill-cli" : "kill-group",
        [{ id: "loop", kinds: ["fork-outlive", "endless-loop"] }],
        "{ buildSeconds: 120, operationSeconds: 120, katSeconds: 120 }",
      );
      let pid = 0;
      const run = runCliAsync(["run", file, "--out", out, "--steps", "build,time"], {
        detached: how !== "the CLI",
        onStart: (p) => {
          pid = p;
        },
      });
      // Wait until the looping driver runs in the sandbox (the child forked by an earlier process, `ngcc-driver
      // info`, shows first on a busy machine: it is not what loops).
      const end = Date.now() + 90_000;
      while (Date.now() < end && !survivors(out).some((l) => /ngcc-driver check/.test(l))) {
        await new Promise((res) => setTimeout(res, 100));
      }
      const running = survivors(out);
      expect(
        running.some((l) => /ngcc-driver check/.test(l)),
        running.join("\n"),
      ).toBe(true);
      process.kill(how === "the CLI" ? pid : -pid, "SIGKILL");
      const result = await run;
      expect(result.signal).toBe("SIGKILL");
      expect(await noSurvivorsWithin(out, 5000)).toEqual([]);
    }, 120_000);
  }
});
