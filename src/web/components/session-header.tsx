import type { ConsoleConfig, SessionView } from "../api/api-types.ts";
import { UpgradeNotice } from "./upgrade-notice.tsx";

/** The Temporal Web UI's page of a session's workflow. */
export function temporalUiLink(
  config: ConsoleConfig | undefined,
  sessionId: string,
): string | undefined {
  if (config?.temporalUiUrl == null) return undefined;
  return `${config.temporalUiUrl}/namespaces/${encodeURIComponent(config.namespace)}/workflows/${encodeURIComponent(`session-${sessionId}`)}`;
}

/** Which session this is, where it stands, and its page in the Temporal Web UI. */
export function SessionHeader(props: {
  sessionId: string;
  agentName: string;
  state: SessionView | undefined;
  config: ConsoleConfig | undefined;
  /** The agent's template version as the server holds it now (an upgrade is offered if newer). */
  agentVersion?: string | undefined;
  onChange?: () => void;
}) {
  const { sessionId, agentName, state, config } = props;
  const link = temporalUiLink(config, sessionId);
  // The session counts the message of the running turn as pending until it is answered.
  const queued =
    state === undefined
      ? 0
      : state.pendingMessages -
        (state.status === "running" || state.status === "awaiting_approval" ? 1 : 0);
  return (
    <div className="session-header">
      <div>
        <h1>
          {agentName} <span className="session-id">session {sessionId}</span>
        </h1>
        {state !== undefined && (
          <div className="state-line" data-testid="session-state">
            <span className={`status status-${state.status}`}>{state.status}</span>
            <span>step {state.activeStep ?? "—"}</span>
            {state.sequenceLength > 0 && (
              <span>
                sequence {state.sequenceIndex}/{state.sequenceLength}
              </span>
            )}
            <span>turn {state.turn}</span>
            <span>{state.cumulativeTokenUsage.totalTokens} tokens</span>
            {queued > 0 && <span>{queued} queued</span>}
            {state.templateVersion !== undefined && (
              <span title="the template version this session runs">
                template {state.templateVersion}
              </span>
            )}
            {state.status !== "ended" && (
              <UpgradeNotice
                sessionId={sessionId}
                sessionVersion={state.templateVersion}
                agentVersion={props.agentVersion}
                onUpgraded={props.onChange ?? (() => undefined)}
              />
            )}
          </div>
        )}
      </div>
      {link !== undefined && (
        <a className="temporal-link" href={link} target="_blank" rel="noreferrer">
          Open in Temporal UI ↗
        </a>
      )}
    </div>
  );
}
