import { packageTsupConfig } from "../../scripts/tsup-config.ts";
import pkg from "./package.json" with { type: "json" };

export default packageTsupConfig({
  entry: ["src/index.ts"],
  extra: { define: { __VERSION__: JSON.stringify(pkg.version) } },
});
