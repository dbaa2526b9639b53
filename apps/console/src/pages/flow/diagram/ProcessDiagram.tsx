import { Spin } from "antd";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { describeError, reportNetworkError } from "../../../app/api.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useT } from "../../../i18n/index.tsx";
import { type InstanceDiagram, loadInstanceDiagram } from "../flow-calls.ts";
import "./diagram.css";

// bpmn-js and its styles travel in this chunk only, fetched when a diagram is first shown.
const DiagramCanvas = lazy(() => import("./DiagramCanvas.tsx"));

/**
 * The diagram of a process instance: its definition with the nodes already passed and the nodes
 * waiting now marked (diagram-view). `tenantId` lets the platform administrator name the
 * instance's tenant; anyone else always reads the own tenant's.
 */
export function ProcessDiagram({
  processInstanceId,
  tenantId,
  height,
}: {
  processInstanceId: string;
  tenantId?: string;
  height?: number;
}) {
  const t = useT();
  const [diagram, setDiagram] = useState<InstanceDiagram | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the retry trigger
  useEffect(() => {
    let live = true;
    setDiagram(null);
    setError(null);
    loadInstanceDiagram(processInstanceId, tenantId)
      .then((answer) => {
        if (live) setDiagram(answer);
      })
      .catch((failure: unknown) => {
        reportNetworkError(failure);
        if (live) setError(describeError(failure));
      });
    return () => {
      live = false;
    };
  }, [processInstanceId, tenantId, attempt]);

  if (error) return <LoadFailed error={error} onRetry={retry} testId="process-diagram-error" />;
  if (!diagram) return <Spin data-testid="process-diagram-loading" />;
  return (
    <div>
      <div className="ml-flow-legend">
        <span className="ml-flow-legend-item ml-flow-legend-done">{t("flow.diagram.done")}</span>
        <span className="ml-flow-legend-item ml-flow-legend-current">{t("flow.diagram.current")}</span>
        {diagram.finished ? <span>{t("flow.diagram.finished")}</span> : null}
      </div>
      <Suspense fallback={<Spin />}>
        <DiagramCanvas
          xml={diagram.bpmnXml}
          done={diagram.doneActivityIds}
          current={diagram.currentActivityIds}
          {...(height ? { height } : {})}
        />
      </Suspense>
    </div>
  );
}
