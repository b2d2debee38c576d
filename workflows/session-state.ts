import type { OrchestrationState } from "../src/orchestration/index.ts";
import type { ApprovalRecord } from "../src/session/approvals.ts";
import type {
  CarriedSession,
  SessionMessage,
  SessionStatus,
  TurnFailure,
  TurnResult,
  UserMessage,
} from "../src/session/session-types.ts";
import type { PluginToolDefinition } from "../activities/tool-availability.ts";

/** The running turn as `cancelTurn` matches it. */
export interface ActiveTurn {
  messageId: string;
  /** Its number (decided at its start: every turn adds one). */
  turn: number;
  /** Set when a person asked to stop it: why (the turn then ends as cancelled). */
  cancelReason: string | undefined;
  /** Messages that joined this turn (`steer`): answered with its result. */
  steered: string[];
}

/**
 * Everything a session knows, as plain data in one object. `Session` owns it; each concern
 * (message intake, turn, stream, visibility, history compaction, continue-as-new) reads and
 * changes it through the session, never through a copy of its own.
 */
export interface SessionState {
  orchestration: OrchestrationState;
  /** The turns re-sent to the model: the recent window (older turns are in `summary`). */
  messages: SessionMessage[];
  summary: string | undefined;
  summarizedTurns: number;
  /** The turn in progress, from its start until its answer is recorded; undefined between turns. */
  activeTurn: ActiveTurn | undefined;
  /** Accepted messages not yet answered, in arrival order; the first one is running or next. */
  pending: UserMessage[];
  /** Ids answered in this or an earlier run (bounded): a repeat is never run twice. */
  processedIds: Set<string>;
  /** The latest results by message id (bounded), which answer `sendMessage` and its repeats. */
  results: Map<string, TurnResult>;
  /** Ids whose `sendMessage` caller is waiting: they must be answered before continue-as-new. */
  awaitedIds: Set<string>;
  status: SessionStatus;
  /** Set once an end was asked for; messages are refused from then on. */
  ending: boolean;
  endReason: string | undefined;
  /** The last step entered other than the default step, for the Web UI and its filters. */
  lastStep: string | undefined;
  lastFailure: TurnFailure | undefined;
  /** This run's number in the continue-as-new chain, from 1. */
  run: number;
  /** What this turn's model calls must tell the user (steps skipped or released, and why). */
  turnNotes: string[];
  /** The stream offset where the last turn's items start (older ones are dropped). */
  lastTurnStart: number;
  /** The plug-in tools the last availability check reported: offered to the model like built-ins. */
  pluginTools: PluginToolDefinition[];
  /** Tool calls waiting for a person's approval, and the latest decided ones (tool-approval.ts). */
  approvals: ApprovalRecord[];
}

/** A run's state: fresh, or what the previous run carried over. */
export function restoreState(
  carried: CarriedSession | undefined,
  initial: () => OrchestrationState,
  streamStart: number,
): SessionState {
  const orchestration = carried?.state ?? initial();
  const lastFailure = carried?.lastFailure;
  return {
    orchestration,
    messages: carried?.messages ?? [],
    summary: carried?.summary,
    summarizedTurns: carried?.summarizedTurns ?? 0,
    activeTurn: undefined,
    pending: carried?.pending ?? [],
    processedIds: new Set(carried?.processedIds ?? []),
    results: new Map((carried?.results ?? []).map((result) => [result.messageId, result])),
    awaitedIds: new Set(),
    // A failure stays the session's status until the next turn starts, across runs too.
    status: lastFailure?.turn === orchestration.turn ? "failed" : "idle",
    ending: false,
    endReason: undefined,
    lastStep: carried?.lastStep,
    lastFailure,
    run: (carried?.run ?? 0) + 1,
    turnNotes: [],
    lastTurnStart: streamStart,
    pluginTools: [],
    approvals: carried?.approvals ?? [],
  };
}
