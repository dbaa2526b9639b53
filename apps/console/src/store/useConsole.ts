import { useSyncExternalStore } from "react";
import type { ConsoleState } from "./state.ts";
import { store } from "./store.ts";

/**
 * Reads one slice of the console state and re-renders when it changes. The selector must
 * return something already in the state (or a primitive), never a fresh object.
 *
 * @example const theme = useConsole((s) => s.theme);
 */
export function useConsole<T>(selector: (state: ConsoleState) => T): T {
  return useSyncExternalStore(
    store.subscribe,
    () => selector(store.getState()),
    () => selector(store.getState()),
  );
}
