import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  fetchSessionRuns,
  forkSession,
  listSessions,
  readSessionRecording,
  recomputeDecisions,
  SessionForkError,
  type SessionListing,
} from "../../src/client/index.ts";
import {
  parentSessionKey,
  workflowIdFor,
  type SessionView,
  type TurnResult,
} from "../../src/session/index.ts";
import { fetchHistory, recordHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

const shipped = shippedAgent("cognitive-reasoner");
/** Two model calls a turn: each turn stops in the middle of its step's three-tool sequence. */
const reasoner = { ...shipped, options: { ...shipped.options, maxSteps: 2 } };

/** What orchestration decided, from a state view (the fields a fork must reproduce). */
function decided(view: SessionView) {
  return {
    agentId: view.agentId,
    activeStep: view.activeStep,
    sequenceIndex: view.sequenceIndex,
    sequenceLength: view.sequenceLength,
    allowedTools: view.allowedTools,
    recentlyUsedTools: view.recentlyUsedTools,
    toolCount: view.toolCount,
    turn: view.turn,
    cumulativeTokenUsage: view.cumulativeTokenUsage,
    lastStep: view.lastStep,
    summarizedTurns: view.summarizedTurns,
    templateVersion: view.templateVersion,
  };
}

/** The item at `index`, which the test knows is there. */
function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

const texts = [
  "Please evaluate the argument that remote work improves productivity",
  "Compare cats versus dogs as pets",
  "Thanks, that helps",
];

describe("forking a session at message N on a real dev server", () => {
  const session = useSessionEnv();

  it("starts the fork with the parent's state right after turn N and its conversation through N", async () => {
    const { sessions, client } = session.env;
    const parent = uniqueId("parent");
    const results: TurnResult[] = [];
    for (const [index, text] of texts.entries()) {
      results.push(
        await sessions.sendWithStart(
          { template: reasoner, sessionId: parent },
          text,
          `m${index + 1}`,
        ),
      );
    }
    assert.ok(results.every((result) => result.error === undefined));
    assert.equal(nth(results, 1).state.activeStep, "ComparisonMode");
    assert.equal(nth(results, 1).state.sequenceIndex, 2);
    const parentHistory = await sessions.history(parent);
    const parentEvents = (await fetchHistory(client, workflowIdFor(parent))).events?.length;

    const fork = uniqueId("fork");
    const outcome = await forkSession(sessions, { parent, at: 2, as: fork });
    assert.equal(outcome.sessionId, fork);
    assert.equal(outcome.forkedAt, 2);
    assert.equal(outcome.text, texts[1]);
    assert.deepEqual(decided(await sessions.state(fork)), decided(nth(results, 1).state));
    assert.equal((await sessions.state(fork)).status, "idle");

    const userTurns = (await sessions.history(fork)).filter((message) => message.role === "user");
    assert.deepEqual(
      userTurns.map((message) => message.content),
      texts.slice(0, 2),
    );
    const parentUpTo2 = parentHistory.slice(
      0,
      parentHistory.findIndex((message) => message.content === texts[2]),
    );
    assert.deepEqual(await sessions.history(fork), parentUpTo2);

    const description = await client.workflow.getHandle(workflowIdFor(fork)).describe();
    assert.deepEqual(description.memo, {
      templateVersion: outcome.templateVersion,
      parentSession: parent,
      forkedAt: 2,
    });
    assert.equal(description.typedSearchAttributes.get(parentSessionKey), parent);
    // Visibility lists the fork with its parent (eventually consistent: wait for it).
    let listed: SessionListing | undefined;
    for (let attempt = 0; attempt < 50 && listed === undefined; attempt++) {
      listed = (await listSessions(client, { limit: 100 })).find(
        (entry) => entry.sessionId === fork && entry.parentSession === parent,
      );
      if (listed === undefined) await sleep(200);
    }
    assert.equal(listed?.templateVersion, outcome.templateVersion);

    // The parent was only read: no event was added to its history, its state is as it was.
    assert.equal((await fetchHistory(client, workflowIdFor(parent))).events?.length, parentEvents);
    assert.deepEqual(decided(await sessions.state(parent)), decided(nth(results, 2).state));

    const forkTurn = await sessions.send(fork, "Please evaluate this plan for the fork", "f1");
    assert.equal(forkTurn.error, undefined);
    assert.equal(forkTurn.turn, 3);
    assert.deepEqual(
      forkTurn.toolCalls.map((call) => call.toolName),
      ["critique", "debate"],
    );
    const parentTurn = await sessions.send(parent, "One more question please", "m4");
    assert.equal(parentTurn.error, undefined);
    assert.equal(parentTurn.turn, 4);

    const grandchild = uniqueId("fork-of-fork");
    await forkSession(sessions, { parent: fork, at: 3, as: grandchild });
    assert.deepEqual(decided(await sessions.state(grandchild)), decided(forkTurn.state));
    const atForkPoint = uniqueId("fork-at-fork-point");
    await forkSession(sessions, { parent: fork, at: 2, as: atForkPoint });
    assert.deepEqual(decided(await sessions.state(atForkPoint)), decided(nth(results, 1).state));

    await recordHistory(client, workflowIdFor(fork), "forked-session");
  });

  it("recomputes, from the history alone, the state every turn of the session recorded", async () => {
    const { sessions, client } = session.env;
    const sessionId = uniqueId("recompute");
    const results: TurnResult[] = [];
    for (const [index, text] of texts.entries()) {
      results.push(
        await sessions.sendWithStart({ template: reasoner, sessionId }, text, `m${index + 1}`),
      );
    }
    const recording = readSessionRecording(
      workflowIdFor(sessionId),
      await fetchSessionRuns(client, sessionId),
    );
    const decisions = recomputeDecisions(recording);
    assert.deepEqual(
      decisions.map((decision) => ({
        activeStep: decision.stateAfter.activeStep ?? null,
        sequenceIndex: decision.stateAfter.sequenceIndex,
        recentlyUsedTools: decision.stateAfter.recentlyUsedTools,
        toolCount: decision.stateAfter.toolCount,
        turn: decision.stateAfter.turn,
        cumulativeTokenUsage: decision.stateAfter.cumulativeTokenUsage,
      })),
      results.map(({ state }) => ({
        activeStep: state.activeStep,
        sequenceIndex: state.sequenceIndex,
        recentlyUsedTools: state.recentlyUsedTools,
        toolCount: state.toolCount,
        turn: state.turn,
        cumulativeTokenUsage: state.cumulativeTokenUsage,
      })),
    );
  });

  it("forks a session whose early turns are in its running summary, keeping the summary, and refuses a message inside it", async () => {
    const { sessions } = session.env;
    const parent = uniqueId("summarized");
    const template = {
      ...shippedAgent("general"),
      session: { idleTimeout: "1h", history: { recentTurns: 2, summarize: true } },
    };
    for (let turn = 1; turn <= 4; turn++) {
      await sessions.sendWithStart(
        { template, sessionId: parent },
        `Message number ${turn}: tell me about topic ${turn}`,
        `m${turn}`,
      );
    }
    let view = await sessions.state(parent);
    for (let attempt = 0; attempt < 100 && view.summarizedTurns < 2; attempt++) {
      await sleep(100);
      view = await sessions.state(parent);
    }
    assert.equal(view.summarizedTurns, 2);
    await assert.rejects(
      forkSession(sessions, { parent, at: 1 }),
      (error: unknown) =>
        error instanceof SessionForkError &&
        error.code === "summarized" &&
        /messages 1 to 2 .* running summary.*fork at message 2 or later/.test(error.message),
    );
    const [summary] = await sessions.history(parent);
    const fork = uniqueId("summarized-fork");
    await forkSession(sessions, { parent, at: 3, as: fork });
    const history = await sessions.history(fork);
    assert.deepEqual(history[0], summary);
    assert.deepEqual(
      history.filter((message) => message.role === "user").map((message) => message.content),
      ["Message number 3: tell me about topic 3"],
    );
    const state = await sessions.state(fork);
    assert.equal(state.turn, 3);
    assert.equal(state.summarizedTurns, 2);
    const atSummary = uniqueId("summarized-fork-at-2");
    await forkSession(sessions, { parent, at: 2, as: atSummary });
    const onlySummary = await sessions.history(atSummary);
    assert.deepEqual(onlySummary, [summary]);
    const next = await sessions.send(atSummary, "Message number 3b: another topic", "n3");
    assert.equal(next.turn, 3);
    assert.equal(next.error, undefined);
  });

  it("refuses a message number out of range and a session id that is taken, naming them", async () => {
    const { sessions } = session.env;
    const parent = uniqueId("refusals");
    await sessions.sendWithStart({ template: reasoner, sessionId: parent }, nth(texts, 0), "m1");
    for (const at of [0, 2]) {
      await assert.rejects(
        forkSession(sessions, { parent, at }),
        (error: unknown) =>
          error instanceof SessionForkError &&
          error.code === "out_of_range" &&
          /answered messages 1 to 1/.test(error.message),
      );
    }
    await assert.rejects(
      forkSession(sessions, { parent, at: 1, as: parent }),
      (error: unknown) =>
        error instanceof SessionForkError &&
        error.code === "id_taken" &&
        error.message.includes(`"${parent}" is taken`),
    );
    await assert.rejects(
      forkSession(sessions, { parent: uniqueId("missing"), at: 1 }),
      (error: unknown) => error instanceof SessionForkError && error.code === "not_found",
    );
  });
});
