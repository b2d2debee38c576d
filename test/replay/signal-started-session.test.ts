import { setTimeout as sleep } from "node:timers/promises";
import { describe, it } from "node:test";
import { Worker } from "@temporalio/worker";
import { workflowIdFor } from "../../src/session/index.ts";
import { fetchHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { sharedBundle, uniqueId, useSessionEnv } from "../support/temporal-env.ts";

// Found while testing approvals across a server restart: a session started without a message
// whose first message came by signal (`start`, then the `userMessage` signal) does not replay.
// Its live run records the `visibility-mid-turn` marker in the workflow task after the
// `checkToolAvailability` local activity; replaying resolves that local activity in the task
// before, where `patched("visibility-mid-turn")` finds no marker and stays false, so the marker
// is then "encountered with no corresponding change command" (TMPRL1100). A new worker (restart,
// cache eviction) cannot continue such a session. Present on main (ac98119) as well.
describe("a session whose first message came by signal", () => {
  const session = useSessionEnv();

  it(
    "replays its first turn without nondeterminism",
    { todo: "known defect: visibility-mid-turn patch vs. the local activity's task (see above)" },
    async () => {
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
    },
  );
});
