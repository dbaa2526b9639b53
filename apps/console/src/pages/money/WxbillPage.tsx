import { Alert, Button, Card, Empty, Input, Select, Space, Table, type TableColumnsType } from "antd";
import { useCallback, useEffect, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { type MessageKey, useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { ScrollRegion } from "./ScrollRegion.tsx";
import { WxbillSettleDialog } from "./WxbillSettleDialog.tsx";
import {
  type Bill,
  type BillDiff,
  CHANNELS,
  type DiffFilter,
  exportDiffs,
  KINDS,
  ONLY_KIND,
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
/** Reasons of a failed run the console words itself; any other code is the channel's own refusal. */
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
/** Alipay's reasons, worded apart (alipay-bill-channel.ts); a sub code Alipay refused with is said as it came. */
const ALIPAY_ERRORS = [
  "MERCHANT",
  "NETWORK",
  "ANSWER_NOT_TRUSTED",
  "BILL_NOT_READY",
  "BILL_DOWNLOAD",
  "BILL_FORMAT",
  "ERROR",
];
/** Yesterday in Beijing time: the day whose bill WeChat Pay and Alipay have ready. */
const yesterdayInChina = () =>
  new Date(Date.now() + 8 * 3_600_000 - 24 * 3_600_000).toISOString().slice(0, 10);

/**
 * 支付对账 (issue 20, Alipay with issue 39): bills by day and channel (WeChat Pay, Alipay), their
 * differences, reconciling a day of a channel and settling a difference the same way for both.
 */
export default function WxbillPage() {
  const { t } = useI18n();
  const { message } = useFeedback();
  const canReconcile = useConsole((state) => Boolean(state.permission.wxbill_reconcile));
  const canSettle = useConsole((state) => Boolean(state.permission.wxbill_settle));
  const canExport = useConsole((state) => Boolean(state.permission.wxbill_export));
  const [day, setDay] = useState(yesterdayInChina);
  /** The channel the next run reconciles. */
  const [channel, setChannel] = useState<string>("wechat");
  const [bills, setBills] = useState<Bill[]>([]);
  const [diffs, setDiffs] = useState<BillDiff[]>([]);
  const [filter, setFilter] = useState<DiffFilter>({ state: "open", channel: "wechat" });
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [settling, setSettling] = useState<BillDiff | null>(null);
  /** The last run, when it failed: its reason stays on screen until the next run or until closed. */
  const [failure, setFailure] = useState<Bill | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [billPage, diffPage] = await Promise.all([wxbillPage(filter.channel), wxbillDiffs(filter)]);
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

  const label = (prefix: string, value: string) => (value ? t(`${prefix}.${value}` as MessageKey) : "");
  const reasonOf = (bill: Pick<Bill, "errorCode" | "channel">) => {
    const prefix = bill.channel === "alipay" ? "wxbill.error.alipay" : "wxbill.error";
    const known = bill.channel === "alipay" ? ALIPAY_ERRORS : KNOWN_ERRORS;
    return known.includes(bill.errorCode)
      ? t(`${prefix}.${bill.errorCode}` as MessageKey)
      : t(`${prefix}.other` as MessageKey, { code: bill.errorCode || "?" });
  };
  /** A heading that names the channel listed: WeChat Pay's words, Alipay's (`.alipay`), or both's (`.any`). */
  const side = (key: string) =>
    t((filter.channel === "wechat" ? key : `${key}.${filter.channel ?? "any"}`) as MessageKey);
  /** A counter recharge is recorded as 微信 or as 支付宝: its kind says which (`any` when both are listed). */
  const kindLabel = (kind: string, of: string) =>
    t(
      (kind === "counter_only" && of !== "wechat"
        ? `wxbill.kind.counter_only.${of}`
        : `wxbill.kind.${kind}`) as MessageKey,
    );
  const channelColumn = {
    title: t("wxbill.channel"),
    dataIndex: "channel",
    render: (value: string) => (
      <span data-testid="wxbill-channel-cell">{label("wxbill.channel", value)}</span>
    ),
  };

  const reconcile = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const result = await reconcileDay(day, channel);
      // A run that could not be done (no merchant, the channel unreachable, a bill not to be trusted)
      // answers the failed day with its reason: said here and kept above the list.
      if (result.state === "failed") {
        setFailure(result);
        message.error(t("wxbill.failed", { day: result.billDate, reason: reasonOf(result) }));
      } else message.success(t("wxbill.reconciled"));
      setFilter((current) => ({ ...current, billDate: day, channel }));
    } catch (error) {
      // Bad input was shown by the API bridge; a lost connection is shown here.
      reportNetworkError(error);
    } finally {
      setBusy(false);
      await load();
    }
  };

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
    channelColumn,
    {
      title: t("wxbill.state"),
      dataIndex: "state",
      render: (value: string) => (
        <span className={`counter-level ${STATE_CLASS[value] ?? ""}`}>{label("wxbill.state", value)}</span>
      ),
    },
    {
      title: side("wxbill.billSide"),
      children: [
        { title: t("wxbill.successCount"), dataIndex: "successCount", align: "right" },
        { title: t("wxbill.settlementTotal"), dataIndex: "settlementTotal", align: "right" },
        { title: t("wxbill.refundCount"), dataIndex: "refundCount", align: "right" },
        { title: t("wxbill.refundTotal"), dataIndex: "refundTotal", align: "right" },
      ],
    },
    {
      // What the ledger says came in through the channel: online orders and counter recharges apart.
      title: side("wxbill.ledgerSide"),
      children: [
        { title: side("wxbill.localCount"), dataIndex: "localCount", align: "right" },
        { title: side("wxbill.localTotal"), dataIndex: "localTotal", align: "right" },
        { title: side("wxbill.counterCount"), dataIndex: "counterCount", align: "right" },
        { title: side("wxbill.counterTotal"), dataIndex: "counterTotal", align: "right" },
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
    channelColumn,
    {
      title: t("wxbill.kind"),
      dataIndex: "kind",
      render: (value: string, row) => kindLabel(value, row.channel),
    },
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
    { title: side("wxbill.transactionId"), dataIndex: "transactionId" },
    { title: side("wxbill.wechatAmount"), dataIndex: "wechatAmount", align: "right" },
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
          <Select
            aria-label={t("wxbill.reconcileChannel")}
            style={{ width: 130 }}
            value={channel}
            onChange={(value: string) => setChannel(value)}
            options={CHANNELS.map((value) => ({ value, label: label("wxbill.channel", value) }))}
            data-testid="wxbill-reconcile-channel"
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
      <Card
        size="small"
        title={t("wxbill.bills")}
        extra={
          <Select
            aria-label={t("wxbill.channel")}
            style={{ width: 170 }}
            value={filter.channel ?? ""}
            onChange={(value: string) =>
              setFilter((current) => ({ ...current, channel: value || undefined, kind: undefined }))
            }
            options={[
              { value: "", label: `${t("wxbill.channel")}: ${t("wxbill.any")}` },
              ...CHANNELS.map((value) => ({ value, label: label("wxbill.channel", value) })),
            ]}
            data-testid="wxbill-channel-filter"
          />
        }
      >
        {/* Wider than the screen with both sides of the bill: scrolled in a focusable region. */}
        <ScrollRegion label={t("wxbill.bills")}>
          <Table<Bill>
            rowKey="id"
            size="small"
            columns={billColumns}
            dataSource={bills}
            loading={loading}
            pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
            locale={{ emptyText: <Empty description={t("wxbill.noBills")} /> }}
            data-testid="wxbill-bills"
          />
        </ScrollRegion>
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
                // One channel listed: the other channel's "paid there only" kind cannot occur.
                ...KINDS.filter(
                  (kind) =>
                    !filter.channel ||
                    !Object.values(ONLY_KIND).includes(kind) ||
                    ONLY_KIND[filter.channel] === kind,
                ).map((kind) => ({ value: kind, label: kindLabel(kind, filter.channel ?? "any") })),
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
        <ScrollRegion label={t("wxbill.diffs")}>
          <Table<BillDiff>
            rowKey="id"
            size="small"
            columns={diffColumns}
            dataSource={diffs}
            loading={loading}
            pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
            locale={{ emptyText: <Empty description={t("wxbill.noDiffs")} /> }}
            data-testid="wxbill-diffs"
          />
        </ScrollRegion>
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
