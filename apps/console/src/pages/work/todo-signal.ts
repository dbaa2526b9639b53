/**
 * Tells the top bar's todo badge that the user's tasks changed (claimed, completed, started), so
 * it counts again without waiting for the window to regain focus.
 */
const EVENT = "meterline:todo-changed";

export const announceTodoChange = () => window.dispatchEvent(new Event(EVENT));

export function onTodoChange(listener: () => void): () => void {
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}
