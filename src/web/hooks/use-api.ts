import { useCallback, useEffect, useRef, useState } from "react";
import { getJson } from "../api/api-fetch.ts";
import { useAuth } from "../api/auth-store.ts";

export interface ApiResource<T> {
  data: T | undefined;
  /** The last load's error; `data` keeps the last good answer. */
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * A GET of the API, loaded again on `reload`, every `refreshMs` when given, and when a new token
 * is saved. `path` null: nothing to load yet.
 */
export function useApi<T>(path: string | null, refreshMs?: number): ApiResource<T> {
  const { version } = useAuth();
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(path !== null);
  const [tick, setTick] = useState(0);
  const running = useRef(false);
  const reload = useCallback(() => {
    setTick((value) => value + 1);
  }, []);

  useEffect(() => {
    if (path === null) return;
    const abort = new AbortController();
    running.current = true;
    setLoading(true);
    getJson<T>(path, abort.signal)
      .then((value) => {
        setData(value);
        setError(undefined);
      })
      .catch((cause: unknown) => {
        if (abort.signal.aborted) return;
        setError(cause instanceof Error ? cause : new Error(String(cause)));
      })
      .finally(() => {
        running.current = false;
        if (!abort.signal.aborted) setLoading(false);
      });
    return () => {
      abort.abort();
    };
  }, [path, tick, version]);

  useEffect(() => {
    if (refreshMs === undefined || path === null) return;
    const timer = setInterval(() => {
      if (!running.current && document.visibilityState === "visible") reload();
    }, refreshMs);
    return () => {
      clearInterval(timer);
    };
  }, [refreshMs, path, reload]);

  return { data, error, loading, reload };
}
