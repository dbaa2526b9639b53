import { Button, Result } from "antd";
import { lazy, Suspense, useState } from "react";
import { useT } from "../i18n/index.tsx";
import { ChunkLoadError, loadChunk, type PageEntry } from "./chunk.ts";
import { ErrorBoundary } from "./ErrorBoundary.tsx";
import { PageLoading } from "./PageLoading.tsx";

function PageFailed({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const t = useT();
  const chunk = error instanceof ChunkLoadError;
  return (
    <div data-testid={chunk ? "page-chunk-error" : "page-crashed"}>
      <Result
        status={chunk ? "warning" : "error"}
        title={chunk ? t("page.loadFailed") : t("page.crashed")}
        subTitle={
          chunk
            ? t("page.loadFailedSub", { file: error.file })
            : t("page.crashedSub", { message: error.message })
        }
        extra={
          <Button type="primary" onClick={onRetry} data-testid="page-retry">
            {t("common.retry")}
          </Button>
        }
      />
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
