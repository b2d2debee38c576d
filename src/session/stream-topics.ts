/**
 * The session's live stream (a `@temporalio/workflow-streams` log on the session workflow):
 * the workflow publishes session events on one topic, the model activity publishes the raw
 * AI SDK stream parts of every model call on the other. Offsets are global across both.
 */
export const SESSION_EVENTS_TOPIC = "events";
export const MODEL_PARTS_TOPIC = "model";
