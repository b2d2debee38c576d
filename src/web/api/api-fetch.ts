import type { ApiErrorBody, CancelTurnAnswer } from "./api-types.ts";
import { authStore } from "./auth-store.ts";

/** An API error with its status and code, in the API's own words. */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function errorOf(response: Response): Promise<ApiRequestError> {
  let body: ApiErrorBody | undefined;
  try {
    body = (await response.json()) as ApiErrorBody;
  } catch {
    body = undefined;
  }
  return new ApiRequestError(
    response.status,
    body?.error?.code ?? "http_error",
    body?.error?.message ?? `${response.status} ${response.statusText}`,
  );
}

/**
 * `fetch` with the API token, for everything the console sends (the chat transport included):
 * a 401 asks the person for a token, with the API's reason.
 */
export async function authorizedFetch(
  input: RequestInfo | URL,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(authStore.headers())) headers.set(name, value);
  const response = await fetch(input, { ...init, headers });
  if (response.status === 401) {
    const error = await errorOf(response.clone());
    authStore.refused(error.message);
  }
  return response;
}

/** A JSON GET of the API; a non-2xx answer throws `ApiRequestError`. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await authorizedFetch(path, signal === undefined ? {} : { signal });
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as T;
}

/**
 * Stops the session's running turn (`POST /api/sessions/:id/cancel`); resolves once the turn is
 * recorded as cancelled, or says why nothing was (no turn running). Non-2xx throws.
 */
export async function cancelTurn(sessionId: string): Promise<CancelTurnAnswer> {
  const response = await authorizedFetch(`/api/sessions/${encodeURIComponent(sessionId)}/cancel`, {
    method: "POST",
  });
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as CancelTurnAnswer;
}
