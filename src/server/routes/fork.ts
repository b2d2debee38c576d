import type { Context } from "hono";
import { z } from "zod";
import { forkSession, SessionForkError } from "../../client/index.ts";
import { sessionIdSchema } from "../../session/index.ts";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { readJsonBody } from "../json-body.ts";
import { invalidBody } from "../validation.ts";
import { sessionIdParam } from "./sessions.ts";

const forkBodySchema = z.strictObject({
  at: z.int("a message number (1 = the first message)").min(1, "messages are numbered from 1"),
  as: sessionIdSchema.optional(),
});

const statusOf: Record<SessionForkError["code"], number> = {
  not_found: 404,
  out_of_range: 400,
  id_taken: 409,
  summarized: 422,
  unreadable: 422,
};

/**
 * `POST /api/sessions/:id/fork {at, as?}`: a new session of the caller's tenant that continues
 * the session as it was right after message `at` (src/client/session-fork.ts). 201 with
 * `{sessionId, parentSession, forkedAt, text, templateVersion, state}`.
 */
export async function forkSessionRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const parsed = forkBodySchema.safeParse(await readJsonBody(c));
  if (!parsed.success) throw invalidBody(parsed.error);
  const parent = await sessionIdParam(api, c);
  try {
    const outcome = await forkSession(api.sessions, {
      parent,
      at: parsed.data.at,
      ...(parsed.data.as === undefined ? {} : { as: parsed.data.as }),
    });
    return c.json(outcome, 201);
  } catch (error) {
    if (error instanceof SessionForkError) {
      throw new ApiError(statusOf[error.code], `fork_${error.code}`, error.message, {
        cause: error,
      });
    }
    throw toApiError(error, parent);
  }
}
