import type { LoggedEvent, SessionMessage, SessionView, TurnFailure } from "../session/index.ts";

// What a fork carries over from its parent's queries: the conversation through message N, the
// events of those turns, how turn N ended, and which turns are answered.

/** `Summary of the 3 earlier turns: …` (the `history` query's first message) without its label. */
function summaryOf(message: SessionMessage | undefined): string | undefined {
  if (message?.role !== "system" || typeof message["content"] !== "string") return undefined;
  const match = /^Summary of the \d+ earlier turns: ([\s\S]*)$/.exec(message["content"]);
  return match?.[1];
}

/**
 * The conversation through turn `at`, from the parent's window: the turns it still re-sends are
 * numbered after the ones folded into its summary, each starting with its user message.
 */
export function conversationThrough(
  history: SessionMessage[],
  summarizedTurns: number,
  at: number,
): { messages: SessionMessage[]; summary: string | undefined } {
  const summary = summaryOf(history[0]);
  const window = summary === undefined ? history : history.slice(1);
  const messages: SessionMessage[] = [];
  let turn = summarizedTurns;
  for (const message of window) {
    if (message.role === "user") turn += 1;
    if (turn > at) break;
    messages.push(message);
  }
  return { messages, summary };
}

/** The parent's events of turns 1..at (renumbered from 0), then the fork's own first event. */
export function eventsThrough(events: LoggedEvent[], at: number, parent: string): LoggedEvent[] {
  const end = events.findIndex(({ event }) => event.type === "turn_finished" && event.turn === at);
  const kept = (end < 0 ? [] : events.slice(0, end + 1)).map(({ event }) => event);
  return [...kept, { type: "session_forked" as const, parentSession: parent, forkedAt: at }].map(
    (event, offset) => ({ offset, event }),
  );
}

/** Turn `at`'s failure, if it failed: the fork shows it like the parent did right after it. */
export function failureAt(
  view: SessionView,
  events: LoggedEvent[],
  at: number,
): TurnFailure | undefined {
  if (view.lastFailure?.turn === at) return view.lastFailure;
  for (const { event } of events) {
    if (event.type === "turn_finished" && event.turn === at && event.error !== undefined) {
      // The log keeps no time: the fork's own start stands in for it.
      return { turn: at, at: new Date().toISOString(), error: event.error };
    }
  }
  return undefined;
}

/**
 * The last turn the parent finished: its event log says (a turn's end is logged before the
 * history is compacted, while the status still reads running); with no turn end in the bounded
 * log, the state's turn, less one while a turn runs.
 */
export function answeredTurns(view: SessionView, events: LoggedEvent[]): number {
  const finished = events.flatMap(({ event }) =>
    event.type === "turn_finished" ? [event.turn] : [],
  );
  if (finished.length > 0) return Math.max(...finished);
  return view.status === "running" ? view.turn - 1 : view.turn;
}
