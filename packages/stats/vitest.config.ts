import { defineProject } from "vitest/config";
import { SLOW_MACHINE_TIMEOUT_MS } from "../../scripts/vitest-timeouts.ts";

export default defineProject({ test: { name: "stats", testTimeout: SLOW_MACHINE_TIMEOUT_MS } });
