// Section 5 with the precise figures: timing records that carry memory.stackBytes / heapPeakBytes get the
// "stack (painted)" and "heap peak" columns beside the proxies, and the sentence on how they were measured;
// records without them (the seeds) keep the three proxy columns only (seed-cells.test.ts).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSite } from "./site.ts";
import { editAll, miniStore } from "./test-store.ts";

const tmp = mkdtempSync(join(tmpdir(), "ngcc-report-memory-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = join(tmp, "store");
const out = join(tmp, "out");

beforeAll(async () => {
  miniStore(root, ["kem-22"]);
  editAll(root, "arm_1", (r, entry) => {
    if (entry.kind === "timing" && r.memory)
      r.memory = { ...r.memory, stackBytes: 15272, stackBaselineBytes: 32, heapPeakBytes: 208, heapAllocations: 17 };
  });
  await renderSite(root, { out });
});

describe("section 5 with stack and heap high-water", () => {
  it("shows the painted-stack and heap columns beside the proxies, and says how they were measured", () => {
    const html = readFileSync(join(out, "site", "arm_1", "kem-22.html"), "utf8");
    expect(html).toContain("stack (painted)");
    expect(html).toContain("heap peak");
    expect(html).toContain("peak RSS");
    expect(html).toContain("15272");
    expect(html).toContain("208 (17 allocations)");
    expect(html).toContain("Stack is the high-water of one call run on its own painted 8 MiB stack");
  });
});
