import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { ApiError } from "./api-error.ts";

const digest = (value: string): Buffer => createHash("sha256").update(value).digest();

/**
 * Bearer-token auth: with a token configured every API route needs
 * `Authorization: Bearer <token>` (compared in constant time); without one the API is open.
 */
export function checkBearer(request: IncomingMessage, token: string | undefined): void {
  if (token === undefined) return;
  const header = request.headers.authorization ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  const challenge = { "www-authenticate": 'Bearer realm="agentdock-temporal"' };
  if (match?.[1] === undefined) {
    throw new ApiError(
      401,
      "unauthorized",
      "send the API token as 'Authorization: Bearer <token>'",
      {
        headers: challenge,
      },
    );
  }
  if (!timingSafeEqual(digest(match[1].trim()), digest(token))) {
    throw new ApiError(401, "unauthorized", "the bearer token is not valid", {
      headers: { "www-authenticate": 'Bearer realm="agentdock-temporal", error="invalid_token"' },
    });
  }
}
