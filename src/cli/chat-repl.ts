import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import type { AgentTemplate } from "../orchestration/index.ts";
import type { SessionClient } from "../client/index.ts";
import type { TurnResult } from "../session/index.ts";
import { describeEvent } from "./event-lines.ts";

export interface ChatOptions {
  sessions: SessionClient;
  template: AgentTemplate;
  sessionId: string;
  /** The session exists already (resumed): messages go straight to it. */
  resumed: boolean;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Interactive terminal: show a prompt. */
  interactive: boolean;
}

const POLL_MS = 200;

/**
 * A terminal chat: each line is one message; while the turn runs, step changes and tool calls
 * are printed as they happen (polled from the session's event log), then the reply.
 * Resolves when the input ends (Ctrl-D, end of a pipe) or is closed (Ctrl-C).
 */
export async function runChat(options: ChatOptions): Promise<void> {
  const { sessions, template, sessionId, output } = options;
  const write = (line: string): void => {
    output.write(`${line}\n`);
  };
  let offset = options.resumed
    ? (await sessions.events(sessionId, Number.MAX_SAFE_INTEGER)).next
    : 0;
  let started = options.resumed;

  const flushEvents = async (): Promise<void> => {
    const { events, next } = await sessions.events(sessionId, offset);
    offset = next;
    for (const { event } of events) {
      const line = describeEvent(event);
      if (line !== undefined) write(line);
    }
  };

  const send = async (text: string): Promise<TurnResult> => {
    const messageId = randomUUID();
    if (started) return sessions.send(sessionId, text, messageId);
    started = true;
    return sessions.sendWithStart({ template, sessionId }, text, messageId);
  };

  const lines = createInterface({ input: options.input, terminal: options.interactive });
  // In a terminal, readline takes Ctrl-C itself: end the chat (the session is kept).
  lines.on("SIGINT", () => {
    output.write("\n");
    lines.close();
  });
  const prompt = (): void => {
    if (options.interactive) output.write("you › ");
  };
  prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (text === "") {
      prompt();
      continue;
    }
    if (text === "/exit" || text === "/quit") break;
    const reply = send(text);
    // An object, not a `let`: the promise callback sets it and TypeScript cannot see that.
    const turn = { done: false };
    void reply
      .finally(() => {
        turn.done = true;
      })
      .catch(() => undefined);
    // Live view: poll the event log while the turn runs (queries are cheap and never block the turn).
    while (!turn.done) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (started) await flushEvents().catch(() => undefined);
    }
    try {
      const result = await reply;
      await flushEvents();
      if (result.error !== undefined) write(`  ✗ turn failed: ${result.error}`);
      write(`${template.name} › ${result.text || "(no text)"}`);
      const usage = result.state.cumulativeTokenUsage;
      write(
        `  [turn ${result.turn} · step ${result.state.activeStep ?? "none"} · ${usage.totalTokens} tokens so far]`,
      );
    } catch (error) {
      write(`  ✗ ${error instanceof Error ? error.message : String(error)}`);
    }
    prompt();
  }
  lines.close();
}
