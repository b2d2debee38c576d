import { setTimeout as sleep } from "node:timers/promises";
import { describe, it } from "node:test";
import { Worker } from "@temporalio/worker";
import { workflowIdFor } from "../../src/session/index.ts";
import { fetchHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { sharedBundle, uniqueId, useSessionEnv } from "../support/temporal-env.ts";

// Found while testing approvals across a server restart: a session started without a message
// whose first message came by signal (`start`, then the `userMessage` signal, while its state is
// polled) did not replay. Its live run recorded the `visibility-mid-turn` marker in the workflow
// task after the `checkToolAvailability` local activity's; replaying resolves that local
// activity within the earlier task, where `patched("visibility-mid-turn")` found no marker, so
// the marker was then "encountered with no corresponding change command" (TMPRL1100): a new
// worker (restart, cache eviction) could not continue the session. Fixed by asking those
// patches before the local activity (workflows/turn-start-patches.ts).
describe("a session whose first message came by signal", () => {
  const session = useSessionEnv();

  it("replays its first turn without nondeterminism", async () => {
    const { env } = session;
    const sessionId = uniqueId("signal-started");
    await env.sessions.start({ template: shippedAgent("general"), sessionId });
    await env.sessions.post(sessionId, "Hello there", "m1");
    for (let tries = 0; tries < 100; tries++) {
      const view = await env.sessions.state(sessionId);
      if (view.turn === 1 && view.status === "idle") break;
      await sleep(100);
    }
    const history = await fetchHistory(env.client, workflowIdFor(sessionId));
    await Worker.runReplayHistory(
      { workflowBundle: await sharedBundle() },
      history,
      workflowIdFor(sessionId),
    );
  });
});
