import { Card, Empty } from "antd";
import { useLocation } from "react-router";
import { useT } from "../../../i18n/index.tsx";
import { ProcessDiagram } from "./ProcessDiagram.tsx";

/** 流程图: the diagram of the instance the address names (`?processInstanceId=&tenantId=`). */
export default function DiagramPage() {
  const t = useT();
  const params = new URLSearchParams(useLocation().search);
  const instanceId = params.get("processInstanceId") ?? "";
  const tenantId = params.get("tenantId") ?? undefined;
  return (
    <Card title={t("flow.diagram.title")} data-testid="flow-diagram-page">
      {/^\d{1,19}$/.test(instanceId) ? (
        <ProcessDiagram processInstanceId={instanceId} {...(tenantId ? { tenantId } : {})} height={560} />
      ) : (
        <Empty description={t("flow.diagram.noInstance")} />
      )}
    </Card>
  );
}
