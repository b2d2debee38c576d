import type { Client } from "@temporalio/client";
import type { History } from "@temporalio/common/lib/proto-utils.js";
import proto from "@temporalio/proto";
import type { AgentTemplate, ReportedTokenUsage } from "../orchestration/index.ts";
import { payloadConverter } from "../session/payload-converter.ts";
import { workflowIdFor, type SessionInput, type TurnResult } from "../session/index.ts";
import { MessageIntake } from "./message-intake.ts";
import { offeredTools, startsTurn, usageOf } from "./model-call-record.ts";
import { readPureToolMarker } from "./pure-tool-markers.ts";
import { UPGRADE_TEMPLATE_UPDATE_NAME, upgradeRequestSchema } from "../session/template-upgrade.ts";

const EventType = proto.temporal.api.enums.v1.EventType;
type Payloads = proto.temporal.api.common.v1.IPayloads | null | undefined;
type Payload = proto.temporal.api.common.v1.IPayload | null | undefined;

/** One thing that happened inside a turn, in the order the workflow applied it. */
export type TurnStep =
  | { type: "model_call"; offeredTools: string[]; usage?: ReportedTokenUsage }
  | { type: "tool_ok"; tool: string }
  | { type: "tool_failed"; tool: string; error: string };

/** What the worker reported at a turn's start: tools it cannot run, plug-ins it has. */
export interface RecordedAvailability {
  unavailable: Record<string, string>;
  pluginTools: { name: string; category?: string }[] | undefined;
}

export interface RecordedTurn {
  type: "turn";
  /** The session's turn number (1 for its first message; a fork continues its parent's count). */
  turn: number;
  messageId: string;
  text: string;
  availability?: RecordedAvailability;
  steps: TurnStep[];
  /** The turn's result when a caller waited for it (update); absent for signals. */
  result?: TurnResult;
}

/** A template upgrade applied between two turns. */
export interface RecordedUpgrade {
  type: "upgrade";
  template: AgentTemplate;
  version: string;
  force: boolean;
}

/** A session's inputs as its history holds them: enough to recompute every decision it made. */
export interface SessionRecording {
  workflowId: string;
  input: SessionInput;
  /** Turns and upgrades, in the order the workflow ran them (every run of the chain). */
  entries: (RecordedTurn | RecordedUpgrade)[];
  /** Whether failed tools counted in the orchestration state (patch `tool-failure-release`). */
  failuresCount: boolean;
}

/** Why a history cannot be read as a session. */
export class SessionRecordingError extends Error {
  override readonly name = "SessionRecordingError";
}

const MODEL_ACTIVITIES = new Set(["invokeModel", "invokeModelStreaming"]);

function decode(payloads: Payloads): unknown {
  return decodeOne(payloads?.payloads?.[0]);
}

