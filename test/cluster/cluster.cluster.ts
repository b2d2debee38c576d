import assert from "node:assert/strict";
import { chmodSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client, type Connection } from "@temporalio/client";
import proto from "@temporalio/proto";
import { z } from "zod";
import { SessionClient } from "../../src/client/index.ts";
import { workflowIdFor, type TurnResult } from "../../src/session/index.ts";
import { connectClient } from "../../src/temporal-connection.ts";
import {
  eventsOf,
  isModelActivity,
  onScript,
  scratchDir,
  waitFor,
  within,
  writeScript,
} from "../faults/fault-support.ts";
import { spawnCli, type CliProcess } from "../support/cli-process.ts";
import { activityAttempts, fetchHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId } from "../support/temporal-env.ts";

// `npm run cluster` as a user runs it (node scripts/cluster.ts, the script npm runs): PostgreSQL,
// the Temporal server, two workers and the API. Sessions spread over both workers; one worker is
// killed with SIGKILL while turns are in flight on it; every reply arrives exactly once. Then the
// cluster is stopped with Ctrl-C (nothing left running) and started again on the same data.
// Not part of `npm test` (minutes, and the first run builds the server): `npm run test:cluster`.

const { temporal } = proto;
const EventType = temporal.api.enums.v1.EventType;
const PendingActivityState = temporal.api.enums.v1.PendingActivityState;

/** Long enough that the second turns are still in their model call when a worker is killed. */
const slowMs = 20_000;
/** The first run in CI builds the server (go install): minutes. */
const startTimeoutMs = 600_000;

const stateSchema = z.object({
  address: z.string(),
  namespace: z.string(),
  taskQueue: z.string(),
  processes: z.array(
    z.object({ role: z.string(), name: z.string(), pid: z.number(), log: z.string() }),
  ),
});
type ClusterState = z.infer<typeof stateSchema>;

const identityOf = (pid: number): string => `${pid}@${hostname()}`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A zombie (ended, not reaped yet) does not count.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Who ran the workflow's tasks and activities: the identities in its history. */
async function identitiesIn(client: Client, workflowId: string): Promise<Set<string>> {
  const history = await fetchHistory(client, workflowId);
  const identities = new Set<string>();
  for (const event of history.events ?? []) {
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
      identities.add(event.workflowTaskCompletedEventAttributes?.identity ?? "");
    }
    if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
      identities.add(event.activityTaskStartedEventAttributes?.identity ?? "");
    }
  }
  identities.delete("");
  return identities;
}

