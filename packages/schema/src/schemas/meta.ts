// The submission metadata (meta.json) a submission folder carries: how each instance is compiled, its KAT files,
// the ICCS functions it calls (if any), its API style and its own profiler groups. Read by the runner's readMeta
// (packages/runner/src/instances.ts) and recognised by `ngcc-perf validate` by its file name, meta.json.
import { DRAFT, ID_BASE, type JsonSchema, SCHEMA_VERSION } from "./builders.ts";
import { algorithmId, arr, category, ID_PATTERN, nullable, obj, oneOfEnum, str } from "./common.ts";
import { algorithmProfiler } from "./profiler-groups.ts";

/** A path of the submission: relative to the submission folder and inside it (readMeta and validate check both). */
const subPath = (description: string): JsonSchema =>
  str(`${description} Relative to the submission folder, inside it.`, { minLength: 1 });
const subPaths = (description: string): JsonSchema => arr(description, subPath("One path."), {});

const C_SYMBOL = "^[A-Za-z_][A-Za-z0-9_]*$";
const symbols = (description: string): JsonSchema =>
  arr(description, { type: "string", pattern: C_SYMBOL, description: "A C symbol name." });

/** A -D macro without the -D: NAME, NAME=VALUE or a function-like NAME(params)=VALUE. */
const defines = (description: string): JsonSchema =>
  arr(
    description,
    str(
      "A macro without -D: NAME, NAME=VALUE, or a function-like macro NAME(a,b)=VALUE as a package's build passes it (CRYPTO_NAMESPACE(s)=mykem_##s).",
      { pattern: "^[A-Za-z_][A-Za-z0-9_]*(\\([A-Za-z0-9_, ]*\\))?(=[^\\n\\r]*)?$" },
    ),
  );

/** A library linked after the instance's objects: its name as -l takes it. */
const libraries = (description: string): JsonSchema =>
  arr(
    description,
    str("A library name as -l takes it, e.g. crypto for -lcrypto (libm is always linked).", {
      pattern: "^[A-Za-z0-9_][A-Za-z0-9_.+-]*$",
    }),
  );

/**
 * Compiler flags a package's build needs besides its defines and include folders: a language standard, target
 * features and code-generation options — never optimisation, debugging or warnings (the build profile's).
 */
const CFLAG =
  "^(-std=[A-Za-z0-9+]+|-m(?!arch=native|tune=|tune$)[A-Za-z0-9][A-Za-z0-9=.,+_-]*|-f(?!PIC|pic|PIE|pie|sanitize|lto|profile|plugin)[A-Za-z0-9][A-Za-z0-9=.,+_-]*|-pthread)$";
const cflags = (description: string): JsonSchema =>
  arr(
    description,
    str(
      "One flag: -std=…, -m<feature> (not -march=native or -mtune), -f<option> (not -fPIC, -fsanitize, -flto, -fprofile…, -fplugin…) or -pthread; the harness's own code (driver, KAT generator, printparams) gets none of the -f options.",
      { pattern: CFLAG },
    ),
  );

const randomness = (description: string): JsonSchema =>
  oneOfEnum(`${description} randombytes: calls randombytes; self: draws its own randomness (never randombytes).`, [
    "randombytes",
    "self",
  ]);

