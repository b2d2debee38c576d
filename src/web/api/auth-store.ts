import { useSyncExternalStore } from "react";

const STORAGE_KEY = "agentdock-console.api-token";

/** Whether the console needs a token from the person, and why (the API's 401 message). */
export interface AuthState {
  token: string | null;
  /** Set when the API refused the request: the token prompt shows it. */
  problem: string | null;
  /** Bumped when a new token is saved, so views load again with it. */
  version: number;
}

function storedToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let state: AuthState = { token: storedToken(), problem: null, version: 0 };
const listeners = new Set<() => void>();

function update(next: AuthState): void {
  state = next;
  for (const listener of listeners) listener();
}

/**
 * The API token, kept in localStorage so a reload keeps it. Every request the console makes
 * (fetches, the chat transport, the live events) reads it here; any 401 asks for it again.
 */
export const authStore = {
  get: (): AuthState => state,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  headers: (): Record<string, string> =>
    state.token === null ? {} : { authorization: `Bearer ${state.token}` },
  /** The API answered 401: show the prompt with its reason. */
  refused: (reason: string): void => {
    if (state.problem !== reason) update({ ...state, problem: reason });
  },
  save: (token: string): void => {
    try {
      localStorage.setItem(STORAGE_KEY, token);
    } catch {
      // Private windows may refuse storage: the token then lasts until the page closes.
    }
    update({ token, problem: null, version: state.version + 1 });
  },
  forget: (): void => {
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Nothing stored.
    }
    // Views load again without it: an API that needs one answers 401 and the prompt says so.
    update({ token: null, problem: null, version: state.version + 1 });
  },
};

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.get);
}
