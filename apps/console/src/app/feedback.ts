import type { MessageInstance } from "antd/es/message/interface";
import type { HookAPI as ModalInstance } from "antd/es/modal/useModal";
import type { NotificationInstance } from "antd/es/notification/interface";

/** antd's three feedback APIs as the themed layer publishes them once loaded. */
export interface FeedbackApis {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: ModalInstance;
}

type Kind = keyof FeedbackApis;

/** Every method of one API, its result dropped: a call may run later, when the layer has loaded. */
type Deferred<T> = {
  [K in keyof T]-?: T[K] extends (...args: infer A) => unknown ? (...args: A) => void : never;
};

/**
 * message / notification / modal for the whole console (components and code outside them: the API
 * client's error callback, session actions). antd's implementations, their styles and their
 * dialogs are not part of the first load: the first call loads them (see FeedbackHost) and is
 * shown as soon as they are there; calls made meanwhile are shown in order.
 */
export interface Feedback {
  message: Deferred<MessageInstance>;
  notification: Deferred<NotificationInstance>;
  modal: Deferred<Omit<ModalInstance, "warn">>;
}

interface Call {
  kind: Kind;
  method: string;
  args: unknown[];
}

let loaded: FeedbackApis | null = null;
let wanted = false;
let queue: Call[] = [];
const listeners = new Set<() => void>();

function run({ kind, method, args }: Call, apis: FeedbackApis): void {
  (apis[kind] as unknown as Record<string, (...values: unknown[]) => unknown>)[method]?.(...args);
}

function call(kind: Kind, method: string, args: unknown[]): void {
  if (loaded) {
    run({ kind, method, args }, loaded);
    return;
  }
  if (method === "destroy") {
    // Closing what was never shown: drop it from the queue rather than load the layer for it.
    const [key] = args;
    queue = queue.filter(
      (queued) =>
        queued.kind !== kind ||
        (key !== undefined && (queued.args[0] as { key?: unknown } | undefined)?.key !== key),
    );
    return;
  }
  queue.push({ kind, method, args });
  requestFeedbackLayer();
}

function deferred<K extends Kind>(kind: K): Feedback[K] {
  return new Proxy({} as Feedback[K], {
    get: (_target, method) =>
      typeof method === "string" ? (...args: unknown[]) => call(kind, method, args) : undefined,
  });
}

const facade: Feedback = {
  message: deferred("message"),
  notification: deferred("notification"),
  modal: deferred("modal"),
};

/** The console's feedback APIs (always available: calls before the layer loads wait for it). */
export function feedback(): Feedback {
  return facade;
}

/** The same inside components (what antd's `App.useApp()` used to give). */
export function useFeedback(): Feedback {
  return facade;
}

/** Asks FeedbackHost to load the layer (first call, or ahead of need where a page will use it). */
export function requestFeedbackLayer(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/** For FeedbackHost: whether the layer has been asked for, and a subscription to that. */
export const feedbackWanted = {
  get: (): boolean => wanted,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Called by the loaded layer with antd's themed APIs (null when it unmounts); flushes the queue. */
export function publishFeedback(apis: FeedbackApis | null): void {
  loaded = apis;
  if (!apis) return;
  const pending = queue;
  queue = [];
  for (const queued of pending) run(queued, apis);
}
