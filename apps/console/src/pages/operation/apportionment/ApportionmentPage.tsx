import type { TableColumnsType } from "antd";
import {
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useCallback, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import "../../../crud/table.css";
import {
  type ApportionRun,
  bookApportionment,
  loadApportionNodes,
  loadApportionPreview,
  loadApportionRuns,
  type RoomShare,
  reverseApportionment,
} from "./apportionment-calls.ts";

const RULE_KEYS: Record<number, string> = { 1: "area", 2: "usage", 3: "equal" };
/** Solid state colours with white text (4.5:1 contrast), as the other flow screens. */
const STATE_COLOURS: Record<number, string | undefined> = { 1: "#ad4e00", 2: "#237804", 3: "#a8071a" };

/**
 * 公摊分摊 (运行控制): a node's month previewed room by room (area, usage, share, amount), booked to
 * the rooms' accounts once with a confirmation, and the node's runs with their reversal.
 */
export default function ApportionmentPage() {
  const t = useT();
  const { modal, message } = useFeedback();
  const canBook = useConsole((state) => state.permission.apportionment_book === true);
  const canReverse = useConsole((state) => state.permission.apportionment_reverse === true);
  const [nodeId, setNodeId] = useState<string | null>(null);
  const [month, setMonth] = useState<Dayjs>(() => dayjs().subtract(1, "month"));
  // Bumped after a booking or a reversal so that the runs (and the preview) read again.
  const [version, setVersion] = useState(0);
  const [reversing, setReversing] = useState<ApportionRun | null>(null);
  const [reason, setReason] = useState("");

  const monthText = month.format("YYYY-MM");
  const nodes = useLoaded(useCallback(() => loadApportionNodes(), []));
  const preview = useLoaded(
    // biome-ignore lint/correctness/useExhaustiveDependencies: version asks for a fresh read
    useCallback(
      () => (nodeId ? loadApportionPreview(nodeId, monthText) : Promise.resolve(null)),
      [nodeId, monthText, version],
    ),
  );
  const runs = useLoaded(
    // biome-ignore lint/correctness/useExhaustiveDependencies: version asks for a fresh read
    useCallback(() => (nodeId ? loadApportionRuns(nodeId) : Promise.resolve([])), [nodeId, version]),
  );

  const book = () => {
    const p = preview.data;
    if (!nodeId || !p) return;
    modal.confirm({
      title: t("apportionment.book"),
      content: t("apportionment.bookConfirm", { month: p.month, node: p.nodeName, total: p.total }),
      okButtonProps: { "data-testid": "apportionment-book-ok" },
      onOk: async () => {
        try {
          const answer = await bookApportionment(nodeId, p.month);
          message.success(
            t(
              !answer.created
                ? "apportionment.already"
                : answer.run.state === 1
                  ? "apportionment.held"
                  : "apportionment.booked",
            ),
          );
        } catch (failure) {
          // Server refusals were toasted by the API bridge.
          reportNetworkError(failure);
          return;
        }
        setVersion((v) => v + 1);
      },
    });
  };

  const reverse = async () => {
    if (!reversing || !reason.trim()) return;
    try {
      await reverseApportionment(reversing.id, reason.trim());
    } catch (failure) {
      reportNetworkError(failure);
      return;
    }
    message.success(t("apportionment.reversed"));
    setReversing(null);
    setReason("");
    setVersion((v) => v + 1);
  };

  const right = { align: "right" as const, className: "ml-nowrap" };
  const roomColumns: TableColumnsType<RoomShare> = [
    { key: "roomName", title: t("apportionment.room"), dataIndex: "roomName" },
    { key: "meterCode", title: t("apportionment.meter"), dataIndex: "meterCode", className: "ml-nowrap" },
    { key: "floorArea", title: t("apportionment.area"), dataIndex: "floorArea", ...right },
    { key: "usage", title: t("apportionment.usage"), dataIndex: "usage", ...right },
    { key: "share", title: t("apportionment.share"), dataIndex: "share", ...right },
    { key: "amount", title: t("apportionment.amount"), dataIndex: "amount", ...right },
  ];
  const runColumns: TableColumnsType<ApportionRun> = [
    { key: "month", title: t("apportionment.month"), dataIndex: "month" },
    { key: "shared", title: t("apportionment.shared"), dataIndex: "shared", ...right },
    { key: "total", title: t("apportionment.amount"), dataIndex: "total", ...right },
    {
      key: "state",
      title: t("apportionment.state"),
      render: (_, run) => (
        <Tag color={STATE_COLOURS[run.state]} data-testid={`apportionment-run-state-${run.id}`}>
          {t(`apportionment.state.${run.state}` as MessageKey)}
        </Tag>
      ),
    },
    {
      key: "reason",
      title: t("apportionment.reason"),
      render: (_, run) => run.reverseReason ?? run.rejectReason ?? "",
    },
    { key: "creator", title: t("apportionment.creator"), dataIndex: "creator" },
    {
      key: "createTime",
      title: t("apportionment.createTime"),
      dataIndex: "createTime",
      className: "ml-nowrap",
    },
    {
      key: "actions",
      title: "",
      render: (_, run) =>
        canReverse && run.state === 2 ? (
          <Button
            size="small"
            danger
            onClick={() => setReversing(run)}
            data-testid={`apportionment-reverse-${run.id}`}
          >
            {t("apportionment.reverse")}
          </Button>
        ) : null,
    },
  ];

  const p = preview.data;
  const body = !nodeId ? (
    <Empty description={t("apportionment.pickNode")} />
  ) : preview.error ? (
    <LoadFailed error={preview.error} onRetry={() => setVersion((v) => v + 1)} testId="apportionment-error" />
  ) : (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      {p && (
        <Descriptions size="small" column={4} data-testid="apportionment-totals">
          <Descriptions.Item label={t("apportionment.commonUsage")}>{p.commonUsage}</Descriptions.Item>
          <Descriptions.Item label={t("apportionment.loss")}>{p.loss}</Descriptions.Item>
          <Descriptions.Item label={t("apportionment.shared")}>
            {p.shared} ({t(`apportionment.rule.${p.rule}` as MessageKey)})
          </Descriptions.Item>
          <Descriptions.Item label={t("apportionment.total")}>{p.total}</Descriptions.Item>
        </Descriptions>
      )}
      <Table<RoomShare>
        rowKey="roomId"
        size="small"
        loading={preview.loading}
        columns={roomColumns}
        dataSource={p?.rooms ?? []}
        pagination={false}
        data-testid="apportionment-rooms"
      />
      {canBook && (
        <Button type="primary" disabled={!p} onClick={book} data-testid="apportionment-book">
          {t("apportionment.book")}
        </Button>
      )}
    </Space>
  );

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="apportionment-page">
      <Card>
        <Space wrap size="middle">
          <Select
            style={{ minWidth: 240 }}
            placeholder={t("apportionment.pickNode")}
            aria-label={t("apportionment.node")}
            loading={nodes.loading}
            value={nodeId}
            onChange={(v) => setNodeId(v)}
            notFoundContent={t("apportionment.empty")}
            options={(nodes.data ?? []).map((n) => ({
              value: n.id,
              label: `${n.nodeName} · ${t(`apportionment.rule.${RULE_KEYS[n.apportionRule] ?? "area"}` as MessageKey)}`,
            }))}
            data-testid="apportionment-node"
          />
          <DatePicker
            picker="month"
            aria-label={t("apportionment.month")}
            value={month}
            allowClear={false}
            onChange={(d) => d && setMonth(d)}
            disabledDate={(d) => d.isAfter(dayjs().subtract(1, "month"), "month")}
            data-testid="apportionment-month"
          />
          <Typography.Text type="secondary">{t("apportionment.note")}</Typography.Text>
        </Space>
      </Card>
      <Card>{body}</Card>
      <Card title={t("apportionment.runs")}>
        <Table<ApportionRun>
          rowKey="id"
          size="small"
          loading={runs.loading}
          columns={runColumns}
          dataSource={runs.data ?? []}
          pagination={false}
          data-testid="apportionment-runs"
        />
      </Card>
      <Modal
        open={reversing !== null}
        title={reversing ? t("apportionment.reverseTitle", { month: reversing.month }) : ""}
        onCancel={() => setReversing(null)}
        onOk={reverse}
        okButtonProps={{ danger: true, disabled: !reason.trim(), "data-testid": "apportionment-reverse-ok" }}
        destroyOnHidden
      >
        <Input.TextArea
          value={reason}
          maxLength={200}
          placeholder={t("apportionment.reverseReason")}
          onChange={(e) => setReason(e.target.value)}
          data-testid="apportionment-reverse-reason"
        />
      </Modal>
    </Space>
  );
}
