// The header every record kind repeats, built once: the provenance and the system, the instance under a build
// profile, the operation and the job's status; and the envelope of a record of one measured operation (the job
// fields, the rules tying status to the fields that must be present).
import { type JsonSchema, recordSchema, ref } from "./builders.ts";
import {
  algorithmId,
  buildProfileName,
  implementationName,
  inputsHash,
  instanceName,
  oneOfEnum,
  operationName,
  systemId,
} from "./common.ts";

/** The field that opens every record: where it came from. */
export const provenance = ref("provenance", "Where this record came from.");

/** The header of a record of one system: its provenance and the system. */
export const recordHeader = { provenance, system: systemId };

/** The header of a record of one instance under one build profile. */
export const instanceHeader = {
  ...recordHeader,
  algorithmId,
  instance: instanceName,
  implementation: implementationName,
  buildProfile: buildProfileName,
};

/** A job's status: "ok: <ok>; failed: <failed>, see failure.". */
export const jobStatus = (ok = "measured", failed = "the job failed"): JsonSchema =>
  oneOfEnum(`ok: ${ok}; failed: ${failed}, see failure.`, ["ok", "failed"]);

/** The header of a record of one operation of one instance under one build profile, with the job's status. */
const operationHeader = (status: JsonSchema = jobStatus()) => ({
  ...instanceHeader,
  operation: operationName,
  status,
});

/** The job's fields: its inputs hash (for --resume), why it failed, how the program it ran was built. */
export const jobFields = (build: string) => ({
  inputsHash,
  failure: ref("failure", "Why the job failed."),
  build: ref("build", build),
});

const statusIs = (status: "ok" | "failed") => ({ properties: { status: { const: status } }, required: ["status"] });

/** The rules tying the status to what a record holds: a failed one its failure, an ok one `ok`. */
const statusRules = (ok: JsonSchema, failed: JsonSchema = { required: ["failure"] }): JsonSchema => ({
  allOf: [
    { if: statusIs("failed"), then: failed },
    { if: statusIs("ok"), then: ok },
  ],
});

/** A record of one measured operation: the operation header, then its own fields, under the status rules. */
export interface OperationRecord {
  kind: string;
  title: string;
  description: string;
  /** The status field; default "ok: measured; failed: the job failed, see failure.". */
  status?: JsonSchema;
  /** The optional fields, the job's fields among them (jobFields). */
  fields: Record<string, JsonSchema>;
  defs: Record<string, JsonSchema>;
  /** What an ok record holds (the `then` of its status rule). */
  ok: JsonSchema;
  /** What a failed record holds; default its failure. */
  failed?: JsonSchema;
}

export function operationRecord(r: OperationRecord): JsonSchema {
  return recordSchema(
    r.kind,
    r.title,
    r.description,
    operationHeader(r.status),
    r.fields,
    r.defs,
    statusRules(r.ok, r.failed),
  );
}

/** A record of one instance under one build profile with a job status (no operation): its fields under the status rules. */
export function instanceRecord(r: OperationRecord): JsonSchema {
  return recordSchema(
    r.kind,
    r.title,
    r.description,
    { ...instanceHeader, status: r.status ?? jobStatus() },
    r.fields,
    r.defs,
    statusRules(r.ok, r.failed),
  );
}
