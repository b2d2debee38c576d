import { patched } from "@temporalio/workflow";
import { DEFAULT_RECENT_TURNS, type AgentTemplate } from "../src/orchestration/index.ts";
import { modelIdOrError } from "../src/llm/model-id.ts";
import type { SessionMessage } from "../src/session/session-types.ts";
import { compactionCut } from "./history-window.ts";
import type { Session } from "./session.ts";
import type { SessionState } from "./session-state.ts";
import { summarizeHistory } from "./summarize-history.ts";

/** Sessions started before history was bounded replay without compaction. */
export const BOUNDED_HISTORY_PATCH = "bounded-history";

/**
 * Keeps what every model call re-sends bounded: once the conversation holds enough turns
 * beyond the template's window, the oldest ones are folded into the running summary and
 * dropped from the messages (and from what continue-as-new carries). Sessions started before
 * this existed replay unchanged (patch "bounded-history").
 */
export async function compactHistory(session: Session): Promise<void> {
  const { state, template } = session;
  // Snapshots taken before this setting existed lack it (replay proved it): use the defaults.
  const settings = template.session.history as AgentTemplate["session"]["history"] | undefined;
  const { recentTurns, summarize } = settings ?? {
    recentTurns: DEFAULT_RECENT_TURNS,
    summarize: true,
  };
  const cut = compactionCut(state.messages, recentTurns);
  if (cut === undefined || !patched(BOUNDED_HISTORY_PATCH)) return;
  const leaving = state.messages.slice(0, cut);
  const turns = leaving.filter((message) => message.role === "user").length;
  if (summarize) {
    const model = modelIdOrError(template.llm);
    const outcome =
      "error" in model ? model : await summarizeHistory(model.modelId, state.summary, leaving);
    if ("error" in outcome) {
      session.emit({ type: "history_summary_failed", error: outcome.error });
      return;
    }
    state.summary = outcome.summary;
  }
  state.messages = state.messages.slice(cut);
  state.summarizedTurns += turns;
  session.emit({ type: "history_summarized", turns, summaryChars: state.summary?.length ?? 0 });
}

/** The conversation as the `history` query shows it: the summary first, then the window. */
export function historyView(state: SessionState): SessionMessage[] {
  return state.summary === undefined
    ? state.messages
    : [
        {
          role: "system",
          content: `Summary of the ${state.summarizedTurns} earlier turns: ${state.summary}`,
        },
        ...state.messages,
      ];
}
