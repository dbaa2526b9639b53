import type { ResultProps } from "antd";
import { lazy, Suspense } from "react";

const AntdResult = lazy(() => import("antd/es/result").then((m) => ({ default: m.default })));

/**
 * antd's Result, loaded when a failure or an unavailable page is first shown: with its 403/404/500
 * illustrations it would otherwise travel with every page that might show one (the home page's
 * load included).
 */
export function Result(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <AntdResult {...props} />
    </Suspense>
  );
}
