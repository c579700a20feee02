// meta.json against its schema from the command line (issue 15, part A): `validate` recognises a meta.json by its
// file name and accepts every fixture's; a misspelled key, a wrong type and an unknown API style are refused by
// `validate` and by `run` (readMeta) with the file, the line and the JSON pointer — exit 2, one line, no stack trace,
// nothing written.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { iccsDir, listSubmissions, makeTempDir, runCli, submissionsDir } from "./fixture-tools.ts";

const work = makeTempDir("ngcc-meta-schema-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sig93 = readFileSync(join(submissionsDir, "sig-93", "meta.json"), "utf8");

/** A submission folder (sig-93's meta.json edited by `edit`, one empty C file) and a campaign over it. */
function setup(name: string, edit: (text: string) => string): { dir: string; meta: string; campaign: string } {
  const dir = join(work, name);
  const sub = join(dir, "sub");
  mkdirSync(join(sub, "Reference_Implementation", "common"), { recursive: true });
  writeFileSync(join(sub, "Reference_Implementation", "common", "sign.c"), "int ngcc_nothing;\n");
  const meta = join(sub, "meta.json");
  writeFileSync(meta, edit(sig93));
  const campaign = join(dir, "campaign.yaml");
  writeFileSync(
    campaign,
    [
      "name: meta-schema",
      "system: test_1",
      `iccs: { dir: ${JSON.stringify(iccsDir)} }`,
      "algorithms:",
      `  - { id: sig-93, source: { submission: ${JSON.stringify(sub)} } }`,
      "",
    ].join("\n"),
  );
  return { dir, meta, campaign };
}

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

/** A refusal as bad input: exit 2, the one line expected on stderr, no stack trace, no store written. */
function refused(r: ReturnType<typeof runCli>, message: RegExp, out: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(
    r.stderr
      .trim()
      .split("\n")
      .filter((l) => message.test(l)),
  ).toHaveLength(1);
  expect(existsSync(join(out, "data"))).toBe(false);
}

const cases = [
  {
    id: "misspelled key",
    edit: (t: string) => t.replace('"sources"', '"sourcse"'),
    needle: '"sourcse"',
    pointer: "/instances/0/sourcse",
    run: /unknown field "sourcse" \(did you mean "sources"\?\); expected one of name, sources, .*kat, notes/,
    validate: /unknown field "sourcse" \(did you mean "sources"\?\); expected one of name, sources, .*kat, notes/,
  },
  {
    id: "wrong type",
    edit: (t: string) => t.replace('"defines": [],', '"defines": "WREN_X",'),
    needle: '"WREN_X"',
    pointer: "/instances/0/defines",
    // run keeps readMeta's wording for the fields it checked before the schema; validate says the schema's.
    run: /must be an array of strings/,
    validate: /must be array/,
  },
  {
    id: "unknown api style",
    edit: (t: string) => t.replace('"defines": [],', '"defines": [],\n      "api": { "style": "fips205" },'),
    needle: "fips205",
    pointer: "/instances/0/api/style",
    run: /must be one of "nist", "fips204"/,
    validate: /must be one of "nist", "fips204"/,
  },
];

describe("meta.json schema on the command line", () => {
  it("validate recognises every fixture's meta.json by its file name", () => {
    const files = listSubmissions().map((s) => join(s.dir, "meta.json"));
    expect(files.length).toBeGreaterThanOrEqual(4);
    const r = runCli(["validate", ...files]);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`${files.length} of ${files.length} file(s) valid`);
    expect(r.code).toBe(0);
  });

  it.each(cases)("$id: validate names the file, line and pointer (exit 2)", (c) => {
    const s = setup(`validate-${c.id.replace(/ /g, "-")}`, c.edit);
    const line = lineOf(readFileSync(s.meta, "utf8"), c.needle);
    const r = runCli(["validate", s.meta]);
    expect(r.code, r.stderr).toBe(2);
    const esc = c.pointer.replace(/\//g, "\\/");
    expect(r.stdout).toMatch(new RegExp(`meta\\.json:${line}:\\d+ ${esc} ${c.validate.source}`));
    expect(r.stderr).toMatch(/0 of 1 file\(s\) valid/);
  });

  it.each(cases)("$id: run refuses it before anything is built (exit 2, one line)", (c) => {
    const s = setup(`run-${c.id.replace(/ /g, "-")}`, c.edit);
    const out = join(s.dir, "out");
    const r = runCli(["run", s.campaign, "--out", out]);
    const esc = c.pointer.replace(/\//g, "\\/");
    refused(r, new RegExp(`sub/meta\\.json(:\\d+:\\d+)?:? ${esc} ${c.run.source}`), out);
  });

  it("run accepts the new fields (iccs null, api, profiler) as far as the schema goes", () => {
    const s = setup("run-new-fields", (t) => {
      const m = JSON.parse(t) as Record<string, unknown> & { instances: Array<Record<string, unknown>> };
      m.profiler = { groups: { own: { symbols: ["wren_hash"], kind: "hash" } } };
      m.instances = m.instances.map((i) => ({
        ...i,
        api: { style: "nist" },
        sources: ["Reference_Implementation/common/sign.c"],
      }));
      return JSON.stringify(m, null, 2);
    });
    // A typo elsewhere is still refused, naming the field: everything before it was accepted.
    writeFileSync(s.meta, readFileSync(s.meta, "utf8").replace('"kind": "hash"', '"kinf": "hash"'));
    const out = join(s.dir, "out");
    refused(
      runCli(["run", s.campaign, "--out", out]),
      /sub\/meta\.json:\d+:\d+ \/profiler\/groups\/own\/kinf unknown field "kinf" \(did you mean "kind"\?\)/,
      out,
    );
  });
});
