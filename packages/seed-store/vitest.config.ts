import { defineProject } from "vitest/config";
import { SLOW_MACHINE_TIMEOUT_MS } from "../../scripts/vitest-timeouts.ts";

export default defineProject({ test: { name: "seed-store", testTimeout: SLOW_MACHINE_TIMEOUT_MS } });
