export {
  DEFAULT_END_WAIT_MS,
  DEFAULT_FAILED_TASK_WAIT_MS,
  DEFAULT_ROOM_WAIT,
  isEndedSessionError,
  SessionClient,
  type MessageOwner,
  SessionRequestError,
  type EndOutcome,
  type RoomWait,
  type SessionRetryReason,
  type StartSessionOptions,
  WORKFLOW_TASK_FAILING,
} from "./session-client.ts";
export { workflowTaskFailing } from "./workflow-task-failing.ts";
export { LiveTranslator, type LiveEvent, type LiveItem } from "./live-events.ts";
export { StreamHub, type StreamHubOptions } from "./stream-hub.ts";
export {
  executionStatuses,
  listQuery,
  listSessions,
  type ExecutionStatusOption,
  type ListFilter,
  type SessionListing,
} from "./session-listing.ts";
export { watchTurn, type TurnWatchEvent, type WatchTurnOptions } from "./turn-watcher.ts";
export { TurnChunker, type TurnMetadata } from "./ui-chunks.ts";
export {
  orchestrationByTurn,
  toUIMessages,
  type PlacedOrchestration,
  type TurnOrchestration,
  type ToUIMessagesOptions,
} from "./ui-history.ts";
export {
  buildTimeline,
  type SequenceProgress,
  type SessionTimeline,
  type ToolContext,
  type ToolDecisionView,
  type TimelineEntry,
  type TimelineSources,
  type TimelineTurn,
  type WithheldTool,
} from "./session-timeline.ts";
export {
  readRunActivities,
  type RunActivities,
  type ToolActivityRun,
} from "./tool-activity-runs.ts";
export { readPureToolMarker, type PureToolMarker } from "./pure-tool-markers.ts";
export {
  compareDecisions,
  describeComparison,
  quoteMessage,
  type DecisionComparison,
  type FirstDifference,
} from "./decision-diff.ts";
export {
  recomputeDecisions,
  recordingMismatch,
  type MessageDecision,
  type ModelCallDecision,
} from "./session-decisions.ts";
export {
  forkSession,
  SessionForkError,
  type ForkOutcome,
  type ForkRequest,
} from "./session-fork.ts";
export {
  fetchSessionRuns,
  readSessionRecording,
  SessionRecordingError,
  type SessionRecording,
} from "./session-recording.ts";
export { upgradeSession, type UpgradeOptions } from "./session-upgrade.ts";
