import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import type { AgentTemplate } from "../orchestration/index.ts";
import type { SessionClient } from "../client/index.ts";
import { StreamHub, watchTurn } from "../client/index.ts";
import { askApproval } from "./chat-approval.ts";
import { formatRecap } from "./chat-recap.ts";
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
 * the session's live stream); then a summary line. A resumed chat first recaps the last exchange,
 * so the person sees where they left off. Ctrl-C during a turn stops that turn (cancelTurn);
 * the chat resolves when the input ends (Ctrl-D, end of a pipe) or on Ctrl-C at the prompt (or
 * a second Ctrl-C during a turn).
 */
export async function runChat(options: ChatOptions): Promise<void> {
  const { sessions, template, sessionId, output } = options;
  const hub = new StreamHub(sessions.client);
  /** Aborted when the person leaves mid-turn: the chat stops waiting for the turn. */
  const turnWatch = new AbortController();
  const view = new TurnView(output, template.name);
  let started = options.resumed;
  /** The message whose turn is running, and whether Ctrl-C already asked to stop it. */
  let running: { messageId: string; stopping: boolean } | undefined;

  /** Sends one message (starting the session with the first) and shows its turn live. */
  const runTurn = async (text: string, messageId: string): Promise<void> => {
    // The session has accepted the message when this returns (it exists from then on); only
    // the first message of a new chat may start it, so an ended session is never restarted.
    const accepted = started
      ? await sessions.submitTo(sessionId, text, messageId)
      : await sessions.submit({ template, sessionId }, text, messageId);
    started = true;
    running = { messageId, stopping: false };
    for await (const watched of watchTurn({
      hub,
      sessionId,
      messageId,
      result: accepted.result(),
      signal: turnWatch.signal,
    })) {
      if (watched.type !== "live") {
        view.finish(watched.result);
        continue;
      }
      const { item } = watched.event;
      view.show(item);
      if (item.type === "session" && item.event.type === "approval_requested") {
        const answered = await askApproval(item.event, {
          sessions,
          sessionId,
          nextLine,
          write: (text) => output.write(text),
        });
        if (!answered) return;
      }
    }
  };

  if (options.resumed) {
    const recap = formatRecap(await sessions.history(sessionId), template.name);
    if (recap !== undefined) output.write(`${recap}\n\n`);
  }

  // In a terminal readline puts it in raw mode and must echo what is typed itself: give it the
  // output, or the person types blind.
  const lines = createInterface({
    input: options.input,
    ...(options.interactive ? { output, terminal: true, prompt: "you › " } : { terminal: false }),
  });
  // In a terminal, readline takes Ctrl-C itself. During a turn the first one stops the turn
  // (the chat goes on); a second one, or one at the prompt, ends the chat (the session is kept).
  lines.on("SIGINT", () => {
    if (running !== undefined && !running.stopping) {
      running.stopping = true;
      view.line("  ⏹ stopping the turn… (Ctrl-C again leaves the chat)");
      const { messageId } = running;
      sessions
        .cancelTurn(sessionId, { messageId, reason: "Ctrl-C in the chat" })
        .catch((error: unknown) => {
          view.line(
            `  ✗ could not stop the turn: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      return;
    }
    output.write("\n");
    lines.close();
    // Leaving mid-turn: stop waiting for it (it goes on in the session, durable as ever).
    turnWatch.abort();
  });
  const prompt = (): void => {
    if (options.interactive) lines.prompt();
  };
  prompt();
  // One reader of the input for both messages and answers to approval requests mid-turn.
  const reader = lines[Symbol.asyncIterator]();
  async function nextLine(): Promise<string | undefined> {
    const next = await reader.next();
    return next.done === true ? undefined : next.value;
  }
  try {
    for (;;) {
      const line = await nextLine();
      if (line === undefined) break;
      const text = line.trim();
      if (text === "") {
        prompt();
        continue;
      }
      if (text === "/exit" || text === "/quit") break;
      view.reset();
      try {
        await runTurn(text, randomUUID());
      } catch (error) {
        if (turnWatch.signal.aborted) break;
        view.line(`  ✗ ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        running = undefined;
      }
      if (turnWatch.signal.aborted) break;
      prompt();
    }
  } finally {
    lines.close();
    hub.close();
  }
}
