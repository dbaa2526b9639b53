import { Button, Card, Descriptions, Form, Input, Space, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { PageLoading } from "../../../components/PageLoading.tsx";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { ProcessDiagram } from "../../flow/diagram/ProcessDiagram.tsx";
import { FlowSteps } from "../../work/LeaveParts.tsx";
import { parseMoneyApprovalPath } from "../../work/money-approval-paths.ts";
import { announceTodoChange } from "../../work/todo-signal.ts";
import { completeTask } from "../../work/work-calls.ts";
import { type ApprovalRequest, loadApprovalRequest } from "./approval-calls.ts";

/** The parameters of the page at the current address (its path is the route's splat). */
function useApprovalParams(): string[] {
  const splat = useParams()["*"] ?? "";
  return parseMoneyApprovalPath(`/${splat}`.replace(/\/+$/, ""))?.params ?? [];
}

/** The held operation of an instance; `failed` once the call failed (its message was toasted). */
function useApprovalRequest(processInstanceId: string) {
  const [request, setRequest] = useState<ApprovalRequest | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadApprovalRequest(processInstanceId)
      .then((row) => live && setRequest(row))
      .catch((error: unknown) => {
        if (live) setFailed(true);
        reportNetworkError(error);
      });
    return () => {
      live = false;
    };
  }, [processInstanceId]);
  return { request, failed };
}

const STATE_COLOR: Record<number, string> = { 1: "success", 3: "processing", 4: "error" };

/** What leaves which account, whose and where, who asked and why, and where it stands. */
function ApprovalSummary({ request }: { request: ApprovalRequest }) {
  const t = useT();
  const energy = t(request.energyType === 2 ? "moneyApproval.water" : "moneyApproval.electric");
  return (
    <Descriptions bordered size="small" column={2} data-testid="approval-summary">
      <Descriptions.Item label={t("moneyApproval.kind")}>
        <span data-testid="approval-kind">{t(`moneyApproval.kind.${request.kind}` as MessageKey)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t("moneyApproval.amount")}>
        <Typography.Text strong data-testid="approval-amount">
          {request.amount}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t("moneyApproval.owner")}>
        <span data-testid="approval-owner" data-value={request.ownerName}>
          {request.ownerName}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t("moneyApproval.room")}>
        <span data-testid="approval-room" data-value={request.roomName}>
          {request.roomName}
        </span>
      </Descriptions.Item>
      {/* A 公摊 run debits every room of its node: no one account or balance to show. */}
      {request.kind !== "apportionment" && (
        <Descriptions.Item label={t("moneyApproval.account")}>
          <span data-value={`${request.productCode} ${request.accountId}`}>
            {energy} {request.productCode} ({request.accountId})
          </span>
        </Descriptions.Item>
      )}
      {request.kind !== "apportionment" && (
        <Descriptions.Item label={t("moneyApproval.balance")}>{request.balance}</Descriptions.Item>
      )}
      <Descriptions.Item label={t("moneyApproval.requester")}>
        <span data-testid="approval-requester" data-value={request.requester}>
          {request.requester}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t("moneyApproval.requestTime")}>{request.requestTime}</Descriptions.Item>
      <Descriptions.Item label={t("moneyApproval.reason")} span={2}>
        <Typography.Paragraph
          style={{ whiteSpace: "pre-wrap", marginBottom: 0 }}
          data-testid="approval-reason"
          data-value={request.reason}
        >
          {request.reason}
        </Typography.Paragraph>
      </Descriptions.Item>
      <Descriptions.Item label={t("moneyApproval.state")} span={request.approvalNote ? 1 : 2}>
        <Tag color={STATE_COLOR[request.state]} data-testid="approval-state" data-state={request.state}>
          {t(`moneyApproval.state.${request.state}` as MessageKey)}
        </Tag>
      </Descriptions.Item>
      {request.approvalNote ? (
        <Descriptions.Item label={t("moneyApproval.note")}>
          <span data-value={request.approvalNote}>{request.approvalNote}</span>
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** 办理: the held operation read-only, the steps so far, a comment and 同意 / 驳回 (both need it). */
export function MoneyApprovalHandlePage() {
  const t = useT();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const [taskId = "", processInstanceId = ""] = useApprovalParams();
  const { request, failed } = useApprovalRequest(processInstanceId);
  const [form] = Form.useForm<{ comment: string }>();
  const [saving, setSaving] = useState<"pass" | "reject" | null>(null);

  const decide = async (pass: boolean) => {
    const { comment } = await form.validateFields();
    setSaving(pass ? "pass" : "reject");
    try {
      await completeTask({ taskId, processInstanceId }, pass, comment.trim());
      message.success(pass ? t("moneyApproval.passed") : t("moneyApproval.rejected"));
      announceTodoChange();
      navigate("/work/todo");
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(null);
    }
  };

  if (failed) return <Card>{t("moneyApproval.loadFailed")}</Card>;
  if (!request) return <PageLoading />;
  return (
    <Card title={t("moneyApproval.handleTitle")} data-testid="approval-handle">
      <Space orientation="vertical" size="large" style={{ width: "100%" }}>
        <ApprovalSummary request={request} />
        <FlowSteps processInstanceId={processInstanceId} />
        <Form form={form} layout="vertical">
          <Form.Item
            name="comment"
            label={t("moneyApproval.comment")}
            rules={[{ required: true, whitespace: true, message: t("moneyApproval.commentRequired") }]}
          >
            <Input.TextArea rows={3} maxLength={1000} data-testid="approval-comment" />
          </Form.Item>
          <Space>
            <Button
              type="primary"
              loading={saving === "pass"}
              disabled={saving !== null || request.state !== 3}
              onClick={() => void decide(true).catch(() => undefined)}
              data-testid="approval-pass"
            >
              {t("moneyApproval.pass")}
            </Button>
            <Button
              danger
              loading={saving === "reject"}
              disabled={saving !== null || request.state !== 3}
              onClick={() => void decide(false).catch(() => undefined)}
              data-testid="approval-reject"
            >
              {t("moneyApproval.reject")}
            </Button>
          </Space>
        </Form>
      </Space>
    </Card>
  );
}

/** 详情: the held operation and every step so far (who, when, comment), with the diagram. */
export function MoneyApprovalDetailPage() {
  const t = useT();
  const [processInstanceId = ""] = useApprovalParams();
  const { request, failed } = useApprovalRequest(processInstanceId);
  if (failed) return <Card>{t("moneyApproval.loadFailed")}</Card>;
  if (!request) return <PageLoading />;
  return (
    <Card title={t("moneyApproval.detailTitle")} data-testid="approval-detail">
      <Space orientation="vertical" size="large" style={{ width: "100%" }}>
        <ApprovalSummary request={request} />
        <FlowSteps processInstanceId={processInstanceId} />
        <Card size="small" title={t("flow.diagram.title")}>
          <ProcessDiagram processInstanceId={processInstanceId} height={280} />
        </Card>
      </Space>
    </Card>
  );
}
