import { z } from "zod";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

/** Session ids as every entry point accepts them (they become part of a workflow id). */
export const sessionIdSchema = sharedAcrossSessions("src/session/ids:sessionIdSchema", () =>
  z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,200}$/, "a session id uses letters, digits, '.', '_' and '-'"),
);

/** Agent ids: the folder names of agents/<id>/template.json. */
export const agentIdSchema = sharedAcrossSessions("src/session/ids:agentIdSchema", () =>
  z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "an agent id uses lower-case letters, digits and '-'"),
);

export const MAX_MESSAGE_ID_CHARS = 128;
const messageIdPattern = new RegExp(`^[A-Za-z0-9._:-]{1,${MAX_MESSAGE_ID_CHARS}}$`);

/**
 * The one message-id grammar: 1 to 128 of letters, digits, '.', '_', ':' and '-' (UUIDs, the
 * AI SDK's generated ids, `msg-1`). Checked as is, never trimmed or rewritten, so the id a
 * session queues is exactly the id its caller awaits. The HTTP API, the CLI and the workflow's
 * update validator and signal handler all use this schema.
 */
export const messageIdSchema = sharedAcrossSessions("src/session/ids:messageIdSchema", () =>
  z
    .string({ error: "a message id is a string" })
    .regex(
      messageIdPattern,
      `a message id is 1 to ${MAX_MESSAGE_ID_CHARS} letters, digits, '.', '_', ':' or '-' (no spaces)`,
    ),
);
