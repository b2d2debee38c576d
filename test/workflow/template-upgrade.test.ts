import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { templateVersion } from "../../src/agents/index.ts";
import {
  fetchSessionRuns,
  readSessionRecording,
  recomputeDecisions,
  SessionRequestError,
  upgradeSession,
} from "../../src/client/index.ts";
import type { AgentTemplate } from "../../src/orchestration/index.ts";
import {
  agentIdKey,
  templateVersionKey,
  workflowIdFor,
  type SessionEvent,
} from "../../src/session/index.ts";
import { readPureToolMarker } from "../../src/client/pure-tool-markers.ts";
import { fetchHistory, recordHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

const reasoner = shippedAgent("cognitive-reasoner");

/**
 * The next version of the reasoner: evaluation runs critique → reflect, and the default step is
 * renamed (a session resting in DefaultMode must fall back to the new default, Plain).
 */
function nextVersion(): AgentTemplate {
  const template = structuredClone(reasoner);
  template.orchestration.defaultStep = "Plain";
  for (const step of template.orchestration.steps) {
    if (step.name === "DefaultMode") step.name = "Plain";
    if (step.name === "EvaluationMode") {
      step.sequence = [["critique"], ["reflect"]];
      step.availableTools = { allowed: ["critique", "reflect"] };
    }
  }
  return template;
}

const evaluate = "Please evaluate the argument that remote work improves productivity";

async function eventTypes(
  sessions: ReturnType<typeof useSessionEnv>["env"]["sessions"],
  sessionId: string,
): Promise<SessionEvent[]> {
  return (await sessions.events(sessionId, 0)).events.map(({ event }) => event);
}

describe("upgrading a running session's template on a real dev server", () => {
  const session = useSessionEnv();

  it("moves the session to the new version between turns, carrying its state and recording it", async () => {
    const { sessions, client } = session.env;
    const sessionId = uniqueId("upgrade");
    const first = await sessions.sendWithStart({ template: reasoner, sessionId }, evaluate, "m1");
    assert.deepEqual(
      first.toolCalls.map((call) => call.toolName),
      ["critique", "debate", "reflect"],
    );
    const from = templateVersion(reasoner);
    assert.equal(first.state.templateVersion, from);

    const next = nextVersion();
    const to = templateVersion(next);
    const outcome = await upgradeSession(sessions, sessionId, next);
    assert.equal(outcome.from, from);
    assert.equal(outcome.to, to);
    assert.equal(outcome.changed, true);
    assert.deepEqual(outcome.notes, [
      'step "DefaultMode" is not in the new template: the session is now in its default step "Plain"',
    ]);
    assert.equal(outcome.state.activeStep, "Plain");
    assert.equal(outcome.state.templateVersion, to);
    assert.equal(outcome.state.toolCount, first.state.toolCount);

    const upgraded = (await eventTypes(sessions, sessionId)).filter(
      (event) => event.type === "template_upgraded",
    );
    assert.deepEqual(upgraded, [{ type: "template_upgraded", from, to, notes: outcome.notes }]);
    const description = await client.workflow.getHandle(workflowIdFor(sessionId)).describe();
    assert.equal(description.typedSearchAttributes.get(templateVersionKey), to);
    assert.deepEqual(description.memo, { templateVersion: to });

    const second = await sessions.send(sessionId, evaluate, "m2");
    assert.deepEqual(
      second.toolCalls.map((call) => call.toolName),
      ["critique", "reflect"],
    );
    assert.equal(second.state.activeStep, "Plain");

    // Same version again: nothing changes and nothing is recorded as an upgrade.
    const again = await upgradeSession(sessions, sessionId, next);
    assert.equal(again.changed, false);
    assert.equal(
      (await eventTypes(sessions, sessionId)).filter((event) => event.type === "template_upgraded")
        .length,
      1,
    );

    // The recomputation follows the upgrade the history records.
    const decisions = recomputeDecisions(
      readSessionRecording(workflowIdFor(sessionId), await fetchSessionRuns(client, sessionId)),
    );
    assert.deepEqual(
      decisions.map((decision) => decision.stateAfter.activeStep),
      [first.state.activeStep, second.state.activeStep],
    );
    assert.equal(decisions[1]?.stateAfter.toolCount, second.state.toolCount);
    await recordHistory(client, workflowIdFor(sessionId), "template-upgrade");
  });

  it("applies an upgrade asked for during a turn only after that turn finished", async () => {
    const { sessions } = session.env;
    const sessionId = uniqueId("upgrade-mid-turn");
    await sessions.sendWithStart({ template: reasoner, sessionId }, "Hello", "m1");
    const turn = await sessions.submitTo(sessionId, evaluate, "m2");
    const upgrade = upgradeSession(sessions, sessionId, nextVersion());
    const result = await turn.result();
    await upgrade;
    assert.deepEqual(
      result.toolCalls.map((call) => call.toolName),
      ["critique", "debate", "reflect"],
      "the turn in progress keeps the template it started with",
    );
    const events = await eventTypes(sessions, sessionId);
    const upgradedAt = events.findIndex((event) => event.type === "template_upgraded");
    const started = events.findIndex(
      (event) => event.type === "turn_started" && event.messageId === "m2",
    );
    const finished = events.findIndex(
      (event) => event.type === "turn_finished" && event.messageId === "m2",
    );
    // The upgrade was accepted while the turn ran: before its last tool was scheduled.
    const history = (await fetchHistory(session.env.client, workflowIdFor(sessionId))).events ?? [];
    const accepted = history.findIndex(
      (event) =>
        event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ===
        "upgradeTemplate",
    );
    const converter = session.env.client.options.loadedDataConverter.payloadConverter;
    const lastTool = history.findLastIndex(
      (event) =>
        event.activityTaskScheduledEventAttributes?.activityType?.name === "runTool" ||
        readPureToolMarker(event, converter) !== undefined,
    );
    assert.ok(accepted > 0 && accepted < lastTool, "the upgrade arrived during the turn");
    assert.ok(
      upgradedAt > finished && finished > started,
      JSON.stringify(events.map((e) => e.type)),
    );
  });

  it("refuses another agent's template unless forced, and a template it cannot run, before history", async () => {
    const { sessions } = session.env;
    const sessionId = uniqueId("upgrade-refused");
    await sessions.sendWithStart({ template: reasoner, sessionId }, "Hello", "m1");
    const before = await sessions.state(sessionId);
    await assert.rejects(
      upgradeSession(sessions, sessionId, shippedAgent("general")),
      (error: unknown) =>
        error instanceof SessionRequestError &&
        error.message.includes('the new template is agent "general"') &&
        error.message.includes("force"),
    );
    const broken = structuredClone(reasoner);
    broken.session = { ...broken.session, idleTimeout: "soon" };
    await assert.rejects(
      upgradeSession(sessions, sessionId, broken),
      (error: unknown) =>
        error instanceof SessionRequestError && /the new template cannot run/.test(error.message),
    );
    assert.deepEqual(await sessions.state(sessionId), before);

    const forced = await upgradeSession(sessions, sessionId, shippedAgent("general"), {
      force: true,
    });
    assert.equal(forced.state.agentId, "general");
    // Callers name the agent they expect (the HTTP chat route does): the new one is the session's.
    const answer = await sessions.send(sessionId, "Hello again", "m2", { agentId: "general" });
    assert.equal(answer.error, undefined);
    await assert.rejects(
      sessions.send(sessionId, "Hello old agent", "m3", { agentId: "cognitive-reasoner" }),
      (error: unknown) =>
        error instanceof SessionRequestError && /belongs to agent "general"/.test(error.message),
    );
    const description = await session.env.client.workflow
      .getHandle(workflowIdFor(sessionId))
      .describe();
    assert.equal(description.typedSearchAttributes.get(agentIdKey), "general");
  });
});