function decodeOne(payload: Payload): unknown {
  return payload == null ? undefined : payloadConverter.fromPayload(payload);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads the runs of one session (oldest first; one run for a history file) into its recorded
 * inputs: the messages in the order they ran, what the worker reported at each turn's start, each
 * model call's offered tools and usage, each tool's outcome, and the template upgrades.
 */
export function readSessionRecording(
  workflowId: string,
  runs: readonly History[],
): SessionRecording {
  const first = runs[0]?.events?.[0]?.workflowExecutionStartedEventAttributes;
  const input = decode(first?.input) as SessionInput | undefined;
  if (input === undefined || !isRecord(input.template) || typeof input.sessionId !== "string") {
    throw new SessionRecordingError(
      `${workflowId}: the history does not start an agent session (no session input in its first event)`,
    );
  }
  const intake = new MessageIntake(input);
  const entries: (RecordedTurn | RecordedUpgrade)[] = [];
  const upgrades = new Map<string, RecordedUpgrade>();
  let current: RecordedTurn | undefined;
  let turn = input.carried?.state.turn ?? 0;
  let failuresCount = false;
  const models = new Map<string, Extract<TurnStep, { type: "model_call" }>>();
  const tools = new Map<string, string>();
  const byMessage = new Map<string, RecordedTurn>();
  // A check answered `unchanged` repeats the run's last full answer (each run records one first).
  let lastAvailability: RecordedAvailability | undefined;

  const startTurn = (availability?: RecordedAvailability): RecordedTurn | undefined => {
    const message = intake.next();
    if (message === undefined) return undefined;
    turn += 1;
    const started: RecordedTurn = { type: "turn", turn, ...message, steps: [] };
    if (availability !== undefined) started.availability = availability;
    entries.push(started);
    byMessage.set(message.messageId, started);
    return started;
  };

  for (const history of runs) {
    lastAvailability = undefined;
    for (const event of history.events ?? []) {
      switch (event.eventType) {
        case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
          const attributes = event.workflowExecutionSignaledEventAttributes;
          if (attributes?.signalName === "userMessage") intake.accept(decode(attributes.input));
          if (attributes?.signalName === "endSession") intake.ending = true;
          break;
        }
        case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED: {
          const request = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest;
          const name = request?.input?.name;
          const argument = decode(request?.input?.args);
          if (name === "sendMessage") intake.accept(argument);
          if (name === "endSessionAndWait") intake.ending = true;
          if (name === UPGRADE_TEMPLATE_UPDATE_NAME) {
            const parsed = upgradeRequestSchema.safeParse(argument);
            if (parsed.success) {
              upgrades.set(parsed.data.templateVersion, {
                type: "upgrade",
                template: parsed.data.template as AgentTemplate,
                version: parsed.data.templateVersion,
                force: parsed.data.force ?? false,
              });
            }
          }
          break;
        }
        case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED: {
          const outcome = decode(
            event.workflowExecutionUpdateCompletedEventAttributes?.outcome?.success,
          );
          // `cancelTurn` answers with the cancelled turn's result inside its own outcome.
          const result =
            isRecord(outcome) && isRecord(outcome["result"]) ? outcome["result"] : outcome;
          if (
            isRecord(result) &&
            typeof result["messageId"] === "string" &&
            isRecord(result["state"])
          ) {
            const recorded = byMessage.get(result["messageId"]);
            if (recorded !== undefined && result["turn"] === recorded.turn) {
              recorded.result = result as unknown as TurnResult;
            }
          }
          break;
        }
        case EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED: {
          // The upgrade's memo change is the moment it applied (between two turns).
          const version = decodeOne(
            event.workflowPropertiesModifiedEventAttributes?.upsertedMemo?.fields?.[
              "templateVersion"
            ],
          );
          const upgrade = typeof version === "string" ? upgrades.get(version) : undefined;
          if (upgrade !== undefined) {
            entries.push(upgrade);
            current = undefined;
          }
          break;
        }
        case EventType.EVENT_TYPE_MARKER_RECORDED: {
          const marker = event.markerRecordedEventAttributes;
          if (marker?.markerName === "core_patch") {
            const patch = decode(marker.details?.["patch-data"]);
            if (isRecord(patch) && patch["id"] === "tool-failure-release") failuresCount = true;
          }
          if (marker?.markerName !== "core_local_activity") break;
          const pure = readPureToolMarker(event, payloadConverter);
          if (pure !== undefined) {
            current?.steps.push(
              pure.error === undefined
                ? { type: "tool_ok", tool: pure.tool }
                : { type: "tool_failed", tool: pure.tool, error: pure.error },
            );
            break;
          }
          const data = decode(marker.details?.["data"]);
          if (!isRecord(data) || data["activity_type"] !== "checkToolAvailability") break;
          // One check per turn, before its first model call: it marks the turn's start.
          const answer = decode(marker.details?.["result"]);
          const answered = isRecord(answer) && isRecord(answer["unavailable"]);
          if (answered) {
            lastAvailability = {
              unavailable: answer["unavailable"] as Record<string, string>,
              pluginTools: Array.isArray(answer["pluginTools"])
                ? (answer["pluginTools"] as RecordedAvailability["pluginTools"])
                : undefined,
            };
          }
          // A failed check (no answer) leaves the last one for the next `unchanged` to repeat.
          const unchanged = isRecord(answer) && answer["unchanged"] === true;
          current = startTurn(unchanged || answered ? lastAvailability : undefined);
          break;
        }
        case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
          const attributes = event.activityTaskScheduledEventAttributes;
          const type = attributes?.activityType?.name ?? "";
          const activityInput = decode(attributes?.input);
          if (MODEL_ACTIVITIES.has(type)) {
            const summary = decodeOne(event.userMetadata?.summary);
            if (summary === "history summary") break;
            if (startsTurn(summary, activityInput)) {
              const fresh = current !== undefined && current.steps.length === 0;
              if (!fresh) current = startTurn();
            }
            const call: Extract<TurnStep, { type: "model_call" }> = {
              type: "model_call",
              offeredTools: offeredTools(activityInput),
            };
            current?.steps.push(call);
            models.set(String(event.eventId), call);
          } else if (type === "runTool" && isRecord(activityInput)) {
            const tool = activityInput["tool"];
            if (typeof tool === "string") tools.set(String(event.eventId), tool);
          }
          break;
        }
        case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
          const attributes = event.activityTaskCompletedEventAttributes;
          const id = String(attributes?.scheduledEventId);
          const call = models.get(id);
          if (call !== undefined) {
            const usage = usageOf(decode(attributes?.result));
            if (usage !== undefined) call.usage = usage;
          }
          const tool = tools.get(id);
          if (tool !== undefined) current?.steps.push({ type: "tool_ok", tool });
          break;
        }
        case EventType.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED: {
          // A cancelled turn stopped waiting here: whatever the activity reports later (even a
          // completion during the next turn) never reached the orchestrator.
          const id = String(event.activityTaskCancelRequestedEventAttributes?.scheduledEventId);
          models.delete(id);
          tools.delete(id);
          break;
        }
        case EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED:
        case EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT: {
          const attributes =
            event.activityTaskFailedEventAttributes ?? event.activityTaskTimedOutEventAttributes;
          const tool = tools.get(String(attributes?.scheduledEventId));
          if (tool !== undefined) {
            current?.steps.push({
              type: "tool_failed",
              tool,
              error: attributes?.failure?.message ?? "failed",
            });
          }
          break;
        }
        default:
          break;
      }
    }
  }
  return { workflowId, input, entries, failuresCount };
}

/** Every run of a session, oldest first: each run's start names the run it continues. */
export async function fetchSessionRuns(client: Client, sessionId: string): Promise<History[]> {
  const workflowId = workflowIdFor(sessionId);
  const runs: History[] = [];
  let runId: string | undefined;
  for (;;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    runs.unshift(history);
    const previous =
      history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (previous == null || previous === "") return runs;
    runId = previous;
  }
}
