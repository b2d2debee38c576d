import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import type { ModelAccess } from "../../src/llm/model-access.ts";
import { modelProviders } from "../../src/llm/model-id.ts";

/** The folder of the scripts tests play with the scripted model. */
export const fixtureScriptsDir = fileURLToPath(new URL("../fixtures/scripts", import.meta.url));

/**
 * What test workers let a template reach unless a test says otherwise, configured explicitly as
 * an operator would: any port on 127.0.0.1 (the tests' fake providers), and scripts from the
 * fixtures and the temp folder (fault tests and unit tests write theirs there).
 */
export const testModelAccess: ModelAccess = {
  providers: modelProviders,
  baseURLs: ["http://127.0.0.1:*"],
  scriptDirs: [fixtureScriptsDir, tmpdir()],
};
