import { removeItem, type StorageKey, saveItem, storageKeys } from "./persist.ts";
import { type ConsoleState, initialState } from "./state.ts";

type Listener = () => void;
type Patch = Partial<ConsoleState> | ((state: ConsoleState) => Partial<ConsoleState>);

/** A minimal external store: React reads it through useSyncExternalStore (see useConsole). */
export function createStore(initial: ConsoleState) {
  let state = initial;
  const listeners = new Set<Listener>();
  return {
    getState: (): ConsoleState => state,
    setState(patch: Patch): void {
      const changes = typeof patch === "function" ? patch(state) : patch;
      const previous = state;
      state = { ...state, ...changes };
      persistChanges(previous, state);
      for (const listener of listeners) listener();
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Store = ReturnType<typeof createStore>;

/** Which state fields are persisted, and under which name. The token keeps its own datetime. */
const persisted = {
  refreshToken: storageKeys.refreshToken,
  tenantId: storageKeys.tenantId,
  userInfo: storageKeys.userInfo,
  tabs: storageKeys.tabs,
  isLock: storageKeys.lock,
  lockPassword: storageKeys.lockPassword,
  theme: storageKeys.theme,
  color: storageKeys.color,
  language: storageKeys.language,
  collapsed: storageKeys.collapse,
  logs: storageKeys.logs,
} as const satisfies Partial<Record<keyof ConsoleState, StorageKey>>;

function persistChanges(previous: ConsoleState, next: ConsoleState): void {
  if (previous.token !== next.token) {
    if (next.token) saveItem(storageKeys.token, next.token.content, next.token.datetime);
    else removeItem(storageKeys.token);
  }
  for (const [field, key] of Object.entries(persisted) as [keyof typeof persisted, StorageKey][]) {
    if (previous[field] === next[field]) continue;
    const value = next[field];
    if (value === null || value === "") removeItem(key);
    else saveItem(key, value);
  }
}

/** The console's single store instance. */
export const store = createStore(initialState());
