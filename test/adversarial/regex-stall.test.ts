import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { type AgentTemplate } from "../../src/orchestration/index.ts";
import { parseAgentTemplate, TemplateError } from "../../src/agents/index.ts";
import { MAX_MESSAGE_CHARS, workflowIdFor, type TurnResult } from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { countEvents } from "../faults/fault-support.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { decideInThread, regexAgent } from "./regex-agent.ts";

// Issue 10, item 5. The old load-time heuristic let these through, and a backtracking engine then
// spent seconds to hours on one message inside a workflow task (5 s): the session retried the
// task forever. Each decision runs in a worker thread with a deadline, so a regression fails
// here by its deadline instead of hanging the run; the deadline is generous (a linear engine
// decides each in milliseconds), so what is asserted is the decision, not the time.

const longest = MAX_MESSAGE_CHARS;
const deadlineMs = 30_000;

/** `filler` repeated to `length` characters, then `tail`: `length + tail.length` in all. */
function text(filler: string, length: number, tail = ""): string {
  return filler.repeat(Math.ceil(length / filler.length)).slice(0, length) + tail;
}

/** Letters a and b in a fixed pseudo-random order: what makes a lazily built DFA thrash. */
function randomAb(length: number): string {
  let seed = 1;
  let out = "";
  for (let n = 0; n < length; n++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out += seed % 2 === 0 ? "a" : "b";
  }
  return out;
}

interface Case {
  pattern: string;
  /** A longest message that does not match: the worst case for a backtracking engine. */
  miss: string;
  /** A longest message that matches, past the first 4,000 characters where possible. */
  hit: string;
}

const cases: Case[] = [
  {
    pattern: "(.*)(.*)(.*)x",
    miss: text("a", longest),
    hit: text("a", longest - 1, "x"),
  },
  {
    pattern: "^(\\w{1,10}){1,10}!",
    miss: text("a", longest),
    hit: text("abcdefghij", 40, "!") + text(" a", longest - 41),
  },
  {
    pattern: "a.*(b.*)c",
    miss: text("ab", longest),
    hit: text("ab", longest - 1, "c"),
  },
  {
    // The slowest pattern found for the linear engine within the instruction budget: every
    // position of the repeat is a live thread on a-or-b text (see test/bench/regex.ts).
    pattern: "\\w*a\\w{450}\\d",
    miss: randomAb(longest),
    hit: randomAb(longest - 452) + text("a", 1) + text("b", 450, "7"),
  },
];

describe("no message_regex can stall a decision on the longest message", () => {
  for (const { pattern, miss, hit } of cases) {
    it(`decides /${pattern}/ on ${longest}-character messages, matching or not, correctly`, async () => {
      assert.equal(miss.length, longest);
      assert.equal(hit.length, longest);
      const steps = await decideInThread({ pattern, messages: [miss, hit] }, deadlineMs);
      assert.deepEqual(steps, ["Chat", "Matched"]);
    });
  }

  it("refuses at load a pattern whose program is over the instruction budget, naming the field", () => {
    assert.throws(
      () => parseAgentTemplate(regexAgent("(?:a|ab|b){1000}(?:a|ab|b){1000}c")),
      (error: unknown) => {
        assert.ok(error instanceof TemplateError, String(error));
        assert.deepEqual(
          error.issues.map((issue) => issue.path),
          ["orchestration.steps[1].conditions[0].value"],
        );
        assert.match(error.message, /RE2 instructions/);
        return true;
      },
    );
  });
});

describe("a session whose template uses a formerly catastrophic message_regex", () => {
  let env: TestEnv;
  const started: string[] = [];
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(async () => {
    // On a backtracking engine the session retries its workflow task forever: stop it.
    for (const sessionId of started) {
      if (await env.sessions.isRunning(sessionId)) {
        await env.sessions.handle(sessionId).terminate("adversarial test finished");
      }
    }
    await env.close();
  });

  /** The reply, failing as soon as a workflow task fails or times out (the session stalls). */
  async function answers(sessionId: string, message: string, messageId: string) {
    const workflowId = workflowIdFor(sessionId);
    const assertHealthy = async (): Promise<void> => {
      const counts = await countEvents(env.client, workflowId);
      assert.deepEqual(counts.taskFailures, [], "no workflow task failed");
      assert.equal(counts.taskTimedOut, 0, "no workflow task timed out");
    };
    const reply = env.sessions.send(sessionId, message, messageId);
    // An object, not a `let`: TypeScript cannot see the callback change a local.
    const progress = { settled: false };
    reply
      .finally(() => {
        progress.settled = true;
      })
      .catch(() => undefined);
    const deadline = Date.now() + deadlineMs;
    while (!progress.settled) {
      await assertHealthy();
      assert.ok(Date.now() < deadline, `no answer within ${deadlineMs} ms`);
      await sleep(200);
    }
    const result: TurnResult = await reply;
    await assertHealthy();
    assert.equal(result.error, undefined);
    return result;
  }

  it("answers a 32,000-character message without a failed workflow task, and matches past 4,000 characters", async () => {
    const { pattern, miss, hit } = cases[2] ?? assert.fail("case a.*(b.*)c");
    const template: AgentTemplate = parseAgentTemplate(regexAgent(pattern), {
      tools: toolCatalogueEntries,
    });
    const sessionId = uniqueId("regex-stall");
    started.push(sessionId);
    await env.sessions.start({ template, sessionId });

    const missed = await answers(sessionId, miss, "long-miss");
    assert.equal(missed.state.activeStep, "Chat");
    const matched = await answers(sessionId, hit, "long-hit");
    assert.equal(matched.state.activeStep, "Matched");
  });
});
