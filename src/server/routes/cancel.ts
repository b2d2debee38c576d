import type { Context } from "hono";
import { cancelTurnRequestSchema, type CancelTurnRequest } from "../../session/index.ts";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { toApiError } from "../api-error.ts";
import { readJsonBody } from "../json-body.ts";
import { invalidBody } from "../validation.ts";
import { sessionIdParam } from "./sessions.ts";

/** The optional body: which turn to stop. No body stops whichever turn runs now. */
async function cancelRequest(c: Context<ApiEnv>): Promise<CancelTurnRequest> {
  const length = c.req.header("content-length");
  const chunked = c.req.header("transfer-encoding") !== undefined;
  if ((length === undefined || length === "0") && !chunked) return {};
  const parsed = cancelTurnRequestSchema.safeParse(await readJsonBody(c));
  if (!parsed.success) throw invalidBody(parsed.error);
  return parsed.data;
}

/**
 * `POST /api/sessions/:id/cancel` with an optional body `{messageId?, turn?, reason?}`: stops the
 * running turn (or the one named) and answers once it is recorded as cancelled, with what it
 * had produced. Idempotent: 200 with `cancelled: true` again for a turn already cancelled, and
 * 200 with `cancelled: false` and the reason when nothing matched (no turn running, the turn
 * already answered). A session that has ended answers 409.
 */
export async function cancelTurnRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const request = await cancelRequest(c);
  const sessionId = await sessionIdParam(api, c);
  try {
    return c.json(await api.sessions.cancelTurn(sessionId, request));
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}
