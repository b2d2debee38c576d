import assert from "node:assert/strict";
import { constants } from "node:fs";
import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@temporalio/client";
import { startDevServer } from "../../../src/dev-server/dev-server.ts";
import type { DevServer } from "../../../src/dev-server/dev-server.ts";
import { temporalCliCacheDir } from "../../../src/dev-server/find-temporal-cli.ts";
import { sessionSearchAttributes } from "../../../src/session/search-attributes.ts";
import { connectClient } from "../../../src/temporal-connection.ts";

// This test never builds the CLI: it uses TEMPORAL_CLI or the cached build that
// `node scripts/temporal.ts ensure` leaves behind.
const cliPath = process.env["TEMPORAL_CLI"] || join(temporalCliCacheDir(process.env), "temporal");
const missingCli = await access(cliPath, constants.X_OK).then(
  () => false,
  () =>
    `no Temporal CLI at ${cliPath}; run \`npm exec -- node scripts/temporal.ts ensure\` or set TEMPORAL_CLI`,
);

async function customSearchAttributes(address: string): Promise<Record<string, number>> {
  const connection = await connectClient({ address });
  try {
    const response = await connection.operatorService.listSearchAttributes({
      namespace: "default",
    });
    return response.customAttributes;
  } finally {
    await connection.close();
  }
}

describe(
  "startDevServer with the real Temporal CLI",
  { skip: missingCli, timeout: 180_000 },
  () => {
    let dir: string;
    let server: DevServer | undefined;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), "dev-server-"));
    });
    after(async () => {
      await server?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it("registers search attributes, keeps workflows across a restart on the same SQLite file, and adds attributes new to that file", async () => {
      const dbFile = join(dir, "temporal.db");
      const workflowId = "dev-server-test-persisted";

      server = await startDevServer({
        cliPath,
        dbFile,
        uiPort: 0,
        searchAttributes: sessionSearchAttributes,
        logFile: join(dir, "server.log"),
      });
      assert.match(server.address, /^127\.0\.0\.1:\d+$/);
      assert.equal(server.namespace, "default");
      const ui = await fetch(server.uiUrl ?? "missing ui url");
      assert.equal(ui.status, 200);
      const first = await customSearchAttributes(server.address);
      // IndexedValueType: KEYWORD = 2, INT = 3.
      assert.equal(first["AgentId"], 2);
      assert.equal(first["ActiveStep"], 2);
      assert.equal(first["SessionStatus"], 2);
      assert.equal(first["TurnCount"], 3);

      const connection = await connectClient({ address: server.address });
      try {
        await new Client({ connection }).workflow.start("notRegisteredAnywhere", {
          taskQueue: "dev-server-test",
          workflowId,
        });
      } finally {
        await connection.close();
      }
      await server.stop();
      await server.stop();
      assert.equal(
        (await server.exited).code !== null || (await server.exited).signal !== null,
        true,
      );

      server = await startDevServer({
        cliPath,
        dbFile,
        uiPort: false,
        searchAttributes: { ...sessionSearchAttributes, ReviewRequired: "Bool" },
      });
      assert.equal(server.uiUrl, undefined);
      const second = await customSearchAttributes(server.address);
      assert.equal(second["TurnCount"], 3);
      assert.equal(second["ReviewRequired"], 5); // BOOL
      const again = await connectClient({ address: server.address });
      try {
        const described = await new Client({ connection: again }).workflow
          .getHandle(workflowId)
          .describe();
        assert.equal(described.status.name, "RUNNING");
      } finally {
        await again.close();
      }
      await server.stop();
    });
  },
);
