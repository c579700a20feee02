// Per-call figures from a worker's raw samples: each sample is the counter's delta over `batch` calls.

/** ns per call of every sample: delta ÷ batch ÷ rateHz × 1e9, or delta ÷ batch when the unit is ns. */
export function perCallNs(
  worker: { counterDeltas: readonly number[] },
  batch: number,
  counter: { unit: string; rateHz: number | null },
): number[] {
  checkBatch(batch);
  if (counter.unit === "ns") return worker.counterDeltas.map((d) => d / batch);
  const rate = counter.rateHz;
  if (rate === null || !Number.isFinite(rate) || rate <= 0) {
    throw new Error(`perCallNs: a counter in ${counter.unit} needs a positive rateHz to give ns (got ${rate})`);
  }
  return worker.counterDeltas.map((d) => (d * 1e9) / (batch * rate));
}

/** Counter units per call of every sample: delta ÷ batch. */
export function perCallCounter(worker: { counterDeltas: readonly number[] }, batch: number): number[] {
  checkBatch(batch);
  return worker.counterDeltas.map((d) => d / batch);
}

/** Throws unless batch is a positive integer. */
export function checkBatch(batch: number): void {
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`batch must be a positive integer (got ${batch})`);
}
