import { packageTsupConfig } from "../../scripts/tsup-config.ts";

export default packageTsupConfig({ entry: ["src/index.ts"] });
