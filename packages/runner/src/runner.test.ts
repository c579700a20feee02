import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { elfLoadSize } from "./build.ts";
import { loadCampaign } from "./campaign.ts";
import { InputError } from "./errors.ts";
import { apiNamespace, categoryFromApi, matchesAny, operationsOf } from "./instances.ts";
import { runProcess } from "./proc.ts";
import { HOST_CONTEXT } from "./run-context.ts";
import { aggregate } from "./stats.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-runner-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("statistics", () => {
  const trials = [100, 102, 98, 101, 120].map((perOp) => ({
    iterations: 10,
    counterDelta: perOp * 20,
    ns: perOp * 10,
  }));
  const a = aggregate(trials);

  it("computes n, means over all iterations and the median of the trial means", () => {
    expect(a.n).toBe(50);
    expect(a.iterationsPerTrial).toBe(10);
    expect(a.meanNs).toBeCloseTo(104.2, 10);
    expect(a.meanCounter).toBeCloseTo(208.4, 10);
    expect(a.opsPerSecond).toBeCloseTo(1e9 / 104.2, 6);
    expect(a.medianTrialNs).toBe(101);
    expect(a.medianTrialCounter).toBe(202);
    expect([a.minTrialNs, a.maxTrialNs, a.q1TrialNs, a.q3TrialNs]).toEqual([98, 120, 100, 102]);
  });

  it("gives the sample standard deviation, a Student-t interval and flags a large spread", () => {
    const sd = Math.sqrt([100, 102, 98, 101, 120].reduce((s, x) => s + (x - 104.2) ** 2, 0) / 4);
    expect(a.stddevTrialNs).toBeCloseTo(sd, 10);
    expect(a.cv).toBeCloseTo(sd / 104.2, 10);
    expect(a.ci95Ns.high - 104.2).toBeCloseTo((2.776 * sd) / Math.sqrt(5), 10);
    expect(a.unstable).toBe(true); // (120 - 98) / 101 > 5%
    expect(aggregate(trials.slice(0, 4)).unstable).toBe(false); // (102 - 98) / 100.5 < 5%
  });

  it("refuses no trials", () => {
    expect(() => aggregate([])).toThrow(/no trials/);
  });
});

describe("api.h", () => {
  it("finds PQClean's namespace prefix and plain NIST names", () => {
    expect(apiNamespace("#define PQCLEAN_MLKEM512_CLEAN_CRYPTO_SECRETKEYBYTES  1632\n")).toBe(
      "PQCLEAN_MLKEM512_CLEAN_",
    );
    expect(apiNamespace("#define CRYPTO_SECRETKEYBYTES 1632\n")).toBe("");
  });

  it("tells the category by its macros", () => {
    expect(categoryFromApi("#define CRYPTO_CIPHERTEXTBYTES 768")).toBe("kem");
    expect(categoryFromApi("#define CRYPTO_BYTES 2420\nint crypto_sign(void);")).toBe("sign");
    expect(categoryFromApi("#define CRYPTO_KEX_PASSES 1")).toBe("kex");
    expect(categoryFromApi("nothing")).toBeNull();
  });

  it("lists operations per category, key exchange in page order", () => {
    expect(operationsOf("kem")).toEqual(["keygen", "enc", "dec"]);
    expect(operationsOf("kex", 2)).toEqual(["exchange", "init_a", "init_b", "pass1", "pass2", "derive_a", "derive_b"]);
    expect(matchesAny("kem-90/Puffin-128", ["kem-90/*"])).toBe(true);
    expect(matchesAny("Puffin-128", ["Puffin-K-*"])).toBe(false);
  });
});

describe("ELF image size", () => {
  it("equals the sum of the PT_LOAD MemSiz that readelf reports", () => {
    const src = join(tmp, "lib.c");
    writeFileSync(src, "static int big[4096] = {1};\nint f(int i) { return big[i & 4095]; }\n");
    const so = join(tmp, "lib.so");
    execFileSync("gcc", ["-shared", "-fPIC", "-O2", src, "-o", so]);
    const text = execFileSync("readelf", ["-lW", so], { encoding: "utf8" });
    const expected = text
      .split("\n")
      .filter((l) => /^\s*LOAD\s/.test(l))
      .reduce((sum, l) => sum + Number.parseInt(l.trim().split(/\s+/)[5] as string, 16), 0);
    expect(expected).toBeGreaterThan(4096 * 4);
    expect(elfLoadSize(so)).toBe(expected);
    expect(() => elfLoadSize(src)).toThrow(/not an ELF file/);
  });
});

describe("child processes", () => {
  it("kills a process that passes its time limit", async () => {
    const r = await runProcess(["sleep", "30"], { context: HOST_CONTEXT, timeoutMs: 200 });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe("SIGKILL");
    expect(r.durationMs).toBeLessThan(20_000);
  });

  it("reports a program that cannot be started, and bounds captured output", async () => {
    expect((await runProcess(["/nonexistent/cc"], { context: HOST_CONTEXT, timeoutMs: 5000 })).spawnError).toMatch(
      /ENOENT/,
    );
    const r = await runProcess(["head", "-c", "100000", "/dev/zero"], {
      context: HOST_CONTEXT,
      timeoutMs: 5000,
      maxOutputBytes: 1000,
    });
    expect(r.stdout.length).toBe(1000);
    expect(r.exitCode).toBe(0);
  });
});

describe("campaigns", () => {
  const write = (name: string, text: string) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };

  it("applies the defaults of the seeds: 5 trials, at least 20 iterations", () => {
    const c = loadCampaign(
      write("ok.yaml", "name: t\nsystem: x86_1\nalgorithms:\n  - { id: a, source: { pqclean: ml-kem-512 } }\n"),
    );
    expect(c.timing.trials).toBe(5);
    expect(c.timing.minIterations).toBe(20);
    expect(c.defaultProfile).toBe("guide");
    expect(c.systems).toEqual(["x86_1"]);
  });

  it("rejects a bad campaign naming the file, line and pointer", () => {
    const p = write("bad.yaml", "name: t\nsystem: x86_1\ntiming:\n  trials: many\nalgorithms: []\n");
    expect(() => loadCampaign(p)).toThrow(InputError);
    expect(() => loadCampaign(p)).toThrow(/bad\.yaml:4:\d+ \/timing\/trials must be integer/);
  });

  it("rejects unknown profiles, duplicate ids and a missing file", () => {
    const base = "name: t\nsystem: x86_1\n";
    expect(() =>
      loadCampaign(
        write("p.yaml", `${base}algorithms:\n  - { id: a, buildProfiles: [fast], source: { pqclean: x } }\n`),
      ),
    ).toThrow(/build profile "fast", which is not defined/);
    expect(() =>
      loadCampaign(
        write(
          "d.yaml",
          `${base}algorithms:\n  - { id: a, source: { pqclean: x } }\n  - { id: a, source: { pqclean: y } }\n`,
        ),
      ),
    ).toThrow(/\/algorithms\/1\/id: algorithm id "a" appears twice/);
    expect(() =>
      loadCampaign(
        write(
          "c.yaml",
          `${base}algorithms:\n  - { id: kem-1, source: { pqclean: x } }\n  - { id: KEM-1, source: { pqclean: y } }\n`,
        ),
      ),
    ).toThrow(/\/algorithms\/1\/id: algorithm id "KEM-1" differs from "kem-1" only in case/);
    expect(() => loadCampaign(join(tmp, "none.yaml"))).toThrow(
      /none\.yaml:1:1 \(root\) cannot read the campaign: cannot read: ENOENT/,
    );
  });
});
