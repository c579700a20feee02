// The KAT record: Known-Answer-Test verification of one instance under one build profile (the `kat` step,
// section 3 of a page), pointing at its log.
import { arr, bool, int, nat, nullable, obj, oneOfEnum, recordSchema, ref, str } from "./builders.ts";
import { inputsHash, lengthFields, pickDefs, relPath } from "./common.ts";
import { instanceHeader } from "./header.ts";

const abbreviated = str("Value abbreviated for display (first and last bytes in hex).");
const katLength = obj("A length distribution over the KAT entries.", lengthFields);
export const kat = recordSchema(
  "kat",
  "ngcc-perf KAT record",
  "Known-Answer-Test verification of one instance under one build profile (section 3), pointing at its log.",
  {
    ...instanceHeader,
    verdict: oneOfEnum(
      "PASS: every entry line of the generated output equals the expected .rsp's byte for byte (CRLF line endings, comment lines, empty lines and the final newline may differ, each named in warnings), or the output hashes to the expected hash; FAIL: an entry differs or the KAT file is corrupt; ERROR: generation failed (crash, timeout, build error).",
      ["PASS", "FAIL", "ERROR"],
    ),
    log: obj(
      "The KAT log, evidence listed in section 7.",
      { path: relPath },
      {
        sha256: ref("sha256", "SHA-256 of the log file."),
        sha256Prefix: str(
          "Leading hex digits of the log's SHA-256 when only a prefix is known (synthesized records made from published pages).",
          { pattern: "^[0-9a-f]{8,63}$" },
        ),
      },
      { oneOf: [{ required: ["sha256"] }, { required: ["sha256Prefix"] }] },
    ),
  },
  {
    inputsHash,
    build: ref("build", "How the KAT generator was built."),
    manifest: obj(
      "Check of the submission's kat.sha256 manifest against its .rsp files.",
      {
        path: str(
          "Manifest path as shown in the report: the algorithm id, then its path in the submission, e.g. kem-20/KAT/kat.sha256.",
        ),
        status: oneOfEnum(
          "ok: every listed file matches; mismatch: a file's hash differs (corrupt or altered KAT file); missing: no manifest; not-applicable: an expected hash is given instead of files.",
          ["ok", "mismatch", "missing", "not-applicable"],
        ),
      },
      {
        mismatches: arr(
          "Files whose hash differs from the manifest.",
          obj(
            "One mismatch.",
            {
              file: str("File named in the manifest."),
              expected: ref("sha256", "Hash in the manifest."),
            },
            {
              actual: nullable(ref("sha256", "Hash of the file as found, or null when missing.")),
            },
          ),
        ),
      },
    ),
    expected: obj(
      "What the generated output was compared with.",
      {
        source: oneOfEnum("rsp-file: a NIST .rsp file; sha256: an expected hash (PQClean-style).", [
          "rsp-file",
          "sha256",
        ]),
      },
      {
        path: str("Path of the expected .rsp file."),
        sha256: ref("sha256", "SHA-256 of the expected output."),
        form: oneOfEnum(
          "Which output the hash covers: rsp (the whole .rsp), single (entry 0, PQClean nistkat-sha256), all (N entries, liboqs).",
          ["rsp", "single", "all"],
        ),
        entries: int("Entries the expected output covers.", { minimum: 1 }),
        note: str("Where an expected hash comes from."),
      },
    ),
    generated: obj(
      "The output generated with the instance.",
      {
        sha256: ref("sha256", "SHA-256 of the generated output."),
      },
      {
        entries: nat("Entries generated."),
        bytes: nat("Size of the generated output in bytes."),
        forms: obj(
          "SHA-256 of every form made from the one run.",
          {},
          {
            rsp: ref("sha256", "The whole .rsp (header, entries each followed by an empty line)."),
            single: ref("sha256", "Entry 0 without header or empty lines (PQClean nistkat-sha256)."),
            all: ref("sha256", "All generated entries, no header, an empty line between entries (liboqs all)."),
          },
        ),
      },
    ),
    diagnosis: obj(
      "On FAIL: where the output first differs.",
      {
        differingEntries: nat("How many entries differ."),
      },
      {
        firstCount: nat("count of the first differing entry."),
        field: str("First differing field of that entry (seed, pk, sk, ct, ss, mlen, msg, smlen, sm, …)."),
        expected: abbreviated,
        actual: abbreviated,
      },
    ),
    error: ref(
      "failure",
      "On ERROR: what went wrong; on a FAIL output-differs without a diagnosis: why the generator's output was not compared (its forms disagree with each other: tampered or inconsistent output).",
    ),
    corruption: arr(
      "With outcome corrupt-kat: every problem found in the shipped .rsp or its manifest (the submission's fault, not the implementation's).",
      obj(
        "One problem.",
        {
          file: str("The file, relative to the store's view of the submission (e.g. kem-90/KAT/kat.sha256)."),
          message: str("What is wrong and what was expected."),
        },
        { line: int("1-based line of the file, when the problem has one.", { minimum: 1 }) },
      ),
    ),
    outcome: oneOfEnum(
      "Why the verdict is what it is: match (PASS); output-differs (FAIL: the implementation's output differs from the expected KAT, see diagnosis — or the generator's output forms disagree with each other, tampered or inconsistent, see error); corrupt-kat (FAIL: the shipped .rsp is malformed, missing or disagrees with its manifest, or the manifest is malformed: a corrupt or altered KAT file, reported apart from implementation failures, see corruption); no-expected-kat (ERROR: nothing to compare with); error (ERROR: build, crash, timeout or a failed check, see error).",
      ["match", "output-differs", "corrupt-kat", "no-expected-kat", "error"],
    ),
    rng: oneOfEnum(
      "KAT randomness: nist-ctr-drbg (AES-256 CTR_DRBG of NIST's rng.c) or hqc-shake256 (HQC's SHAKE256 KAT RNG).",
      ["nist-ctr-drbg", "hqc-shake256"],
    ),
    checks: arr(
      "Every comparison made (one per expected .rsp file or expected hash).",
      obj(
        "One comparison.",
        {
          form: oneOfEnum("Output form compared: rsp, single or all.", ["rsp", "single", "all"]),
          entries: int("Entries the form covers.", { minimum: 1 }),
          expectedSha256: ref("sha256", "SHA-256 of the expected output (LF line endings)."),
          generatedSha256: ref("sha256", "SHA-256 of the generated output."),
          match: bool(
            "True when the generated output equals the expected one: for a .rsp every entry line byte for byte (expectedSha256 then differs from generatedSha256 when only comments, empty lines or the final newline differ; see warnings).",
          ),
        },
        {
          source: str("Where the expectation comes from: the .rsp path or the origin of the hash."),
        },
      ),
    ),
    lengths: obj(
      "Output lengths seen while generating the KAT (for the size audit; signatures: signed message length minus message length).",
      {},
      {
        publicKeyBytes: katLength,
        ciphertextBytes: katLength,
        signatureBytes: katLength,
      },
    ),
    warnings: arr(
      "Non-fatal findings: CRLF line endings; a .rsp differing from the generated output only outside its entries (each line, expected and generated); .rsp files the manifest lists that no instance uses; a missing manifest.",
      { type: "string" },
    ),
    commands: arr("Child processes run.", ref("command", "One process.")),
  },
  pickDefs("provenance", "sha256", "build", "failure", "command"),
);
