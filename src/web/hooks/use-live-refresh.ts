import { useEffect, useRef } from "react";
import { useAuth } from "../api/auth-store.ts";
import { followSessionEvents } from "../api/session-events.ts";

/**
 * Calls `onChange` (at most every `debounceMs`) whenever the session's live stream carries a
 * session event: a step entered, a tool started or finished, a model call, a turn's end.
 */
export function useLiveRefresh(sessionId: string, onChange: () => void, debounceMs = 250): void {
  const { version } = useAuth();
  const callback = useRef(onChange);
  callback.current = onChange;

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    void followSessionEvents(
      sessionId,
      (item) => {
        const type = (item.data as { type?: unknown } | null)?.type;
        if (type !== "session" && type !== "end") return;
        if (timer !== undefined) return;
        timer = setTimeout(() => {
          timer = undefined;
          callback.current();
        }, debounceMs);
      },
      abort.signal,
    );
    return () => {
      abort.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [sessionId, debounceMs, version]);
}
