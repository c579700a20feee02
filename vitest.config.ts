import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/vitest-summary-reporter.ts";

export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts"],
    reporters: ["default", new SummaryReporter()],
  },
});
