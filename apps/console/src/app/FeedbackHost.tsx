import { lazy, Suspense, useSyncExternalStore } from "react";
import { feedbackWanted } from "./feedback.ts";

const FeedbackLayer = lazy(() => import("./FeedbackLayer.tsx"));

/**
 * Where antd's message, notification and modal holders live, inside the console's ConfigProvider
 * (so they follow theme and language). Rendered empty until the first feedback call asks for them.
 */
export function FeedbackHost() {
  const wanted = useSyncExternalStore(feedbackWanted.subscribe, feedbackWanted.get);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <FeedbackLayer />
    </Suspense>
  );
}
