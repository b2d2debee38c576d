import { useState } from "react";
import { authorizedFetch } from "../api/api-fetch.ts";
import type { ApiErrorBody } from "../api/api-types.ts";
import { navigate } from "../hooks/use-location.ts";

/**
 * "fork from here" on a user message: asks the API for a new session that continues this one as
 * it was right after that message's turn (POST /api/sessions/:id/fork), then opens it. The
 * session shown is not changed; a refusal is shown beside the button in the API's words.
 */
export function ForkButton(props: { sessionId: string; agentId: string; turn: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const fork = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const response = await authorizedFetch(
        `/api/sessions/${encodeURIComponent(props.sessionId)}/fork`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ at: props.turn }),
        },
      );
      const body = (await response.json()) as { sessionId?: string } & ApiErrorBody;
      if (!response.ok || body.sessionId === undefined) {
        setError(body.error?.message ?? `${response.status} ${response.statusText}`);
        return;
      }
      navigate(
        `/sessions/${encodeURIComponent(body.sessionId)}?agent=${encodeURIComponent(props.agentId)}`,
      );
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="fork-action">
      <button
        type="button"
        className="link"
        disabled={busy}
        title={`Start a new session that continues this one as it was after message ${props.turn}`}
        onClick={() => void fork()}
      >
        fork from here
      </button>
      {error !== undefined && (
        <span className="fork-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
