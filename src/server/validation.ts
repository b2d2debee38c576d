import type { z } from "zod";
import { formatIssues } from "../session/index.ts";
import { ApiError } from "./api-error.ts";

/** 400 naming each bad field: `messages[0].parts: expected array, received undefined`. */
export function invalidBody(error: z.ZodError): ApiError {
  return new ApiError(400, "invalid_body", formatIssues(error));
}
