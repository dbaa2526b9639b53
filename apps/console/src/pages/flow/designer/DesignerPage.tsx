import { Button, Card, Input, Space, Spin, Tag, Typography } from "antd";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { describeError, reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { designerPath, loadModel, saveModel } from "../flow-calls.ts";
import { DeployDialog } from "../model/DeployDialog.tsx";
import { saveXmlFile } from "../model/save-xml.ts";
import type { ModelerApi, Selected } from "./ModelerCanvas.tsx";
import { newDiagram } from "./new-diagram.ts";
import "./designer.css";

// bpmn-js's modeler and its styles load with this screen only, never with the console's first page.
const ModelerCanvas = lazy(() => import("./ModelerCanvas.tsx"));

interface Loaded {
  xml: string;
  category: string;
}

/**
 * 流程设计: a model's BPMN diagram in bpmn-js's modeler (a new diagram when the address names no
 * model), saved as BPMN XML through model/submit and deployed from here. The side panel names the
 * selected element and, for a user task, who takes it (flowable:assignee / candidateGroups, what
 * the engine reads); with nothing selected it names the process (its key and name).
 */
export default function DesignerPage() {
  const t = useT();
  const { message, modal } = useFeedback();
  const navigate = useNavigate();
  const permission = useConsole((state) => state.permission);
  const language = useConsole((state) => state.language);
  const askedId = new URLSearchParams(useLocation().search).get("id") ?? "";
  const [modelId, setModelId] = useState(askedId);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [modeler, setModeler] = useState<ModelerApi | null>(null);
  const [selected, setSelected] = useState<Selected | null>(null);
  const [process, setProcess] = useState<Selected | null>(null);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [deploying, setDeploying] = useState<{ id: string; name: string; category: string } | null>(null);
  // The model on the canvas: a save that gives a new model its id must not load it again.
  const shown = useRef<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the retry trigger; t only names a new diagram
  useEffect(() => {
    if (shown.current === askedId) return;
    shown.current = askedId;
    setModelId(askedId);
    setDirty(false);
    setError(null);
    if (!askedId) {
      setLoaded({ xml: newDiagram(t("flow.model.untitled")), category: "" });
      return;
    }
    setLoaded(null);
    let live = true;
    loadModel(askedId)
      .then((model) => {
        if (live) setLoaded({ xml: model.bpmnXml, category: model.category });
      })
      .catch((failure: unknown) => {
        reportNetworkError(failure);
        if (live) setError(describeError(failure));
      });
    return () => {
      live = false;
    };
  }, [askedId, attempt]);

  const mayWrite = modelId ? permission.flow_model_update : permission.flow_model_create;

  /** Saves the canvas; answers the model id, or null when the server refused (already toasted). */
  const save = async (): Promise<string | null> => {
    if (!modeler) return null;
    setSaving(true);
    try {
      const bpmnXml = await modeler.saveXml();
      const answer = await saveModel({ ...(modelId ? { id: modelId } : {}), bpmnXml });
      setDirty(false);
      message.success(t("flow.designer.saved"));
      if (!modelId) {
        shown.current = answer.id;
        setModelId(answer.id);
        navigate(designerPath(answer.id), { replace: true });
      }
      return answer.id;
    } catch (failure) {
      reportNetworkError(failure);
      return null;
    } finally {
      setSaving(false);
    }
  };

  const deploy = async () => {
    const id = dirty || !modelId ? await save() : modelId;
    if (id) setDeploying({ id, name: process?.name || process?.id || "", category: loaded?.category ?? "" });
  };

  const download = async () => {
    if (modeler) saveXmlFile(process?.id ?? "", await modeler.saveXml());
  };

  // Leaving with unsaved changes asks first: the designer keeps no draft.
  const back = () => {
    if (!dirty) {
      navigate("/flow/model");
      return;
    }
    modal.confirm({
      title: t("flow.designer.leaveConfirm"),
      okButtonProps: { danger: true, "data-testid": "flow-designer-leave-ok" },
      onOk: () => navigate("/flow/model"),
    });
  };

  if (error)
    return (
      <Card>
        <LoadFailed
          error={error}
          onRetry={() => {
            // Load the same model again: the guard below skips only what is already on the canvas.
            shown.current = null;
            setAttempt((n) => n + 1);
          }}
          testId="flow-designer-error"
        />
      </Card>
    );

  const editing = selected ?? process;
  const apply = (key: string) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    if (!modeler || !editing || value === String(editing[key as keyof Selected] ?? "")) return;
    const property = key === "assignee" || key === "candidateGroups" ? `flowable:${key}` : key;
    modeler.update(selected ? selected.id : null, { [property]: value });
  };
  const field = (key: "id" | "name" | "assignee" | "candidateGroups", label: string, placeholder?: string) =>
    editing ? (
      <div className="ml-flow-designer-field">
        <label htmlFor={`flow-designer-${key}`}>{label}</label>
        <Input
          id={`flow-designer-${key}`}
          // Rebuilt when the canvas changes the value, so the input always shows the model.
          key={`${editing.id}:${key}:${editing[key]}`}
          defaultValue={editing[key]}
          placeholder={placeholder}
          onBlur={apply(key)}
          onPressEnter={(event) => apply(key)({ target: event.currentTarget })}
          data-testid={`flow-designer-${key}`}
        />
      </div>
    ) : null;

  return (
    <Card
      data-testid="flow-designer"
      title={
        <Space>
          <span>{process?.name || t("route.flowDesigner")}</span>
          {dirty ? <Tag data-testid="flow-designer-unsaved">{t("flow.designer.unsaved")}</Tag> : null}
        </Space>
      }
      extra={
        <Space wrap>
          <Button onClick={back} data-testid="flow-designer-back">
            {t("flow.designer.back")}
          </Button>
          {permission.flow_model_download ? (
            <Button onClick={() => void download()} disabled={!modeler} data-testid="flow-designer-download">
              {t("flow.model.download")}
            </Button>
          ) : null}
          {mayWrite ? (
            <Button
              type="primary"
              onClick={() => void save()}
              loading={saving}
              disabled={!modeler}
              data-testid="flow-designer-save"
            >
              {t("flow.designer.save")}
            </Button>
          ) : null}
          {permission.flow_model_deploy && mayWrite ? (
            <Button
              onClick={() => void deploy()}
              disabled={!modeler || saving}
              data-testid="flow-designer-deploy"
            >
              {t("flow.model.deploy")}
            </Button>
          ) : null}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t("flow.designer.help")}</Typography.Paragraph>
      <div className="ml-flow-designer">
        <div className="ml-flow-designer-canvas">
          {loaded ? (
            <Suspense fallback={<Spin />}>
              <ModelerCanvas
                xml={loaded.xml}
                language={language}
                onReady={setModeler}
                onFailed={(reason) => setError(t("flow.designer.loadFailed", { reason }))}
                onSelect={(one, root) => {
                  setSelected(one);
                  setProcess(root);
                }}
                onChange={() => setDirty(true)}
              />
            </Suspense>
          ) : (
            <Spin tip={t("flow.designer.loading")}>
              <div style={{ height: 200 }} />
            </Spin>
          )}
        </div>
        <aside className="ml-flow-designer-panel" data-testid="flow-designer-panel">
          <Typography.Title level={5}>
            {selected ? t("flow.designer.element") : t("flow.designer.process")}
          </Typography.Title>
          {field("id", t("flow.designer.id"))}
          {field("name", t("flow.designer.name"))}
          {selected?.type === "bpmn:UserTask" ? (
            <>
              {field("assignee", t("flow.designer.assignee"), t("flow.designer.assigneeHint"))}
              {field(
                "candidateGroups",
                t("flow.designer.candidateGroups"),
                t("flow.designer.candidateGroupsHint"),
              )}
            </>
          ) : null}
        </aside>
      </div>
      <DeployDialog model={deploying} onClose={() => setDeploying(null)} />
    </Card>
  );
}
