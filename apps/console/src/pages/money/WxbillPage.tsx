import { Alert, Button, Card, Empty, Input, Select, Space, Table, type TableColumnsType } from "antd";
import { useCallback, useEffect, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { type MessageKey, useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { WxbillSettleDialog } from "./WxbillSettleDialog.tsx";
import {
  type Bill,
  type BillDiff,
  type DiffFilter,
  exportDiffs,
  KINDS,
  reconcileDay,
  wxbillDiffs,
  wxbillPage,
} from "./wxbill-calls.ts";
import "./counter/money-counter.css";

/** The counter's fixed dark-on-light level colours (money-counter.css): they meet 4.5:1 in every theme. */
const STATE_CLASS: Record<string, string> = {
  balanced: "counter-level-0",
  differences: "counter-level-1",
  failed: "counter-level-3",
};
/** Reasons of a failed run the console words itself; any other code is WeChat Pay's own refusal. */
const KNOWN_ERRORS = [
  "MERCHANT",
  "NETWORK",
  "ANSWER_NOT_TRUSTED",
  "BILL_HASH",
  "BILL_URL",
  "BILL_TOO_LARGE",
  "BILL_DOWNLOAD",
  "BILL_FORMAT",
  "ERROR",
];
/** Yesterday in Beijing time: the day whose bill WeChat Pay has ready. */
const yesterdayInChina = () =>
  new Date(Date.now() + 8 * 3_600_000 - 24 * 3_600_000).toISOString().slice(0, 10);

/** 微信对账 (issue 20): bills by day, their differences, reconciling a day and settling a difference. */
export default function WxbillPage() {
  const { t } = useI18n();
  const { message } = useFeedback();
  const canReconcile = useConsole((state) => Boolean(state.permission.wxbill_reconcile));
  const canSettle = useConsole((state) => Boolean(state.permission.wxbill_settle));
  const canExport = useConsole((state) => Boolean(state.permission.wxbill_export));
  const [day, setDay] = useState(yesterdayInChina);
  const [bills, setBills] = useState<Bill[]>([]);
  const [diffs, setDiffs] = useState<BillDiff[]>([]);
  const [filter, setFilter] = useState<DiffFilter>({ state: "open" });
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [settling, setSettling] = useState<BillDiff | null>(null);
  /** The last run, when it failed: its reason stays on screen until the next run or until closed. */
  const [failure, setFailure] = useState<Bill | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [billPage, diffPage] = await Promise.all([wxbillPage(), wxbillDiffs(filter)]);
      setBills(billPage.records);
      setDiffs(diffPage.records);
      setFailed(false);
    } catch (failure) {
      setFailed(true);
      reportNetworkError(failure);
    } finally {
      setLoading(false);
    }
  }, [filter]);
  useEffect(() => {
    void load();
  }, [load]);

  const reasonOf = (bill: Pick<Bill, "errorCode">) =>
    KNOWN_ERRORS.includes(bill.errorCode)
      ? t(`wxbill.error.${bill.errorCode}` as MessageKey)
      : t("wxbill.error.other", { code: bill.errorCode || "?" });

  const reconcile = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const result = await reconcileDay(day);
      // A run that could not be done (no merchant, WeChat Pay unreachable, a bill not to be trusted)
      // answers the failed day with its reason: said here and kept above the list.
      if (result.state === "failed") {
        setFailure(result);
        message.error(t("wxbill.failed", { day: result.billDate, reason: reasonOf(result) }));
      } else message.success(t("wxbill.reconciled"));
      setFilter((current) => ({ ...current, billDate: day }));
    } catch (error) {
      // Bad input was shown by the API bridge; a lost connection is shown here.
      reportNetworkError(error);
    } finally {
      setBusy(false);
      await load();
    }
  };

  const label = (prefix: string, value: string) => (value ? t(`${prefix}.${value}` as MessageKey) : "");
  const billColumns: TableColumnsType<Bill> = [
    {
      title: t("wxbill.day"),
      dataIndex: "billDate",
      render: (value: string) => (
        <Button
          type="text"
          size="small"
          aria-label={t("wxbill.showDiffs", { day: value })}
          onClick={() => setFilter((current) => ({ ...current, billDate: value }))}
          data-testid="wxbill-day"
        >
          {value}
        </Button>
      ),
    },
    {
      title: t("wxbill.state"),
      dataIndex: "state",
      render: (value: string) => (
        <span className={`counter-level ${STATE_CLASS[value] ?? ""}`}>{label("wxbill.state", value)}</span>
      ),
    },
    {
      title: t("wxbill.billSide"),
      children: [
        { title: t("wxbill.successCount"), dataIndex: "successCount", align: "right" },
        { title: t("wxbill.settlementTotal"), dataIndex: "settlementTotal", align: "right" },
        { title: t("wxbill.refundCount"), dataIndex: "refundCount", align: "right" },
        { title: t("wxbill.refundTotal"), dataIndex: "refundTotal", align: "right" },
      ],
    },
    {
      // What the ledger says came in through WeChat: online orders and counter recharges apart.
      title: t("wxbill.ledgerSide"),
      children: [
        { title: t("wxbill.localCount"), dataIndex: "localCount", align: "right" },
        { title: t("wxbill.localTotal"), dataIndex: "localTotal", align: "right" },
        { title: t("wxbill.counterCount"), dataIndex: "counterCount", align: "right" },
        { title: t("wxbill.counterTotal"), dataIndex: "counterTotal", align: "right" },
      ],
    },
    { title: t("wxbill.openCount"), dataIndex: "openCount", align: "right" },
    { title: t("wxbill.downloadedTime"), dataIndex: "downloadedTime" },
    {
      title: t("wxbill.error"),
      dataIndex: "errorCode",
      width: 260,
      render: (_: string, row) =>
        row.state === "failed" ? (
          <span title={row.error} data-testid="wxbill-error">
            {reasonOf(row)}
          </span>
        ) : null,
    },
  ];
  const diffColumns: TableColumnsType<BillDiff> = [
    { title: t("wxbill.day"), dataIndex: "billDate" },
    { title: t("wxbill.kind"), dataIndex: "kind", render: (value: string) => label("wxbill.kind", value) },
    { title: t("wxbill.outTradeNo"), dataIndex: "outTradeNo" },
    {
      title: t("wxbill.counterRecharge"),
      key: "counterRecharge",
      render: (_: unknown, row) =>
        row.kind === "counter_only" ? (
          <span data-testid="wxbill-counter-recharge">
            {row.receiptNo}
            <br />
            {[row.ownerName, row.roomName].filter(Boolean).join(" · ")}
            <br />
            {t("wxbill.takenBy", { operator: row.counterOperator || "-" })}
          </span>
        ) : null,
    },
    { title: t("wxbill.transactionId"), dataIndex: "transactionId" },
    { title: t("wxbill.wechatAmount"), dataIndex: "wechatAmount", align: "right" },
    { title: t("wxbill.localAmount"), dataIndex: "localAmount", align: "right" },
    {
      title: t("wxbill.diffState"),
      dataIndex: "state",
      render: (value: string) => label("wxbill.diffState", value),
    },
    {
      title: t("wxbill.action"),
      dataIndex: "action",
      render: (value: string) => label("wxbill.action", value),
    },
    { title: t("wxbill.reason"), dataIndex: "reason" },
    { title: t("wxbill.operator"), dataIndex: "operator" },
    { title: t("wxbill.settleTime"), dataIndex: "settleTime" },
    {
      title: t("wxbill.settle"),
      key: "settle",
      render: (_: unknown, row) =>
        canSettle && row.state === "open" ? (
          <Button type="link" size="small" data-testid="wxbill-settle" onClick={() => setSettling(row)}>
            {t("wxbill.settle")}
          </Button>
        ) : null,
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }} data-testid="wxbill-page">
      <Card size="small" title={t("menu.wxbill")}>
        <Space wrap>
          <label htmlFor="wxbill-day">{t("wxbill.day")}</label>
          <Input
            id="wxbill-day"
            type="date"
            value={day}
            onChange={(event) => setDay(event.target.value)}
            style={{ width: 170 }}
            data-testid="wxbill-date"
          />
          {canReconcile ? (
            <Button
              type="primary"
              loading={busy}
              disabled={!day}
              onClick={() => void reconcile()}
              data-testid="wxbill-reconcile"
            >
              {t("wxbill.reconcile")}
            </Button>
          ) : null}
          <Button onClick={() => void load()}>{t("wxbill.refresh")}</Button>
        </Space>
      </Card>
      {failed ? <Alert type="error" showIcon message={t("wxbill.loadFailed")} /> : null}
      {failure ? (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setFailure(null)}
          message={t("wxbill.failed", { day: failure.billDate, reason: reasonOf(failure) })}
          description={failure.error}
          data-testid="wxbill-failure"
        />
      ) : null}
      <Card size="small" title={t("wxbill.bills")}>
        <Table<Bill>
          rowKey="id"
          size="small"
          columns={billColumns}
          dataSource={bills}
          loading={loading}
          scroll={{ x: true }}
          pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
          locale={{ emptyText: <Empty description={t("wxbill.noBills")} /> }}
          data-testid="wxbill-bills"
        />
      </Card>
      <Card
        size="small"
        title={filter.billDate ? t("wxbill.diffsOf", { day: filter.billDate }) : t("wxbill.diffs")}
        extra={
          <Space wrap>
            <Select
              aria-label={t("wxbill.kind")}
              style={{ width: 170 }}
              value={filter.kind ?? ""}
              onChange={(kind: string) => setFilter((current) => ({ ...current, kind: kind || undefined }))}
              options={[
                { value: "", label: `${t("wxbill.kind")}: ${t("wxbill.any")}` },
                ...KINDS.map((kind) => ({ value: kind, label: label("wxbill.kind", kind) })),
              ]}
            />
            <Select
              aria-label={t("wxbill.diffState")}
              style={{ width: 130 }}
              value={filter.state ?? ""}
              onChange={(state: string) =>
                setFilter((current) => ({ ...current, state: state || undefined }))
              }
              options={[
                { value: "", label: `${t("wxbill.diffState")}: ${t("wxbill.any")}` },
                { value: "open", label: t("wxbill.diffState.open") },
                { value: "held", label: t("wxbill.diffState.held") },
                { value: "settled", label: t("wxbill.diffState.settled") },
              ]}
            />
            {canExport ? (
              <Button onClick={() => exportDiffs(filter)} data-testid="wxbill-export">
                {t("wxbill.export")}
              </Button>
            ) : null}
            {filter.billDate ? (
              <Button onClick={() => setFilter((current) => ({ ...current, billDate: undefined }))}>
                {t("wxbill.allDays")}
              </Button>
            ) : null}
          </Space>
        }
      >
        <Table<BillDiff>
          rowKey="id"
          size="small"
          columns={diffColumns}
          dataSource={diffs}
          loading={loading}
          scroll={{ x: true }}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
          locale={{ emptyText: <Empty description={t("wxbill.noDiffs")} /> }}
          data-testid="wxbill-diffs"
        />
      </Card>
      <WxbillSettleDialog
        diff={settling}
        onClose={() => setSettling(null)}
        onSettled={async () => {
          setSettling(null);
          await load();
        }}
      />
    </Space>
  );
}
