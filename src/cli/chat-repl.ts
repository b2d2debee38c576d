import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import type { AgentTemplate } from "../orchestration/index.ts";
import type { SessionClient } from "../client/index.ts";
import type { TurnResult } from "../session/index.ts";
import { setTimeout as sleep } from "node:timers/promises";
import { StreamHub } from "../client/index.ts";
import { TurnView } from "./turn-view.ts";

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

/**
 * A terminal chat: each line is one message. While the turn runs, its text streams in as the
 * model writes it, and step changes, tool calls and refusals are printed as they happen (from
 * the session's live stream); then a summary line. Resolves when the input ends (Ctrl-D, end of
 * a pipe) or is closed (Ctrl-C).
 */
export async function runChat(options: ChatOptions): Promise<void> {
  const { sessions, template, sessionId, output } = options;
  const hub = new StreamHub(sessions.client);
  const view = new TurnView(output, template.name);
  let started = options.resumed;

  const send = async (text: string, messageId: string): Promise<TurnResult> => {
    if (started) return sessions.send(sessionId, text, messageId);
    started = true;
    return sessions.sendWithStart({ template, sessionId }, text, messageId);
  };

  /** Prints the live events of one turn until it finishes or `stop` aborts. */
  const watchTurn = async (messageId: string, stop: AbortSignal): Promise<void> => {
    // A new session exists once the update-with-start is accepted.
    while (!stop.aborted && !(await sessions.exists(sessionId))) await sleep(50);
    let inTurn = false;
    for await (const { item } of hub.watch(sessionId, undefined, stop)) {
      if (item.type === "session" && item.event.type === "turn_started") {
        inTurn = item.event.messageId === messageId;
        continue;
      }
      if (!inTurn) continue;
      if (item.type === "session" && item.event.type === "turn_finished") return;
      view.show(item);
    }
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
  try {
    for await (const line of lines) {
      const text = line.trim();
      if (text === "") {
        prompt();
        continue;
      }
      if (text === "/exit" || text === "/quit") break;
      const messageId = randomUUID();
      const stop = new AbortController();
      view.reset();
      const watching = watchTurn(messageId, stop.signal).catch(() => undefined);
      try {
        const result = await send(text, messageId);
        // The live view may trail the result by a poll: let it finish, but not wait forever.
        await Promise.race([watching, sleep(2_000)]);
        stop.abort();
        view.finish(result);
      } catch (error) {
        stop.abort();
        view.line(`  ✗ ${error instanceof Error ? error.message : String(error)}`);
      }
      prompt();
    }
  } finally {
    lines.close();
    hub.close();
  }
}
