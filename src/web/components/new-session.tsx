import { useState } from "react";
import type { AgentSummary } from "../api/api-types.ts";
import { newSessionId } from "../format.ts";
import { useApi } from "../hooks/use-api.ts";
import { navigate } from "../hooks/use-location.ts";

/** Pick an agent and open a new session with it (created by its first message). */
export function NewSession() {
  const agents = useApi<{ agents: AgentSummary[] }>("/api/agents");
  const valid = agents.data?.agents.filter((agent) => agent.valid) ?? [];
  const [choice, setChoice] = useState<string>();
  const selected =
    choice ?? valid.find((agent) => agent.id === "cognitive-reasoner")?.id ?? valid[0]?.id;
  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (selected === undefined) return;
    navigate(`/sessions/${newSessionId()}?agent=${encodeURIComponent(selected)}`);
  };
  const invalid = agents.data?.agents.filter((agent) => !agent.valid) ?? [];
  return (
    <section className="new-session" aria-label="new session">
      <h2>New session</h2>
      {agents.error !== undefined && (
        <p className="chat-error" role="alert">
          Could not list agents: {agents.error.message}
        </p>
      )}
      <form onSubmit={submit}>
        <select
          aria-label="agent"
          value={selected ?? ""}
          onChange={(event) => {
            setChoice(event.target.value);
          }}
        >
          {valid.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name ?? agent.id} ({agent.id})
            </option>
          ))}
        </select>
        <button type="submit" disabled={selected === undefined}>
          Start chatting
        </button>
      </form>
      {selected !== undefined && (
        <p className="agent-description">
          {valid.find((agent) => agent.id === selected)?.description}
        </p>
      )}
      {invalid.map((agent) => (
        <p key={agent.id} className="chat-error">
          {agent.id} does not load: {agent.error}
        </p>
      ))}
    </section>
  );
}
