import type { RegistrationRow } from "@meterline/contracts";
import { Avatar, Button, Empty, Result, Select, Space, Table, Tag } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useCallback, useEffect, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { isShowableImage } from "../../components/same-origin.ts";
import { type MessageKey, useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { ApproveDialog, RejectDialog } from "./ReviewDialogs.tsx";
import { registrations } from "./registration-calls.ts";

const PAGE_SIZE = 10;
const statusColour: Record<number, string> = { 0: "gold", 1: "green", 2: "red" };

/**
 * 注册审核: the applications of people who signed in with a third-party provider the tenant does
 * not know yet, with what the provider says of them; pending ones are approved (role and dept) or
 * rejected (reason).
 */
export default function RegistrationPage() {
  const t = useT();
  const canApprove = useConsole((state) => state.permission.social_registration_approve === true);
  const canReject = useConsole((state) => state.permission.social_registration_reject === true);
  const [status, setStatus] = useState("0");
  const [current, setCurrent] = useState(1);
  const [rows, setRows] = useState<RegistrationRow[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [reviewing, setReviewing] = useState<{ row: RegistrationRow; kind: "approve" | "reject" } | null>(
    null,
  );

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const answer = await registrations(current, PAGE_SIZE, status);
      setRows(answer.records);
      setTotal(answer.total);
      setFailed(false);
    } catch (error) {
      reportNetworkError(error);
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [current, status]);

  useEffect(() => {
    void load();
  }, [load]);

  const done = (changed: boolean) => {
    setReviewing(null);
    if (changed) void load();
  };

  const columns: ColumnsType<RegistrationRow> = [
    {
      title: t("registration.avatar"),
      dataIndex: "avatar",
      width: 72,
      // The provider's picture lives elsewhere: linked rather than loaded (the console's CSP).
      render: (url: string) =>
        isShowableImage(url) ? (
          <Avatar src={url} />
        ) : url ? (
          <a href={url} target="_blank" rel="noopener noreferrer">
            {t("registration.avatar")}
          </a>
        ) : (
          <Avatar>?</Avatar>
        ),
    },
    { title: t("registration.source"), dataIndex: "source" },
    { title: t("registration.providerName"), dataIndex: "providerName" },
    { title: t("registration.providerUsername"), dataIndex: "providerUsername" },
    { title: t("registration.email"), dataIndex: "email" },
    { title: t("registration.account"), dataIndex: "account" },
    { title: t("registration.name"), dataIndex: "name" },
    { title: t("registration.createTime"), dataIndex: "createTime", width: 170 },
    {
      title: t("registration.status"),
      dataIndex: "status",
      render: (value: number, row) => (
        <Space direction="vertical" size={0}>
          <Tag color={statusColour[value]}>{t(`registration.status.${value}` as MessageKey)}</Tag>
          {row.reason ? <span>{row.reason}</span> : null}
        </Space>
      ),
    },
    {
      title: "",
      key: "actions",
      render: (_: unknown, row) =>
        row.status === 0 ? (
          <Space size={0}>
            {canApprove ? (
              <Button
                type="link"
                size="small"
                onClick={() => setReviewing({ row, kind: "approve" })}
                data-testid="registration-approve"
              >
                {t("registration.approve")}
              </Button>
            ) : null}
            {canReject ? (
              <Button
                type="link"
                size="small"
                danger
                onClick={() => setReviewing({ row, kind: "reject" })}
                data-testid="registration-reject"
              >
                {t("registration.reject")}
              </Button>
            ) : null}
          </Space>
        ) : null,
    },
  ];

  if (failed && rows.length === 0) {
    return (
      <Result
        status="warning"
        title={t("registration.loadFailed")}
        extra={<Button onClick={() => void load()}>{t("registration.retry")}</Button>}
      />
    );
  }

  return (
    <div data-testid="registration-page">
      <Space style={{ marginBottom: 12 }}>
        <span>{t("registration.status")}</span>
        <Select
          value={status}
          style={{ width: 140 }}
          aria-label={t("registration.status")}
          onChange={(value) => {
            setStatus(value);
            setCurrent(1);
          }}
          options={[
            { value: "", label: t("registration.status.all") },
            ...[0, 1, 2].map((s) => ({
              value: String(s),
              label: t(`registration.status.${s}` as MessageKey),
            })),
          ]}
          data-testid="registration-status"
        />
      </Space>
      <Table<RegistrationRow>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={rows}
        locale={{ emptyText: <Empty description={t("registration.empty")} /> }}
        pagination={{ current, pageSize: PAGE_SIZE, total, onChange: setCurrent, showSizeChanger: false }}
        scroll={{ x: "max-content" }}
      />
      {reviewing?.kind === "approve" ? <ApproveDialog row={reviewing.row} onDone={done} /> : null}
      {reviewing?.kind === "reject" ? <RejectDialog row={reviewing.row} onDone={done} /> : null}
    </div>
  );
}
