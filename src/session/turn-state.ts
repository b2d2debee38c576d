import type { SessionView } from "./session-types.ts";

/**
 * Session-wide facts a turn's reply leaves to the `state` query. Every reply is recorded in
 * history and kept for repeats (across continue-as-new too), and the unavailable tools' reasons
 * were a sixth of an evaluation turn's reply, repeated every turn while the worker lacks a tool;
 * the turn's availability check records them, and no reader of a reply used them.
 */
export const STATE_ONLY_FIELDS = ["unavailableTools"] as const;

/**
 * The session as a turn's reply shows it: the view without `STATE_ONLY_FIELDS` (optional fields
 * of the view). `SessionClient.withSessionFacts` fills them from the `state` query.
 */
export function turnStateOf(view: SessionView): SessionView {
  const stateOnly = new Set<string>(STATE_ONLY_FIELDS);
  return Object.fromEntries(
    Object.entries(view).filter(([field]) => !stateOnly.has(field)),
  ) as unknown as SessionView;
}
