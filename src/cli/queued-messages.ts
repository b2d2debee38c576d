import type { SessionView } from "../session/index.ts";

/**
 * The messages waiting for a turn of their own. The `state` query's `pendingMessages` counts the
 * message the running turn answers too (it leaves the queue when its turn ends), so while a turn
 * runs or waits for an approval, one of them is that turn's.
 */
export function queuedMessages(view: Pick<SessionView, "status" | "pendingMessages">): number {
  return Math.max(0, inTurn(view) ? view.pendingMessages - 1 : view.pendingMessages);
}

/** Whether a turn is under way (running, or paused on a person's approval). */
export function inTurn(view: Pick<SessionView, "status">): boolean {
  return view.status === "running" || view.status === "awaiting_approval";
}
