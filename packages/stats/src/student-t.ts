// Student's t and the normal quantiles of the 95 % intervals.

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 97.5 % quantile of Student's t with df degrees of freedom (1..30 from the table, else the normal's 1.96). */
export function tQuantile975(df: number): number {
  return df >= 1 && df <= 30 ? (T975[df - 1] as number) : 1.96;
}

/** The standard normal's 97.5 % quantile, to full precision. */
export const Z975 = 1.959963984540054;
