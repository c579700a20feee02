// The size-audit record: one algorithm's sizes from the catalog, the API and measurement, the section-6 table
// and every disagreement found (the `sizes` step, docs/sizes.md).
import { recordSchema, ref } from "./builders.ts";
import {
  algorithmId,
  arr,
  buildProfileName,
  category,
  inputsHash,
  instanceName,
  int,
  kexMessageList,
  lengthFields,
  nat,
  nullable,
  obj,
  oneOfEnum,
  pickDefs,
  relPath,
  str,
} from "./common.ts";
import { recordHeader } from "./header.ts";

const sizes = (what: string) =>
  obj(
    `${what} sizes in bytes; absent fields do not apply.`,
    {},
    {
      publicKeyBytes: nat("Public key, bytes."),
      secretKeyBytes: nat("Secret key, bytes."),
      ciphertextBytes: nat("Ciphertext, bytes."),
      signatureBytes: nat("Signature, bytes (API: the maximum)."),
      sharedSecretBytes: nat("Shared secret, bytes."),
    },
  );
const apiSizes = obj(
  "API (from the compiled api.h) sizes in bytes; absent fields do not apply.",
  {},
  {
    publicKeyBytes: nat("Public key, bytes."),
    secretKeyBytes: nat("Secret key, bytes (key exchange: the long-term secret key, as longTermSecretKeyBytes)."),
    ciphertextBytes: nat("Ciphertext, bytes."),
    signatureBytes: nat("Signature, bytes: CRYPTO_BYTES, the maximum."),
    sharedSecretBytes: nat("Shared secret, bytes."),
    passes: int("Key exchange: CRYPTO_KEX_PASSES.", { minimum: 1 }),
    msg1Bytes: nat("Key exchange: CRYPTO_KEX_MSG1BYTES, bytes."),
    msg2Bytes: nat("Key exchange: CRYPTO_KEX_MSG2BYTES, bytes."),
    publicKeyABytes: nat("Key exchange: CRYPTO_KEX_PUBLICKEYBYTES_A, bytes."),
    secretKeyABytes: nat("Key exchange: CRYPTO_KEX_SECRETKEYBYTES_A, bytes."),
    publicKeyBBytes: nat("Key exchange: CRYPTO_KEX_PUBLICKEYBYTES_B, bytes."),
    secretKeyBBytes: nat("Key exchange: CRYPTO_KEX_SECRETKEYBYTES_B, bytes."),
    stateABytes: nat("Key exchange: CRYPTO_KEX_STATEBYTES_A, bytes."),
    stateBBytes: nat("Key exchange: CRYPTO_KEX_STATEBYTES_B, bytes."),
    bandwidthBytes: nat("Key exchange: NGCC_KEX_BANDWIDTH_BYTES as the compiler computed it, bytes."),
  },
);
const distribution = obj("A measured length distribution.", lengthFields, {
  sources: arr(
    "The records the lengths were read from; the figures above combine them (min of the minima, max of the maxima, mean weighted by samples).",
    obj("One source.", {
      source: oneOfEnum(
        "kat: the lengths the KAT record holds (outputs of the KAT generation); timing: the timing record's lengths (every call of the timing run).",
        ["kat", "timing"],
      ),
      path: relPath,
      ...lengthFields,
    }),
    { minItems: 1 },
  ),
});
const tableSource = oneOfEnum("catalog: the catalog's figure; api: the API's (no catalog figure).", ["catalog", "api"]);
export const sizeAudit = recordSchema(
  "size-audit",
  "ngcc-perf size audit",
  "Sizes of one algorithm's instances from the catalog, the API and measurement, the section-6 table, and every disagreement found.",
  {
    ...recordHeader,
    algorithmId,
    category,
    instances: arr(
      "Per instance.",
      obj(
        "One instance.",
        { instance: instanceName },
        {
          algname: nullable(str("CRYPTO_ALGNAME from the compiled api.h, or null when it defines none.")),
          api: apiSizes,
          catalog: nullable(
            obj(
              "The catalog row, or null when missing.",
              {},
              {
                publicKeyBytes: nullable(nat("Public key, bytes.")),
                ciphertextBytes: nullable(nat("Ciphertext, bytes.")),
                signatureBytes: nullable(nat("Signature, bytes.")),
                publicKeyABytes: nullable(nat("Key exchange: the initiator's public key, bytes.")),
                kexMessageBytes: nullable(kexMessageList("Key exchange: each protocol message, bytes.")),
                source: str("Catalog source column."),
                note: str("Catalog note column."),
                line: int("Line of the row in the catalog file.", { minimum: 1 }),
              },
            ),
          ),
          measured: obj(
            "Output lengths seen in KAT and timing runs.",
            {},
            {
              publicKeyBytes: distribution,
              ciphertextBytes: distribution,
              signatureBytes: distribution,
            },
          ),
          table: sizes(
            "Section 6 row (public key, ciphertext, signature from the catalog; secret key, shared secret from the API)",
          ),
          tableFrom: obj(
            "Where the section-6 public key, ciphertext and signature came from (secret key and shared secret are always the API's).",
            {},
            { publicKeyBytes: tableSource, ciphertextBytes: tableSource, signatureBytes: tableSource },
          ),
          kex: obj("Key-exchange section 6 row.", {
            passes: int("Protocol passes.", { minimum: 1 }),
            messageBytes: arr(
              "Each protocol message's size from the API, in pass order, bytes.",
              {
                type: "integer",
                minimum: 0,
              },
              { minItems: 1 },
            ),
            protocolMessageBytes: nat("Sum of the protocol messages, bytes."),
            publicKeyABytes: nat("Initiator's public key that must be transmitted, bytes (0 when none is required)."),
            publicKeyBBytes: nat("Responder's public key that must be transmitted, bytes."),
            bandwidthBytes: nat(
              "All protocol messages plus each required public key once, bytes; certificates and framing excluded.",
            ),
            longTermSecretKeyBytes: nat(
              "Long-term secret key (API cap), bytes: the larger of the two parties' (each party stores its own).",
            ),
            sharedSecretBytes: nat("Shared secret, bytes."),
          }),
          failure: ref("failure", "Why the instance's API figures could not be read (e.g. api.h does not compile)."),
          commands: arr(
            "Child processes run for this instance (building and running printparams).",
            ref("command", "One process."),
          ),
        },
      ),
    ),
    findings: arr(
      "Disagreements found (empty when catalog, API and measurement agree).",
      obj(
        "One disagreement.",
        {
          instance: str("Instance (or catalog instance name) concerned."),
          kind: oneOfEnum(
            "catalog-differs-from-api; measured-exceeds-api (an implementation bug); catalog-row-missing; catalog-row-unknown-instance.",
            ["catalog-differs-from-api", "measured-exceeds-api", "catalog-row-missing", "catalog-row-unknown-instance"],
          ),
        },
        {
          field: oneOfEnum(
            "Size field concerned. Key exchange: publicKeyBBytes (catalog public_key), publicKeyABytes, message1Bytes / message2Bytes (kex_messages), passes (how many messages the catalog lists vs CRYPTO_KEX_PASSES).",
            [
              "publicKeyBytes",
              "secretKeyBytes",
              "ciphertextBytes",
              "signatureBytes",
              "sharedSecretBytes",
              "publicKeyABytes",
              "publicKeyBBytes",
              "message1Bytes",
              "message2Bytes",
              "passes",
            ],
          ),
          catalog: nullable(nat("Catalog figure, bytes.")),
          api: nullable(nat("API figure, bytes.")),
          measured: nullable(nat("Largest measured figure, bytes.")),
          note: str("Catalog note or explanation."),
          line: int("Line of the catalog row concerned.", { minimum: 1 }),
        },
      ),
    ),
  },
  {
    inputsHash,
    buildProfile: buildProfileName,
    catalog: obj(
      "The catalog used.",
      { path: str("Catalog file path as shown in the report.") },
      {
        sha256: ref("sha256", "SHA-256 of the catalog file."),
      },
    ),
    notes: arr(
      "Notes shown under the section-6 table (e.g. on authentication when only the responder has a long-term key).",
      {
        type: "string",
      },
    ),
  },
  pickDefs("provenance", "sha256", "failure", "command"),
);