const api = obj(
  "The API the instance's header declares.",
  {},
  {
    style: oneOfEnum(
      "Signature API: nist (default), the round-3 crypto_sign(sm, smlen, m, mlen, sk) / crypto_sign_open(m, mlen, sm, smlen, pk); fips204, the FIPS 204 context API crypto_sign(sm, smlen, m, mlen, ctx, ctxlen, sk) / crypto_sign_open(m, mlen, sm, smlen, ctx, ctxlen, pk) (plus crypto_sign_signature_ctx / crypto_sign_verify_ctx where present).",
      ["nist", "fips204"],
    ),
    prefix: str(
      "Namespace prefix of every API name, e.g. PQCLEAN_MLDSA44_CLEAN_; default: detected from the header (the prefix of its CRYPTO_SECRETKEYBYTES macro).",
      { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    ),
    context: str("FIPS 204 context string as hex (at most 255 bytes); default empty, or the campaign's signContext.", {
      pattern: "^([0-9a-fA-F]{2}){0,255}$",
    }),
    randombytes: str(
      "The symbol the instance's code calls for randomness when a macro renames randombytes (e.g. PQCLEAN_randombytes): linked to ngcc-perf's randombytes (the KAT DRBG or the system RNG); default randombytes.",
      { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    ),
  },
);

const instance = obj(
  "One instance: one parameter set of one implementation, compiled from exactly the sources listed.",
  {
    name: str("Instance name (part of store paths), e.g. MyKEM-128; unique among the instances, ignoring case.", {
      pattern: ID_PATTERN,
      maxLength: 128,
    }),
    sources: subPaths("Exactly the C files to compile for the instance."),
  },
  {
    implementation: str("The implementation (implementations[].name) the instance belongs to; default reference.", {
      minLength: 1,
    }),
    parameterSet: str("The parameter set (one of parameterSets).", { minLength: 1 }),
    folder: subPath("Folder of the instance (holding its API header)."),
    apiHeader: subPath("The API header file (any name: api.h, kem.h, sign.h …) with the CRYPTO_* size macros."),
    api,
    includeDirs: subPaths("Include folders (-I), in order."),
    defines: defines("Macros for every build of the instance, without -D."),
    cflags: cflags(
      "Compiler flags the package's own build passes besides -D and -I (-std=c11, -mavx2 …), after the build profile's flags in every compile of the instance.",
    ),
    libraries: libraries(
      "System libraries the instance links (its build's -l flags, e.g. crypto), linked after the objects on every link line.",
    ),
    randomness: randomness("How the timing builds draw randomness."),
    randombytesSource: subPath(
      "The submitter's own randombytes.c when it is not among sources; it is always left out of builds (ngcc-perf provides randombytes).",
    ),
    kat: obj(
      "The KAT build and its expected file.",
      {},
      {
        file: subPath("The NIST .rsp file, e.g. KAT/MyKEM-128/PQCkemKAT_1632.rsp."),
        defines: defines("Macros of the KAT build, without -D; they replace defines."),
        randomness: randomness("How the KAT build draws randomness (the KAT DRBG is linked as randombytes)."),
      },
    ),
    notes: str("Free text about the instance."),
  },
);

export const meta: JsonSchema = {
  $schema: DRAFT,
  $id: `${ID_BASE}meta.schema.json`,
  title: "ngcc-perf submission metadata (meta.json)",
  description:
    "A submission's meta.json: how each instance is compiled, its KAT files and manifest, the ICCS functions it calls, its API and its own profiler groups. Paths are relative to the submission folder (docs/adding-a-submission.md).",
  ...obj(
    "Submission metadata.",
    {
      name: str("Algorithm name, e.g. Puffin.", { minLength: 1 }),
      instances: arr(
        "The instances, in page order. Their names are unique, also ignoring case (each names a folder of the store and of the site; readMeta and validate refuse a repeated name).",
        instance,
        { minItems: 1 },
      ),
    },
    {
      $schema: str("URL or path of this schema, for editors; ignored."),
      schemaVersion: { const: SCHEMA_VERSION, description: "Version of this schema the file was written against." },
      id: algorithmId,
      category,
      summary: str("One sentence about the submission."),
      interface: str("The interface the code implements when it is not the NIST API, e.g. ngcc_kex.h."),
      implementations: arr(
        "Implementation versions.",
        obj(
          "One implementation.",
          { name: str("Implementation name, e.g. reference.", { minLength: 1 }) },
          { folder: subPath("Its folder, e.g. Reference_Implementation.") },
        ),
      ),
      parameterSets: arr("Parameter set names, in order.", { type: "string", minLength: 1 }),
      iccs: nullable(
        obj(
          "The ICCS functions the code calls; absent or null: it calls none (nothing of ICCS is linked or included).",
          {},
          {
            header: str("The ICCS header the code includes, e.g. iccs.h."),
            hash: symbols("ICCS hash functions called, e.g. pseudohash, pseudoXOF, sm3hash."),
            drng: symbols("ICCS DRNG functions called, e.g. randombytes."),
          },
        ),
      ),
      ownPrimitives: arr(
        "Symmetric primitives the submission brings itself.",
        obj(
          "One primitive.",
          { name: str("Its name, e.g. SHAKE128 (own Keccak-f[1600]).", { minLength: 1 }) },
          {
            source: subPath("The file implementing it."),
            instances: arr("The instances that use it.", { type: "string" }),
            use: str("What it is used for, e.g. matrix A."),
          },
        ),
      ),
      randombytesSource: subPath(
        "The submitter's own randombytes.c for every instance (an instance's randombytesSource names one for itself); always left out of builds.",
      ),
      katManifest: subPath("The KAT manifest in sha256sum format, e.g. KAT/kat.sha256."),
      profiler: algorithmProfiler(
        "This algorithm's profiler symbol groups: added to the campaign's (a group of the same name overrides the campaign's), or with replaceCampaignGroups instead of them.",
      ),
      links: obj(
        "Links about the submission.",
        {},
        {
          description: str("Where the submission is described (relative path or URL)."),
          source: str("Where its source is (relative path or URL)."),
        },
      ),
    },
  ),
};