describe("npm run cluster: PostgreSQL, the Temporal server, two workers and the API", () => {
  const data = scratchDir("cluster-data");
  const scratch = scratchDir("cluster-scripts");
  const script = join(scratch.dir, "turns.json");
  const running: CliProcess[] = [];
  let cluster: CliProcess;
  let state: ClusterState;
  let connection: Connection;
  let sessions: SessionClient;
  let client: Client;
  const sessionIds: string[] = [];
  const template = onScript(shippedAgent("general"), script);

  async function start(): Promise<void> {
    cluster = spawnCli(
      process.execPath,
      ["scripts/cluster.ts", "--data", data.dir, "--port", "0", "--api-port", "0"],
      { env: { ...process.env, AGENTDOCK_SCRIPT_DIRS: scratch.dir } },
    );
    running.push(cluster);
    await cluster.waitFor(/agentdock-temporal cluster running/, startTimeoutMs);
    state = stateSchema.parse(JSON.parse(readFileSync(join(data.dir, "cluster.json"), "utf8")));
    connection = await connectClient({ address: state.address });
    client = new Client({ connection, namespace: state.namespace });
    sessions = new SessionClient(client, state.taskQueue);
  }

  /** Ctrl-C: exit 0, and none of the processes it ran is left. */
  async function stop(): Promise<void> {
    await connection.close();
    cluster.child.kill("SIGINT");
    assert.equal(await cluster.exited(120_000), 0, cluster.output());
    const left = state.processes.filter((entry) => alive(entry.pid));
    assert.deepEqual(left, [], "every part of the cluster stopped");
  }

  const workerPids = (): number[] =>
    state.processes.filter((entry) => entry.role === "worker").map((entry) => entry.pid);

  before(async () => {
    // PostgreSQL runs as the postgres user when the test runs as root: it must reach the folder.
    chmodSync(data.dir, 0o755);
    writeScript(script, [
      { text: "First answer." },
      { text: "Second answer.", delayMs: slowMs },
      { text: "Third answer." },
    ]);
    await start();
  });

  after(async () => {
    for (const child of running) await child.kill();
    data.remove();
    scratch.remove();
  });

  it("runs two worker processes, and sessions' turns run on both", async () => {
    assert.equal(workerPids().length, 2);
    const seen = new Set<string>();
    const wanted = new Set(workerPids().map(identityOf));
    // Matching hands each new session to whichever worker polls first: start sessions until
    // both have run turns (a handful in practice; bounded).
    while (sessionIds.length < 30 && [...wanted].some((identity) => !seen.has(identity))) {
      const batch = Array.from({ length: 4 }, () => uniqueId("cluster-session"));
      const replies = await Promise.all(
        batch.map((sessionId) => sessions.sendWithStart({ template, sessionId }, "First", "m1")),
      );
      for (const reply of replies) assert.equal(reply.text, "First answer.");
      sessionIds.push(...batch);
      for (const sessionId of batch) {
        for (const identity of await identitiesIn(client, workflowIdFor(sessionId))) {
          seen.add(identity);
        }
      }
    }
    for (const identity of wanted) assert.ok(seen.has(identity), `${identity} ran no turn`);
  });

  it("a worker killed (SIGKILL) mid-turn: every reply is delivered exactly once", async () => {
    const replies = new Map<string, Promise<TurnResult>>();
    for (const sessionId of sessionIds) {
      const reply = sessions.send(sessionId, "Second", "m2");
      reply.catch(() => undefined);
      replies.set(sessionId, reply);
    }
    // A model call running on a worker: that worker is the one to kill.
    const victim = await waitFor(
      "a second turn's model call running on a worker",
      async () => {
        for (const sessionId of sessionIds) {
          const { raw } = await client.workflow.getHandle(workflowIdFor(sessionId)).describe();
          const runningCall = (raw.pendingActivities ?? []).find(
            (activity) =>
              isModelActivity(activity.activityType?.name ?? "") &&
              activity.state === PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
          );
          const identity = runningCall?.lastWorkerIdentity ?? "";
          const pid = workerPids().find((candidate) => identityOf(candidate) === identity);
          if (pid !== undefined) return pid;
        }
        return undefined;
      },
      60_000,
      () => cluster.output(),
    );
    process.kill(victim, "SIGKILL");
    // The retried calls answer at once; the survivor's calls finish their delay.
    writeScript(script, [
      { text: "First answer." },
      { text: "Second answer." },
      { text: "Third answer." },
    ]);

    const results = await within(
      Promise.all([...replies.values()]),
      180_000,
      "every second turn's reply after the kill",
    );
    for (const result of results) {
      assert.equal(result.error, undefined);
      assert.equal(result.text, "Second answer.");
      assert.equal(result.turn, 2);
    }
    let retried = 0;
    for (const sessionId of sessionIds) {
      const { events } = await sessions.events(sessionId, 0);
      assert.deepEqual(
        eventsOf(events, "turn_finished").map((event) => [event.messageId, event.text]),
        [
          ["m1", "First answer."],
          ["m2", "Second answer."],
        ],
        `${sessionId}: each turn finished once`,
      );
      const history = await sessions.history(sessionId);
      assert.deepEqual(
        history.filter((message) => message.role === "user").map((message) => message.content),
        ["First", "Second"],
      );
      const attempts = await activityAttempts(client, workflowIdFor(sessionId));
      if (attempts.some((attempt) => isModelActivity(attempt.type) && attempt.attempt >= 2)) {
        retried += 1;
      }
    }
    assert.ok(retried >= 1, "at least one model call was cut by the kill and retried");
    // Sending the same message id again returns the first reply; no third turn runs.
    const again = await sessions.send(sessionIds[0] ?? "", "Second", "m2");
    assert.equal(again.turn, 2);
  });

  it("Ctrl-C stops every part, and a new start on the same data finds the sessions", async () => {
    await stop();
    await start();
    const sessionId = sessionIds[0] ?? "";
    assert.equal((await sessions.state(sessionId)).turn, 2);
    const reply = await sessions.send(sessionId, "Third", "m3");
    assert.equal(reply.text, "Third answer.");
    assert.equal(reply.turn, 3);
    await stop();
  });
});
