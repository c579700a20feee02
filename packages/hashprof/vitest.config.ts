import { defineProject } from "vitest/config";
import { SLOW_MACHINE_TIMEOUT_MS } from "../../scripts/vitest-timeouts.ts";

export default defineProject({ test: { name: "hashprof", testTimeout: SLOW_MACHINE_TIMEOUT_MS } });
