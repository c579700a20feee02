// Expected KAT hashes of PQClean schemes, used when a campaign names a PQClean scheme without its own `kat`
// expectation. The pqclean npm package ships no META.yml, so the figures are carried here.
// Source: PQClean/PQClean @ 3730b32aa50ba9e712592c1476bdd048f5f6ed7e, each scheme's META.yml, field
// `nistkat-sha256` (SHA-256 of entry 0 without header or empty lines); HQC's `nistkat-rng: hqc`.
// A unit test checks this table against fixtures/reference/pqclean-nistkat-sha256.json.

export const PQCLEAN_SOURCE = "PQClean META.yml nistkat-sha256 @ 3730b32aa50b";

export const PQCLEAN_NISTKAT_SHA256: Readonly<Record<string, string>> = {
  "ml-kem-512": "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782",
  "ml-kem-768": "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3",
  "ml-kem-1024": "f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6",
  "hqc-128": "74290ad7a789c01aa92cd7f72f1b5ba5fa30a58294cdf2df52b9c76c3aafba3b",
  "hqc-192": "771c5e421c4eea951850d5883e2329c40783a3c0f363d8dc8e1be7c4026d1ab7",
  "hqc-256": "e89c520e1ac615ecf6923f211569177c536a89bf94bebf85bb263528282092c4",
  mceliece348864: "6f0f50626df15ce403c0c1d5f91648245282afebcac90e5db3595ce9b20b1817",
  mceliece348864f: "9b17b21becc1d3acf9df0a6d87875790259c075abeb50f97ea254c8d29395a41",
  mceliece460896: "03124a66e44aea18a3c1fcd63be22f2217ec5514b7d84166b1da71094c251769",
  mceliece460896f: "a027478ab01849de3d492176ea95c071110bcb8f7e4e6afa136a30cd1a1f6074",
  mceliece6688128: "4c825bf86378d76b197caca6f957942c0cc98b50ce4a6b26cad6efa25d1d20c6",
  mceliece6688128f: "1fa84d1abd8ef104cdcf75277ca4399475945e97087dde3183a09415e1d61987",
  mceliece6960119: "8feea532732502134b7965fd495e6618b09f0b4747c2d94b29a85a90a0b6cc8a",
  mceliece6960119f: "9a586a40d1af4819efb3f7343a05c260bd27d7e5d450945fee0ace5593761c3b",
  mceliece8192128: "cbe9b802465df7a7b3a59a08d3bd3ea603b6277532c15f89418b8d0d6508ee24",
  mceliece8192128f: "f497b217022465568f0ed6c7987c462b74ba2d3e39f963ac357436c727ed9bdb",
  "ml-dsa-44": "9a196e7fb32fbc93757dc2d8dc1924460eab66303c0c08aeb8b798fb8d8f8cf3",
  "ml-dsa-65": "7cb96242eac9907a55b5c84c202f0ebd552419c50b2e986dc2e28f07ecebf072",
  "ml-dsa-87": "4537905d2aabcf302fab2f242baed293459ecda7c230e6a67063b02c7e2840ed",
  "falcon-512": "da27fe8a462de7307ddf1f9b00072a457d9c5b14e838c148fbe2662094b9a2ca",
  "falcon-1024": "e699d88eb214fef30597385f40814baeb84ac505d5f05f5c257b0726fc4530b8",
  "falcon-padded-512": "91842d41138e7cfaf6e2e8f12a03c3b3411302255121e4d07d02f91a003c0395",
  "falcon-padded-1024": "ddcc5683293388249e6fe85e992ea19d0986d34e060a44f82bc3db524a8c8390",
  "sphincs-sha2-128f-simple": "cd1e13db3a56c0a6b3486a7b12bcddfda50cf5d1e4d14d3113e6456e969b8114",
  "sphincs-sha2-128s-simple": "08c2e0f08bd96f50d065ca0ced04874c709d192864bfeaccb6daa4bfa9c58a28",
  "sphincs-sha2-192f-simple": "fd4e301339b29ed5dc392c628d6c6db3d77a46ea61d16f7ff0e2b414f962f44c",
  "sphincs-sha2-192s-simple": "0fa07f3f77752233b382911bcc19e671522bd57069f9edca39b3924ba2713839",
  "sphincs-sha2-256f-simple": "bd88b49453162a9b527e14228f037615d0fcbd13d24b48ece41ae1370ed13480",
  "sphincs-sha2-256s-simple": "05d15a74253962d35912bab3a9ee3230c2e721c798f4e757ecffa529071b0748",
  "sphincs-shake-128f-simple": "46f4f87949dc994aa2b63b31c7307f44ca5ed025d7308ff408c8ba33473324dc",
  "sphincs-shake-128s-simple": "bae2979565dabad96d885a1e264bc213ab54aff3c3b4308880b788e87702af3b",
  "sphincs-shake-192f-simple": "60a9d2fd74adbef971a74477eca3170599beb4476d6428ced78b43b9641cc929",
  "sphincs-shake-192s-simple": "87aedb87a77cb46f939a3bfd0099b08b0d889c9fa46be00f15c36827c117c838",
  "sphincs-shake-256f-simple": "f6d0825afeb4ce25943c974a0efde5659ceea927d2507b0ea1a92e092f536acd",
  "sphincs-shake-256s-simple": "37d37c9b43d71341b7dd5da7f8ebbe8bbae3d7bfc53f5378446023cbcf6e04f2",
};

/** The KAT randomness PQClean uses for a scheme: HQC's SHAKE256 RNG for hqc-*, else NIST's DRBG. */
export function pqcleanKatRng(scheme: string): "nist" | "hqc" {
  return scheme.startsWith("hqc-") ? "hqc" : "nist";
}
