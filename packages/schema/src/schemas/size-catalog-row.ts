// One row of the size catalog (external_sizes.csv, docs/sizes.md): the transmitted sizes a source quotes.
import { DRAFT, ID_BASE, type JsonSchema } from "./builders.ts";
import { algorithmId, category, instanceName, kexMessageList, nat, nullable, obj, str } from "./common.ts";

export const sizeCatalogRow: JsonSchema = {
  $schema: DRAFT,
  $id: `${ID_BASE}size-catalog-row.schema.json`,
  title: "ngcc-perf size catalog row",
  description:
    "One row of external_sizes.csv, the curated catalog of transmitted sizes (docs/sizes.md): columns algorithm_id, instance, public_key, ciphertext, signature, source, note, and optionally category, public_key_a, kex_messages. Empty cells are null.",
  ...obj(
    "A catalog row.",
    {
      algorithmId,
      instance: instanceName,
      publicKeyBytes: nullable(nat("Public key size in bytes (key exchange: the responder B's long-term public key).")),
      ciphertextBytes: nullable(nat("Ciphertext size in bytes (KEM).")),
      signatureBytes: nullable(
        nat("Signature size in bytes as the source quotes it (the API gives the maximum for variable-length ones)."),
      ),
      source: str("Where the figure comes from (specification section, URL)."),
      note: str("Remark, e.g. why it differs from the API."),
    },
    {
      category,
      publicKeyABytes: nullable(
        nat("Key exchange: the initiator A's long-term public key in bytes (0 when A has none)."),
      ),
      kexMessageBytes: nullable(
        kexMessageList(
          "Key exchange: each protocol message's size in pass order, bytes (column kex_messages: 1632+832).",
        ),
      ),
    },
  ),
};
