import { ServiceError, WorkflowNotFoundError } from "@temporalio/client";
import { isEndedSessionError, SessionRequestError } from "../client/index.ts";

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

/** Maps what a session request can throw to the answer the API gives. */
export function toApiError(error: unknown, sessionId?: string): ApiError {
  if (error instanceof ApiError) return error;
  const name = sessionId === undefined ? "the session" : `session "${sessionId}"`;
  if (error instanceof WorkflowNotFoundError) {
    return isEndedSessionError(error)
      ? new ApiError(409, "session_ended", `${name} has ended`, { cause: error })
      : new ApiError(404, "unknown_session", `no ${name}`, { cause: error });
  }
  if (error instanceof SessionRequestError) {
    const ended = /session has ended/i.test(error.message);
    return new ApiError(ended ? 409 : 400, ended ? "session_ended" : "rejected", error.message, {
      cause: error,
    });
  }
  if (error instanceof ServiceError) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    if (typeof code === "number" && unavailableCodes.has(code)) {
      return new ApiError(
        503,
        "temporal_unavailable",
        `Temporal is unreachable: ${error.message}`,
        {
          cause: error,
        },
      );
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(500, "internal", message, { cause: error });
}
