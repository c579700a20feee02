// The values of the variables that choose a parameter set, combined: the build is run (make) or configured (CMake)
// once per combination, and a combination's values label the compile sets it gives.

/** A variable that chooses a parameter set and the values it is tried with, the default first. */
export interface ChoosingVariable {
  name: string;
  values: string[];
}

/** The cross product of the variables' values, default first, at most `cap` combinations. */
export function combinations(
  vars: readonly ChoosingVariable[],
  cap: number,
): { combos: Array<Record<string, string>>; capped: boolean } {
  let combos: Array<Record<string, string>> = [{}];
  for (const v of vars) combos = combos.flatMap((c) => v.values.map((x) => ({ ...c, [v.name]: x })));
  return { combos: combos.slice(0, cap), capped: combos.length > cap };
}

/** A combination's label: the values, a bare number with its variable's name (LEVEL3). */
export const labelOf = (c: Record<string, string>) =>
  Object.entries(c).map(([k, v]) => (/^\d+$/.test(v) ? `${k}${v}` : v));
