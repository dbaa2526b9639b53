import { CloseCircleFilled, WarningFilled } from "@ant-design/icons";
import { lazy, Suspense, useEffect, useState } from "react";
import { dropBootLogin } from "../app/boot-login.ts";
import { useT } from "../i18n/index.tsx";
import { ChunkLoadError, loadChunk, type PageEntry } from "./chunk.ts";
import { ErrorBoundary } from "./ErrorBoundary.tsx";
import { PageLoading } from "./PageLoading.tsx";

function PageFailed({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const t = useT();
  const chunk = error instanceof ChunkLoadError;
  // A login page that failed to load must not leave the form index.html showed in its place.
  useEffect(dropBootLogin, []);
  // Laid out like antd's Result, without it: Result carries its 403/404/500 illustrations, which
  // would otherwise travel with every page's first load (the login page's included).
  return (
    <div data-testid={chunk ? "page-chunk-error" : "page-crashed"} className="ml-page-failed" role="alert">
      {chunk ? (
        <WarningFilled className="ml-page-failed-icon is-warning" />
      ) : (
        <CloseCircleFilled className="ml-page-failed-icon is-error" />
      )}
      <div className="ml-page-failed-title">{chunk ? t("page.loadFailed") : t("page.crashed")}</div>
      <div className="ml-page-failed-sub">
        {chunk
          ? t("page.loadFailedSub", { file: error.file })
          : t("page.crashedSub", { message: error.message })}
      </div>
      {/* A plain button styled as antd's primary one: this module is in every first load. */}
      <button type="button" className="ml-plain-primary" onClick={onRetry} data-testid="page-retry">
        {t("common.retry")}
      </button>
    </div>
  );
}

const lazyOf = (entry: PageEntry) => lazy(() => loadChunk(entry));

/**
 * Renders a lazily loaded page; give it `key={path}` so another page gets another instance.
 * A failed import shows an error state with retry; retrying builds a new lazy component
 * because React.lazy remembers a rejection forever.
 */
export function LazyPage({ entry }: { entry: PageEntry }) {
  const [Page, setPage] = useState(() => lazyOf(entry));
  const [attempt, setAttempt] = useState(0);
  const retry = () => {
    setPage(() => lazyOf(entry));
    setAttempt((count) => count + 1);
  };
  return (
    <ErrorBoundary key={attempt} fallback={(error) => <PageFailed error={error} onRetry={retry} />}>
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    </ErrorBoundary>
  );
}
