import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { historyToJSON } from "@temporalio/common/lib/proto-utils.js";
import proto from "@temporalio/proto";
import { sessionIdFromWorkflowId } from "../../src/session/index.ts";
import { fetchHistory } from "../support/history.ts";
import { attacks } from "./soak-attacks.ts";
import { chat } from "./soak-http.ts";
import { soakSecrets, soakTenants, startSoakStack, type SoakStack } from "./soak-stack.ts";
import { SoakTally } from "./soak-tally.ts";

const help = `Usage: npm run soak [-- --minutes N] [--chats N]

A few minutes of normal chats over the HTTP API mixed with hostile requests of every kind the
hardening issue names (bad message ids, bursts, stream injection, templates that point the
worker's key elsewhere or read files, a key-echoing provider, backtracking regexes, agent races,
broken agent folders, cross-tenant requests, malformed requests), against a real dev server, a
worker process and \`serve\`. Ends by probing every session it made and prints how many were
broken, stalled, lost or leaked (the goal is 0 of each) and what it sent. Exit 1 otherwise.

Options:
  --minutes N   how long the traffic runs (default 3; SOAK_MINUTES)
  --chats N     concurrent normal chat clients (default 4)`;

const { values } = parseArgs({
  options: {
    minutes: { type: "string" },
    chats: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help === true) {
  console.log(help);
  process.exit(0);
}
const minutes = Number(values.minutes ?? process.env["SOAK_MINUTES"] ?? 3);
const chatClients = Number(values.chats ?? 4);
if (!(minutes > 0) || !(chatClients >= 1)) {
  console.error("soak: --minutes must be > 0 and --chats >= 1");
  process.exit(2);
}
const { EventType, WorkflowTaskFailedCause } = proto.temporal.api.enums.v1;

/** A user chatting normally: a few messages per session, each reply awaited. */
async function normalChats(stack: SoakStack, tally: SoakTally, until: number): Promise<void> {
  const agents = ["cognitive-reasoner", "general"];
  const prompts = [
    "Please evaluate the claim that remote work improves productivity",
    "Brainstorm ideas for a team offsite",
    "Compare tea and coffee",
    "hello there",
  ];
  let round = 0;
  while (Date.now() < until) {
    const agentId = agents[round % agents.length] ?? "general";
    const chatId = `soak-chat-${randomUUID().slice(0, 8)}`;
    for (let turn = 1; turn <= 3 && Date.now() < until; turn++) {
      tally.count("normal chat message");
      const outcome = await chat(
        stack.apiUrl,
        soakTenants.alpha,
        agentId,
        chatId,
        `n${turn}`,
        prompts[(round + turn) % prompts.length] ?? "hello",
        120_000,
      );
      if (outcome.status !== 200) {
        tally.wrong.push(
          `normal chat ${chatId} n${turn}: ${outcome.status} ${outcome.raw.slice(0, 200)}`,
        );
        await sleep(1_000); // a refusing API is reported, not hammered
        break;
      }
      if (outcome.turn !== turn)
        tally.lost.push(`normal chat ${chatId} n${turn}: finish turn ${outcome.turn}`);
    }
    round++;
  }
}

async function hostileTraffic(stack: SoakStack, tally: SoakTally, until: number): Promise<void> {
  const kinds = Object.entries(attacks);
  for (let index = 0; Date.now() < until; index++) {
    const entry = kinds[index % kinds.length];
    if (entry === undefined) return;
    const [name, attack] = entry;
    try {
      await attack(stack, tally);
    } catch (error) {
      tally.wrong.push(`${name}: threw ${error instanceof Error ? error.message : String(error)}`);
    }
    await sleep(100);
  }
}

/** Every session the run made: broken, stalled or leaking? */
async function verdict(stack: SoakStack, tally: SoakTally): Promise<void> {
  const secrets = [...Object.values(soakSecrets), "root:x:0:0"];
  const workflows = [];
  for await (const execution of stack.client.workflow.list({
    query: `TaskQueue="${stack.taskQueue}"`,
  })) {
    workflows.push(execution);
  }
  console.log(`soak: checking ${workflows.length} sessions`);
  for (const execution of workflows) {
    const history = await fetchHistory(stack.client, execution.workflowId);
    for (const event of history.events ?? []) {
      const failed = event.workflowTaskFailedEventAttributes;
      if (
        event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED &&
        failed?.cause !== WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND
      ) {
        tally.broken.push(
          `${execution.workflowId}: workflow task failed: ${failed?.failure?.message ?? "?"}`,
        );
        break;
      }
    }
    if (["FAILED", "TERMINATED", "TIMED_OUT"].includes(execution.status.name)) {
      tally.broken.push(`${execution.workflowId}: ${execution.status.name}`);
    }
    const text = historyToJSON(history);
    const decoded = text.replace(/"data":"([A-Za-z0-9+/=]+)"/g, (_match, data: string) =>
      Buffer.from(data, "base64").toString("utf8"),
    );
    for (const secret of secrets) {
      if (decoded.includes(secret))
        tally.leaked.push(`${execution.workflowId}: history holds ${secret.slice(0, 12)}…`);
    }
  }
  const running = workflows.filter((execution) => execution.status.name === "RUNNING");
  for (let start = 0; start < running.length; start += 20) {
    await Promise.all(
      running.slice(start, start + 20).map(async (execution) => {
        const sessionId = sessionIdFromWorkflowId(execution.workflowId);
        const probe = stack.sessions.send(
          sessionId,
          "are you still there?",
          `probe-${randomUUID().slice(0, 8)}`,
        );
        const answered = await Promise.race([
          probe.then(
            () => true,
            (error: unknown) => !/no answer/.test(String(error)),
          ),
          new Promise<boolean>((resolve) => {
            setTimeout(() => {
              resolve(false);
            }, 60_000);
          }),
        ]);
        if (!answered) {
          tally.stalled.push(`${execution.workflowId}: no answer to a probe within 60 s`);
          return;
        }
        const ended = await stack.sessions
          .end(sessionId, "soak finished", { waitMs: 30_000 })
          .catch(() => undefined);
        if (ended?.ended !== true)
          tally.stalled.push(`${execution.workflowId}: did not end within 30 s`);
      }),
    );
  }
  if (stack.trapRequests.length > 0) {
    tally.leaked.push(
      `the trap listener got ${stack.trapRequests.length} request(s)${stack.trapRequests.some((headers) => headers.authorization !== undefined) ? " carrying an API key" : ""}`,
    );
  }
  const output = stack.output();
  for (const secret of secrets) {
    if (output.includes(secret))
      tally.leaked.push(`a worker or serve log holds ${secret.slice(0, 12)}…`);
  }
}

const tally = new SoakTally();
console.log(`soak: starting a dev server, a worker process and serve (${minutes} min of traffic)`);
const stack = await startSoakStack();
let exitCode = 1;
try {
  const until = Date.now() + minutes * 60_000;
  const progress = setInterval(() => {
    const sent = [...tally.sent.values()].reduce((sum, count) => sum + count, 0);
    console.log(
      `soak: ${Math.max(0, Math.round((until - Date.now()) / 1000))} s left, ${sent} requests sent`,
    );
  }, 30_000);
  await Promise.all([
    ...Array.from({ length: chatClients }, () => normalChats(stack, tally, until)),
    hostileTraffic(stack, tally, until),
  ]);
  clearInterval(progress);
  await verdict(stack, tally);
  console.log(tally.report(minutes));
  exitCode = tally.failures() === 0 && tally.wrong.length === 0 ? 0 : 1;
} finally {
  await stack.close();
}
process.exit(exitCode);
