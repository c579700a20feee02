// The system folders of record stores that paths a user named concern — a store, its data/ folder, a system folder,
// or a file or folder inside one — and the store check of each (what `ngcc-perf validate` and `ngcc-perf index`
// check), with each folder shown as the user named it.
import { isAbsolute, relative } from "node:path";
import { checkSystemIntegrity, type IntegrityOptions, type SystemIntegrity, systemDirsOf } from "./integrity.ts";

/** A system folder as the user would name it: relative to the working folder when they named a relative path. */
export function shownDir(named: string, dir: string): string {
  return isAbsolute(named) ? dir : relative(process.cwd(), dir) || ".";
}

/** A system folder that named paths concern: the parts of it named ([""] for the whole folder) and how it is shown. */
interface NamedSystem {
  dir: string;
  within: string[];
  shown: string;
}

/** Which part of each system folder the named paths concern: the whole folder wins over parts of it. */
function namedSystems(paths: ReadonlyArray<string>): NamedSystem[] {
  const bySystem = new Map<string, { within: Set<string>; shown: string }>();
  for (const p of paths) {
    for (const ref of systemDirsOf(p)) {
      const entry = bySystem.get(ref.dir) ?? { within: new Set<string>(), shown: shownDir(p, ref.dir) };
      entry.within.add(ref.within);
      bySystem.set(ref.dir, entry);
    }
  }
  return [...bySystem.entries()].map(([dir, e]) => ({
    dir,
    within: e.within.has("") ? [""] : [...e.within].sort(),
    shown: e.shown,
  }));
}

/** The store check of each system folder the named paths concern, its findings over the parts named, once each. */
export function checkNamedSystems(
  paths: ReadonlyArray<string>,
  options: Omit<IntegrityOptions, "within"> = {},
): Array<SystemIntegrity & { shown: string }> {
  const integrity: Array<SystemIntegrity & { shown: string }> = [];
  for (const s of namedSystems(paths)) {
    const checked = s.within.map((within) => checkSystemIntegrity(s.dir, { ...options, within }));
    const first = checked[0];
    if (!first) continue;
    const seen = new Set<string>();
    const findings = checked
      .flatMap((c) => c.findings)
      .filter((f) => {
        const id = `${f.path}\u0000${f.message}`;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      });
    integrity.push({ ...first, findings, shown: s.shown });
  }
  return integrity;
}
