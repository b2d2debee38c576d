/**
 * The session's live stream (a `@temporalio/workflow-streams` log on the session workflow):
 * the workflow publishes session events on one topic; each model call's activity publishes the
 * raw AI SDK stream parts on a topic of its own, `model/<uuid>` (plain `model` in sessions
 * started by older code). Offsets are global across topics.
 */
export const SESSION_EVENTS_TOPIC = "events";
export const MODEL_PARTS_TOPIC = "model";

/** Whether a stream topic carries model stream parts (any model call's topic). */
export function isModelPartsTopic(topic: string): boolean {
  return topic === MODEL_PARTS_TOPIC || topic.startsWith(`${MODEL_PARTS_TOPIC}/`);
}
