import type { Client } from "@temporalio/client";
import proto from "@temporalio/proto";

type History = proto.temporal.api.history.v1.IHistory;

export interface RunHistory {
  runId: string;
  history: History;
  events: number;
  /** The history's protobuf size: what the server stores and a replaying worker receives. */
  bytes: number;
}

export function historyBytes(history: History): number {
  return proto.temporal.api.history.v1.History.encode(history).finish().length;
}

export function describeRun(runId: string, history: History): RunHistory {
  return { runId, history, events: history.events?.length ?? 0, bytes: historyBytes(history) };
}

/**
 * Every run of a workflow, oldest first: the current run's history, then the runs it continued
 * from (each run's start event names the previous one). Closed runs never change, so `closed`
 * caches them across calls.
 */
export async function allRunHistories(
  client: Client,
  workflowId: string,
  closed: Map<string, RunHistory> = new Map(),
): Promise<RunHistory[]> {
  const current = await client.workflow.getHandle(workflowId).fetchHistory();
  const runs = [describeRun(startedOf(current)?.originalExecutionRunId ?? "current", current)];
  let previous = startedOf(current)?.continuedExecutionRunId;
  while (typeof previous === "string" && previous !== "") {
    let run = closed.get(previous);
    if (run === undefined) {
      run = describeRun(
        previous,
        await client.workflow.getHandle(workflowId, previous).fetchHistory(),
      );
      closed.set(previous, run);
    }
    runs.unshift(run);
    previous = startedOf(run.history)?.continuedExecutionRunId;
  }
  return runs;
}

function startedOf(history: History) {
  return history.events?.[0]?.workflowExecutionStartedEventAttributes;
}

export function totals(runs: readonly RunHistory[]): {
  events: number;
  bytes: number;
  carriedBytes: number;
} {
  return {
    events: runs.reduce((sum, run) => sum + run.events, 0),
    bytes: runs.reduce((sum, run) => sum + run.bytes, 0),
    carriedBytes: runs.reduce((sum, run) => sum + carriedStateBytes(run) + handedOnBytes(run), 0),
  };
}

function eventBytes(event: proto.temporal.api.history.v1.IHistoryEvent): number {
  return proto.temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
}

/**
 * The bytes of a continued run's start event: the state carried across continue-as-new (the
 * conversation window, the orchestration state), recorded once per run, not per turn.
 */
export function carriedStateBytes(run: RunHistory): number {
  const [started] = run.history.events ?? [];
  if (started?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId == null) return 0;
  if (started.workflowExecutionStartedEventAttributes.continuedExecutionRunId === "") return 0;
  return eventBytes(started);
}

/** The bytes of a run's closing continue-as-new event, which records the same carried state. */
function handedOnBytes(run: RunHistory): number {
  const last = run.history.events?.at(-1);
  if (last?.workflowExecutionContinuedAsNewEventAttributes == null) return 0;
  return eventBytes(last);
}
