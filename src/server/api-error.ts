import { ServiceError, WorkflowNotFoundError } from "@temporalio/client";
import {
  isEndedSessionError,
  SessionRequestError,
  WORKFLOW_TASK_FAILING,
  workflowTaskFailing,
} from "../client/index.ts";
import { APPROVAL_DECIDED_ERROR, APPROVAL_UNKNOWN_ERROR } from "../session/index.ts";
import { temporalOverload } from "../temporal-overload.ts";

/** An error the API answers with: an HTTP status, a stable code for programs, a message for people. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
  }
}

/** gRPC status codes the Temporal client reports when the server cannot be reached. */
const unavailableCodes = new Set([4, 14]); // DEADLINE_EXCEEDED, UNAVAILABLE

/** gRPC's CANCELLED: the API itself cancelled the call (it is shutting down). */
const CANCELLED = 1;

/** Maps what a session request can throw to the answer the API gives. */
export function toApiError(error: unknown, sessionId?: string): ApiError {
  if (error instanceof ApiError) return error;
  const name = sessionId === undefined ? "the session" : `session "${sessionId}"`;
  if (error instanceof WorkflowNotFoundError) {
    return isEndedSessionError(error)
      ? new ApiError(409, "session_ended", `${name} has ended`, { cause: error })
      : new ApiError(404, "unknown_session", `no ${name}`, { cause: error });
  }
  if (error instanceof SessionRequestError && error.type === "SessionBusy") {
    // The agent refuses messages during a turn (session.arrivalPolicy "reject").
    return new ApiError(409, "turn_in_progress", `${name}: ${error.message}`, { cause: error });
  }
  if (error instanceof SessionRequestError && error.type === APPROVAL_DECIDED_ERROR) {
    return new ApiError(409, "approval_decided", error.message, { cause: error });
  }
  if (error instanceof SessionRequestError && error.type === APPROVAL_UNKNOWN_ERROR) {
    return new ApiError(404, "unknown_approval", error.message, { cause: error });
  }
  // The session's workflow task keeps failing: nothing reached it, the client may send again.
  if (
    (error instanceof SessionRequestError && error.type === WORKFLOW_TASK_FAILING) ||
    workflowTaskFailing(error)
  ) {
    const message =
      error instanceof SessionRequestError
        ? error.message
        : `${name} cannot answer now: its workflow task is failing; retry in a few seconds`;
    return new ApiError(503, "session_not_ready", message, {
      cause: error,
      headers: { "retry-after": "10" },
    });
  }
  if (error instanceof SessionRequestError) {
    const ended = /session has ended/i.test(error.message);
    return new ApiError(ended ? 409 : 400, ended ? "session_ended" : "rejected", error.message, {
      cause: error,
    });
  }
  // Temporal had no room for the request: the client should come back, not report a bug.
  const overload = temporalOverload(error);
  if (overload !== undefined) {
    const headers = { "retry-after": String(overload.retryAfterSeconds) };
    return overload.scope === "session"
      ? new ApiError(
          429,
          "session_busy",
          `${name} has too many messages in flight (${overload.message}); retry after ${overload.retryAfterSeconds} s`,
          { cause: error, headers },
        )
      : new ApiError(
          503,
          "temporal_overloaded",
          `Temporal is overloaded (${overload.message}); retry after ${overload.retryAfterSeconds} s`,
          { cause: error, headers },
        );
  }
  // A ServiceError carries the gRPC status as its cause; update-with-start throws the raw one.
  const code =
    error instanceof ServiceError
      ? (error.cause as { code?: unknown } | undefined)?.code
      : (error as { code?: unknown } | null)?.code;
  if (code === CANCELLED) {
    return new ApiError(
      503,
      "request_cancelled",
      "the API stopped before Temporal answered (it is shutting down); send the request again",
      { cause: error, headers: { "retry-after": "5" } },
    );
  }
  if (typeof code === "number" && unavailableCodes.has(code)) {
    const message = error instanceof Error ? error.message : String(error);
    return new ApiError(503, "temporal_unavailable", `Temporal is unreachable: ${message}`, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(500, "internal", message, { cause: error });
}
