import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@temporalio/client";
import proto from "@temporalio/proto";
import type { AgentTemplate } from "../../src/orchestration/index.ts";
import type { LoggedEvent, SessionEvent } from "../../src/session/index.ts";
import { fetchHistory } from "../support/history.ts";

const { temporal } = proto;
const EventType = temporal.api.enums.v1.EventType;

/** The AI SDK plugin's model activities (generate-only and streaming). */
export const isModelActivity = (type: string): boolean =>
  type === "invokeModel" || type === "invokeModelStreaming";

/**
 * Polls `probe` until it returns a value; fails naming `what` after `timeoutMs`. A probe that
 * throws counts as "not yet" (a workflow not started yet, a query before its first task).
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  describeState: () => string = () => "",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const details = [
        lastError instanceof Error ? `last error: ${lastError.message}` : "",
        describeState(),
      ].filter((line) => line !== "");
      throw new Error(`${what}: not within ${timeoutMs} ms\n${details.join("\n")}`);
    }
    await sleep(100);
  }
}

/** `promise`, or a rejection naming `what` once `ms` pass (the promise keeps running). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what}: no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface PendingActivity {
  type: string;
  started: boolean;
  attempt: number;
}

/** The activities the server holds as pending for the workflow (describe), with their state. */
export async function pendingActivities(
  client: Client,
  workflowId: string,
): Promise<PendingActivity[]> {
  const { raw } = await client.workflow.getHandle(workflowId).describe();
  return (raw.pendingActivities ?? []).map((activity) => ({
    type: activity.activityType?.name ?? "?",
    started:
      activity.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
    attempt: activity.attempt ?? 0,
  }));
}

/** Whether a workflow task is handed to a worker and not completed yet. */
export async function workflowTaskStarted(client: Client, workflowId: string): Promise<boolean> {
  const { raw } = await client.workflow.getHandle(workflowId).describe();
  return (
    raw.pendingWorkflowTask?.state ===
    temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED
  );
}

export interface HistoryCounts {
  taskTimedOut: number;
  signals: number;
  /**
   * Why each workflow task failed (cause: message), leaving out UnhandledCommand: the server
   * refusing a completion because new events (a signal) arrived meanwhile, retried at once.
   */
  taskFailures: string[];
}

const { WorkflowTaskFailedCause } = temporal.api.enums.v1;

/** Counts of the history events that show a workflow in trouble (or signalled). */
export async function countEvents(client: Client, workflowId: string): Promise<HistoryCounts> {
  const events = (await fetchHistory(client, workflowId)).events ?? [];
  const count = (type: proto.temporal.api.enums.v1.EventType) =>
    events.filter((event) => event.eventType === type).length;
  return {
    taskTimedOut: count(EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT),
    signals: count(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
    taskFailures: events.flatMap((event) => {
      const attributes = event.workflowTaskFailedEventAttributes;
      if (!attributes) return [];
      const { cause } = attributes;
      if (cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND) return [];
      const name = cause === null || cause === undefined ? "?" : WorkflowTaskFailedCause[cause];
      return [`${name}: ${attributes.failure?.message ?? ""}`];
    }),
  };
}

/** The session events of one type, narrowed. */
export function eventsOf<K extends SessionEvent["type"]>(
  events: readonly LoggedEvent[],
  type: K,
): Extract<SessionEvent, { type: K }>[] {
  return events
    .map(({ event }) => event)
    .filter((event): event is Extract<SessionEvent, { type: K }> => event.type === type);
}

/** A folder for scripts and other files; remove it with the returned function. */
export function scratchDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ScriptResponse {
  text?: string;
  toolCalls?: { toolName: string; input: Record<string, unknown> }[];
  delayMs?: number;
}

/** Writes a scripted-model script (src/llm/scripted/script-file.ts); the model rereads it per call. */
export function writeScript(file: string, responses: ScriptResponse[]): string {
  writeFileSync(file, `${JSON.stringify({ responses }, null, 2)}\n`);
  return file;
}

/** `template` answered by the scripted model playing the script at `file` (an absolute path). */
export function onScript(template: AgentTemplate, file: string): AgentTemplate {
  return { ...template, llm: { provider: "scripted", model: `script:${file}` } };
}

/** Tool-result parts of the session's `history` query, flattened. */
export interface ToolResultPart {
  toolName: string;
  output: { type: string; value?: unknown };
}

export function toolResults(messages: readonly Record<string, unknown>[]): ToolResultPart[] {
  return messages
    .filter((message) => message["role"] === "tool")
    .flatMap((message) => {
      const content = message["content"];
      return Array.isArray(content) ? (content as ToolResultPart[]) : [];
    });
}

export interface SearchServer {
  url: string;
  requests: () => number;
  /** Answers every request held by `"hang"` so far with `reply`. */
  release(reply: { status: number; body: string }): void;
  close(): Promise<void>;
}

/**
 * A local server speaking SearXNG's JSON API. `answer(n, query)` decides the n-th request
 * (1-based): a status with a body, or `"hang"` to never answer (until the server closes).
 */
export async function startSearchServer(
  answer: (n: number, query: string) => { status: number; body: string } | "hang",
): Promise<SearchServer> {
  let count = 0;
  const held: ServerResponse[] = [];
  const send = (response: ServerResponse, reply: { status: number; body: string }): void => {
    response.writeHead(reply.status, { "content-type": "application/json" });
    response.end(reply.body);
  };
  const server: Server = createServer((request, response) => {
    count += 1;
    const query = new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("q") ?? "";
    const reply = answer(count, query);
    if (reply === "hang") held.push(response);
    else send(response, reply);
  });
  await new Promise<void>((resolve) => {
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    release: (reply) => {
      for (const response of held.splice(0)) send(response, reply);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}

export const searchHits = JSON.stringify({
  results: [
    {
      title: "Durable execution",
      url: "https://example.org/durable",
      content: "Workflows survive crashes.",
    },
  ],
});
