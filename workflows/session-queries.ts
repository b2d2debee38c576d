import { setHandler } from "@temporalio/workflow";
import {
  allowedToolsQuery,
  eventsQuery,
  historyQuery,
  stateQuery,
} from "../src/session/messages.ts";
import { historyView } from "./history-compaction.ts";
import type { Session } from "./session.ts";

/** The read-only queries: they answer from the session's state and issue no command. */
export function installSessionQueries(session: Session): void {
  setHandler(stateQuery, () => session.view());
  setHandler(historyQuery, () => historyView(session.state));
  setHandler(allowedToolsQuery, () =>
    session.orchestrator.allowedTools(session.state.orchestration),
  );
  setHandler(eventsQuery, ({ after }) => session.log.since(after));
}
