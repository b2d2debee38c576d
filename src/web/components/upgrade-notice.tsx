import { useState } from "react";
import { authorizedFetch } from "../api/api-fetch.ts";
import type { ApiErrorBody } from "../api/api-types.ts";

interface UpgradeOutcome {
  to: string;
  notes: string[];
}

/**
 * Shown when the agent's template has changed since the session pinned its version: the new
 * version, and an action that moves the session to it at its next turn boundary
 * (POST /api/sessions/:id/upgrade). What could not be carried over is shown after it.
 */
export function UpgradeNotice(props: {
  sessionId: string;
  sessionVersion: string | undefined;
  agentVersion: string | undefined;
  onUpgraded: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const { sessionVersion, agentVersion } = props;
  if (agentVersion === undefined || agentVersion === sessionVersion) {
    return message === undefined ? null : <span className="upgrade-notice">{message}</span>;
  }
  const upgrade = async (): Promise<void> => {
    setBusy(true);
    try {
      const response = await authorizedFetch(
        `/api/sessions/${encodeURIComponent(props.sessionId)}/upgrade`,
        { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
      );
      const body = (await response.json()) as Partial<UpgradeOutcome> & ApiErrorBody;
      setMessage(
        response.ok
          ? [`upgraded to ${body.to ?? agentVersion}`, ...(body.notes ?? [])].join("; ")
          : (body.error?.message ?? `${response.status} ${response.statusText}`),
      );
      props.onUpgraded();
    } catch (caught) {
      setMessage(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="upgrade-notice">
      agent's template is now {agentVersion}{" "}
      <button type="button" className="link" disabled={busy} onClick={() => void upgrade()}>
        upgrade
      </button>
      {message !== undefined && <span role="alert"> {message}</span>}
    </span>
  );
}
