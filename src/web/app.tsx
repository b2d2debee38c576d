import { authStore, useAuth } from "./api/auth-store.ts";
import { NewSession } from "./components/new-session.tsx";
import { SessionList } from "./components/session-list.tsx";
import { SessionPage } from "./components/session-page.tsx";
import { TokenPrompt } from "./components/token-prompt.tsx";
import { navigate, useLocation } from "./hooks/use-location.ts";

/** The console: the sessions list at `/`, a session at `/sessions/:id`, the token prompt on 401. */
export function App() {
  const location = useLocation();
  const auth = useAuth();
  const sessionMatch = /^\/sessions\/([^/]+)$/.exec(location.pathname);
  const sessionId =
    sessionMatch?.[1] === undefined ? undefined : decodeURIComponent(sessionMatch[1]);
  return (
    <>
      <nav className="top">
        <a
          href="/"
          onClick={(event) => {
            event.preventDefault();
            navigate("/");
          }}
        >
          agentdock console
        </a>
        {auth.token !== null && (
          <button type="button" className="link" onClick={authStore.forget}>
            forget token
          </button>
        )}
      </nav>
      {sessionId === undefined ? (
        <main className="page home">
          <NewSession />
          <SessionList />
        </main>
      ) : (
        <SessionPage
          key={`${sessionId}-${String(auth.version)}`}
          sessionId={sessionId}
          agentParam={location.searchParams.get("agent")}
        />
      )}
      {auth.problem !== null && <TokenPrompt problem={auth.problem} />}
    </>
  );
}
