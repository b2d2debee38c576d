import type { z } from "zod";
import { ApiError } from "./api-error.ts";

/** 400 naming each bad field: `messages[0].parts: expected array, received undefined`. */
export function invalidBody(error: z.ZodError): ApiError {
  const issues = error.issues.map((issue) => {
    const path = issue.path
      .map((key, index) =>
        typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`,
      )
      .join("");
    return `${path === "" ? "(body)" : path}: ${issue.message}`;
  });
  return new ApiError(400, "invalid_body", issues.join("; "));
}
