import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "./api-error.ts";

/** Request bodies larger than this are refused (413) before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Hono's body limit (declared length and streamed bytes both), answered with our error body. */
export const jsonBodyLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError(413, "body_too_large", `the body is larger than ${MAX_BODY_BYTES} bytes`);
  },
});

/** The JSON body of a request: 415 unless JSON, 400 if malformed (size: `jsonBodyLimit`). */
export async function readJsonBody(c: Context): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      `send the body as JSON with "content-type: application/json" (got ${type === "" ? "none" : `"${type}"`})`,
    );
  }
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError(
      400,
      "malformed_json",
      `the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
