import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { historyFromJSON } from "@temporalio/common/lib/proto-utils.js";
import { Worker } from "@temporalio/worker";
import { replayHistoriesDir } from "../support/history.ts";
import { sharedBundle } from "../support/temporal-env.ts";

const files = existsSync(replayHistoriesDir)
  ? readdirSync(replayHistoriesDir).filter((file) => file.endsWith(".json"))
  : [];

describe("recorded session histories replay against the current workflow code", () => {
  it("has recorded histories to replay", () => {
    assert.ok(
      files.length >= 4,
      `expected recorded histories in ${replayHistoriesDir} (npm run record-histories)`,
    );
  });

  for (const file of files) {
    it(`replays ${file} without nondeterminism`, async () => {
      const { workflowId, history } = JSON.parse(
        readFileSync(join(replayHistoriesDir, file), "utf8"),
      ) as {
        workflowId: string;
        history: unknown;
      };
      await Worker.runReplayHistory(
        { workflowBundle: await sharedBundle() },
        historyFromJSON(history),
        workflowId,
      );
    });
  }
});
