import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServer, type DevServer } from "../../src/dev-server/dev-server.ts";
import { ensureTemporalCli } from "../../src/dev-server/find-temporal-cli.ts";
import { sessionSearchAttributes } from "../../src/session/search-attributes.ts";

// One real Temporal dev server for the whole test run; test files find it through the
// environment (node --test runs each file in a child process that inherits it).
let server: DevServer | undefined;
let dataDir: string | undefined;

export async function globalSetup(): Promise<void> {
  const cli = await ensureTemporalCli({
    env: process.env,
    onProgress: (line) => {
      console.error(line);
    },
  });
  dataDir = mkdtempSync(join(tmpdir(), "agentdock-test-"));
  server = await startDevServer({
    cliPath: cli.path,
    dbFile: join(dataDir, "temporal.db"),
    // The Web UI on a free port: the browser tests of the console and of what the UI shows.
    uiPort: 0,
    searchAttributes: sessionSearchAttributes,
    logFile: join(dataDir, "server.log"),
  });
  process.env["AGENTDOCK_TEST_TEMPORAL_ADDRESS"] = server.address;
  process.env["AGENTDOCK_TEST_TEMPORAL_NAMESPACE"] = server.namespace;
  process.env["AGENTDOCK_TEST_TEMPORAL_CLI"] = cli.path;
  if (server.uiUrl !== undefined) process.env["AGENTDOCK_TEST_TEMPORAL_UI_URL"] = server.uiUrl;
}

export async function globalTeardown(): Promise<void> {
  await server?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
}
