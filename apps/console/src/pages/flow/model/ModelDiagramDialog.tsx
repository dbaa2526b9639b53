import { Modal, Spin } from "antd";
import { lazy, Suspense, useEffect, useState } from "react";
import { describeError, reportNetworkError } from "../../../app/api.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useT } from "../../../i18n/index.tsx";
import { loadModel } from "../flow-calls.ts";

const DiagramCanvas = lazy(() => import("../diagram/DiagramCanvas.tsx"));

/** A model's XML, the default source of the dialog. */
const modelXml = (id: string) => loadModel(id).then((detail) => detail.bpmnXml);

/**
 * 流程图 of a model or a deployed definition: drawn as designed, nothing marked (no instance is
 * meant). `loadXml` reads the XML of the id given (a model's by default).
 */
export function ModelDiagramDialog({
  model,
  onClose,
  loadXml = modelXml,
}: {
  model: { id: string; name: string } | null;
  onClose: () => void;
  loadXml?: (id: string) => Promise<string>;
}) {
  const t = useT();
  const [xml, setXml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const id = model?.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the retry trigger
  useEffect(() => {
    setXml(null);
    setError(null);
    if (!id) return;
    let live = true;
    loadXml(id)
      .then((answer) => {
        if (live) setXml(answer);
      })
      .catch((failure: unknown) => {
        reportNetworkError(failure);
        if (live) setError(describeError(failure));
      });
    return () => {
      live = false;
    };
  }, [id, attempt, loadXml]);

  return (
    <Modal
      open={model !== null}
      title={`${t("flow.model.diagram")} · ${model?.name ?? ""}`}
      footer={null}
      onCancel={onClose}
      width={960}
      destroyOnHidden
    >
      {error ? (
        <LoadFailed
          error={error}
          onRetry={() => setAttempt((n) => n + 1)}
          testId="flow-model-diagram-error"
        />
      ) : xml ? (
        <Suspense fallback={<Spin />}>
          <DiagramCanvas xml={xml} />
        </Suspense>
      ) : (
        <Spin />
      )}
    </Modal>
  );
}
