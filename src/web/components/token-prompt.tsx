import { useState } from "react";
import { authStore } from "../api/auth-store.ts";

/** Asks for the API token when the API refused one (or none), saying why. */
export function TokenPrompt({ problem }: { problem: string }) {
  const [token, setToken] = useState("");
  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (token.trim() !== "") authStore.save(token.trim());
  };
  return (
    <div className="overlay" role="dialog" aria-label="API token">
      <form className="token-prompt" onSubmit={submit}>
        <h2>API token</h2>
        <p>
          This API requires a token: <span className="reason">{problem}</span>
        </p>
        <p className="hint">
          Use the value of AGENTDOCK_API_TOKEN (or a tenant token from AGENTDOCK_API_TOKENS) that
          the server was started with. It is kept in this browser&apos;s local storage.
        </p>
        <input
          type="password"
          aria-label="token"
          autoFocus
          value={token}
          onChange={(event) => {
            setToken(event.target.value);
          }}
        />
        <button type="submit" disabled={token.trim() === ""}>
          Use token
        </button>
      </form>
    </div>
  );
}
