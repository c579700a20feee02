// Small JSON helpers for the seed-store scripts: a stable, diff-friendly formatter and atomic writes.

import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const LINE_WIDTH = 120;

function width(s: string): number {
  return [...s].length;
}

/**
 * JSON with two-space indentation in the layout the repository's formatter (biome, line width 120) keeps:
 * objects one member per line; arrays of scalars on one line when that line fits, else one element per line.
 */
export function formatJson(value: unknown): string {
  return `${fmt(value, "", "", false)}\n`;
}

function isScalar(v: unknown): boolean {
  return v === null || typeof v !== "object";
}

function fmt(value: unknown, indent: string, prefix: string, comma: boolean): string {
  if (isScalar(value)) return JSON.stringify(value) ?? "null";
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every(isScalar)) {
      const oneLine = `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
      if (width(indent) + width(prefix) + width(oneLine) + (comma ? 1 : 0) <= LINE_WIDTH) return oneLine;
    }
    const items = value.map((v, i) => `${inner}${fmt(v, inner, "", i < value.length - 1)}`);
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const members = entries.map(([k, v], i) => {
    const key = `${JSON.stringify(k)}: `;
    return `${inner}${key}${fmt(v, inner, key, i < entries.length - 1)}`;
  });
  return `{\n${members.join(",\n")}\n${indent}}`;
}

/** Writes a file under a temporary name in the same directory and renames it into place. */
export function writeFileAtomic(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
