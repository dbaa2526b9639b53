import { App } from "antd";
import { useLayoutEffect } from "react";

type Feedback = ReturnType<typeof App.useApp>;

let current: Feedback | null = null;

/**
 * antd's message/notification/modal bound to the themed App context, for code outside
 * components (the API client's error callback, session actions).
 */
export function feedback(): Feedback | null {
  return current;
}

/** Mounted once inside antd <App>; publishes its context-aware feedback API. */
export function FeedbackBridge(): null {
  const app = App.useApp();
  useLayoutEffect(() => {
    current = app;
  }, [app]);
  return null;
}
