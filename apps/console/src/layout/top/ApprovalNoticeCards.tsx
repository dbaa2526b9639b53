import type { Row } from "@meterline/api-client";
import { Button, Card, Space, Typography } from "antd";
import { useNavigate } from "react-router";
import { reportNetworkError } from "../../app/api.ts";
import { useT } from "../../i18n/index.tsx";
import { handlePath } from "../../pages/work/leave-paths.ts";
import { announceTodoChange } from "../../pages/work/todo-signal.ts";
import { claimTask } from "../../pages/work/work-calls.ts";

const text = (value: unknown) => (value === undefined || value === null ? "" : String(value));

/**
 * The bell's cards of money approvals: what is asked (amount and reason) and by whom, each opening
 * its handle page; a task still to be claimed is claimed on the way (it is the user's to decide).
 */
export function ApprovalNoticeCards({ rows, onOpen }: { rows: Row[]; onOpen: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const open = async (row: Row) => {
    try {
      if (row.status === "claim") {
        await claimTask(text(row.taskId));
        announceTodoChange();
      }
      onOpen();
      navigate(handlePath("money", text(row.taskId), text(row.processInstanceId), text(row.businessId)));
    } catch (error) {
      reportNetworkError(error);
    }
  };
  return rows.map((row) => {
    const variables = (row.variables ?? {}) as Record<string, unknown>;
    return (
      <Card
        key={text(row.taskId)}
        size="small"
        data-testid="approval-notice"
        data-instance={text(row.processInstanceId)}
      >
        <Space orientation="vertical" size={2} style={{ width: "100%" }}>
          <Typography.Text strong>
            {t("moneyApproval.notice", { amount: text(variables.amount) })}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t("moneyApproval.noticeBy", { who: text(variables.createUser), time: text(row.createTime) })}
          </Typography.Text>
          {variables.reason ? (
            <Typography.Text data-value={text(variables.reason)}>{text(variables.reason)}</Typography.Text>
          ) : null}
          <Button type="link" size="small" onClick={() => void open(row)} data-testid="approval-notice-open">
            {t("moneyApproval.open")}
          </Button>
        </Space>
      </Card>
    );
  });
}
