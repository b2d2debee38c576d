import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "./api-error.ts";

/** Request bodies larger than this are refused (413) before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** `{"error": {"code", "message"}}` with the error's status. */
export function sendError(response: ServerResponse, error: ApiError): void {
  if (response.headersSent) {
    response.destroy(error);
    return;
  }
  sendJson(
    response,
    error.status,
    { error: { code: error.code, message: error.message } },
    error.headers,
  );
}

/** The JSON body of a request: 415 unless JSON, 413 past MAX_BODY_BYTES, 400 if malformed. */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const type = request.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      `send the body as JSON with "content-type: application/json" (got ${type === "" ? "none" : `"${type}"`})`,
    );
  }
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > MAX_BODY_BYTES) throw bodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw bodyTooLarge();
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
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

function bodyTooLarge(): ApiError {
  return new ApiError(413, "body_too_large", `the body is larger than ${MAX_BODY_BYTES} bytes`);
}
