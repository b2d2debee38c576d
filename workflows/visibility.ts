import { patched, setCurrentDetails, upsertSearchAttributes } from "@temporalio/workflow";
import {
  activeStepKey,
  awaitingApprovalKey,
  lastStepKey,
  sessionStatusKey,
  turnCountKey,
} from "../src/session/search-attributes.ts";
import type { SessionEvent, SessionView } from "../src/session/session-types.ts";
import { renderCurrentDetails } from "./current-details.ts";
import { activeStepOf } from "./active-step.ts";
import type { Session } from "./session.ts";

/**
 * Sessions started before the Web UI followed turns as they run upserted search attributes only
 * between turns; they replay without the upserts made within a turn.
 */
export const MID_TURN_PATCH = "visibility-mid-turn";

/**
 * Sessions recorded before sent every attribute on every upsert; they replay that way. An upsert
 * merges into the workflow's attributes, so sending only those that changed leaves the same
 * attributes on the server for fewer history bytes (a turn upserts three times).
 */
export const CHANGED_ATTRIBUTES_PATCH = "visibility-changed-attributes";

type Attribute =
  | { key: typeof activeStepKey; value: string }
  | { key: typeof sessionStatusKey; value: string }
  | { key: typeof turnCountKey; value: number }
  | { key: typeof lastStepKey; value: string }
  | { key: typeof awaitingApprovalKey; value: string | null };

/** What the turn in progress is doing, in words, from the event that just happened. */
function activityOf(event: SessionEvent): string | undefined {
  switch (event.type) {
    case "turn_started":
      return `turn ${event.turn} started`;
    case "model_step":
      return `model call ${event.step}${event.activeStep === null ? "" : ` in ${event.activeStep}`}`;
    case "tool_started":
      return `tool ${event.toolName} running`;
    case "tool_finished":
      return `tool ${event.toolName} ${event.status === "ok" ? "finished" : event.status === "refused" ? "refused" : "failed"}`;
    case "approval_requested":
      return `tool ${event.tool} awaiting approval`;
    case "approval_decided":
      return `tool ${event.tool} ${event.outcome === "approved" ? "approved" : event.outcome === "timed_out" ? "not approved in time" : event.outcome}`;
    case "turn_finished":
      return `turn ${event.turn} ${event.cancelled === true ? "cancelled" : event.error === undefined ? "answered" : "failed"}`;
    default:
      return undefined;
  }
}

/**
 * Keeps the Web UI truthful while a session runs. Current details (free: a query serves them,
 * no history event) follow every event of a turn: step changes, model calls, tool calls.
 * Search attributes (each upsert is a history event) are upserted only when the status, the
 * active step, the last step or the turn number changes.
 */
export class SessionVisibility {
  private readonly session: Session;
  private lastAttributes = "";
  /** Each attribute's value as last upserted (JSON), to send only those that changed. */
  private readonly upserted = new Map<string, string>();
  private now: string | undefined;
  private approvalAttribute = false;

  constructor(session: Session) {
    this.session = session;
  }

  /** Between turns and at the session's start and end. */
  publish(): void {
    const view = this.session.view();
    this.upsertIfChanged(view);
    this.publishDetails(view);
  }

  /** Every event the session emits: within a turn, the details and attributes follow it. */
  onEvent(event: SessionEvent): void {
    const activity = activityOf(event);
    if (activity !== undefined) this.now = activity;
    if (activity === undefined && event.type !== "orchestration" && event.type !== "token_usage") {
      return;
    }
    const view = this.session.view();
    const inTurn = view.status === "running" || view.status === "awaiting_approval";
    if (inTurn && patched(MID_TURN_PATCH)) this.upsertIfChanged(view);
    this.publishDetails(view);
  }

  private upsertIfChanged(view: SessionView): void {
    const awaiting = view.awaitingApproval?.tool;
    const key = JSON.stringify([view.activeStep, view.status, view.turn, view.lastStep, awaiting]);
    if (key === this.lastAttributes) return;
    // Sessions that never waited for an approval keep the attribute unset (and their upserts
    // as they were recorded); once one did, it is set while waiting and cleared after.
    this.approvalAttribute ||= awaiting !== undefined;
    this.lastAttributes = key;
    const attributes: Attribute[] = [
      { key: activeStepKey, value: view.activeStep ?? "none" },
      { key: sessionStatusKey, value: view.status },
      { key: turnCountKey, value: view.turn },
      ...(view.lastStep === undefined ? [] : [{ key: lastStepKey, value: view.lastStep }]),
      ...(this.approvalAttribute ? [{ key: awaitingApprovalKey, value: awaiting ?? null }] : []),
    ];
    const changed = attributes.filter(
      ({ key, value }) => this.upserted.get(key.name) !== JSON.stringify(value),
    );
    for (const { key, value } of attributes) this.upserted.set(key.name, JSON.stringify(value));
    // `upserted` is workflow state rebuilt by replay (the same upserts in the same order), so the
    // patch decides only which attributes each recorded upsert carries.
    if (!patched(CHANGED_ATTRIBUTES_PATCH)) upsertSearchAttributes(attributes);
    else if (changed.length > 0) upsertSearchAttributes(changed);
  }

  private publishDetails(view: SessionView): void {
    const { session } = this;
    const orchestration = session.state.orchestration;
    setCurrentDetails(
      renderCurrentDetails({
        view,
        sequence: activeStepOf(session.template, orchestration)?.sequence,
        decisions: session.orchestrator.toolDecisions(orchestration),
        now:
          view.status === "running" || view.status === "awaiting_approval" ? this.now : undefined,
      }),
    );
  }
}
