import type { Row } from "@meterline/api-client";
import { Button, Form, Input, Modal, Space } from "antd";
import { useMemo, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { type MessageKey, type Translate, useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { amountProblem, fenToYuan, yuanToFen } from "./counter/money-text.ts";
import { type MoneyColumn, MoneyTable, type Totals } from "./MoneyTable.tsx";
import { refundWxpay, wxpayList } from "./money-calls.ts";
import { WxpayOrderDialog } from "./WxpayOrderDialog.tsx";

/** WXPAY_STATE: 0 unpaid, 1 paid (recharge booked), 2 closed, 3 failed. */
const STATES: [string, MessageKey][] = [
  ["0", "wxpay.state.unpaid"],
  ["1", "wxpay.state.paid"],
  ["2", "wxpay.state.closed"],
  ["3", "wxpay.state.failed"],
];
const TRADE_TYPES: [string, MessageKey][] = [
  ["jsapi", "wxpay.tradeType.jsapi"],
  ["native", "wxpay.tradeType.native"],
  ["micropay", "wxpay.tradeType.micropay"],
];
const labelOf = (t: Translate, list: [string, MessageKey][], value: unknown) => {
  const found = list.find(([key]) => key === String(value));
  return found ? t(found[1]) : String(value ?? "");
};
/** A refund above the tenant's approval threshold waits for a second person (nothing booked yet). */
const REFUND_HELD = "APPROVAL";
const rowTenant = (row: Row) => (typeof row.tenantId === "string" ? row.tenantId : undefined);
/** Yuan text to fen (exact), 0 for anything unreadable. */
const fen = (text: unknown) => yuanToFen(String(text ?? "0")) ?? 0n;
const yuan = fenToYuan;

/** 微信支付订单 (spec §7 wxpay): orders with owner, room, meter, booked recharge and refunds; refund button. */
export default function WxpayPage() {
  const { t } = useI18n();
  const { message } = useFeedback();
  const canRefund = useConsole((state) => Boolean(state.permission.wxpay_refund));
  const [refunding, setRefunding] = useState<{ row: Row; reload: () => Promise<void> } | null>(null);
  const [form] = Form.useForm<{ amount: string; reason: string }>();
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<{ id: string; tenantId?: string } | null>(null);
  const choices = useMemo(
    () => ({
      stateOptions: STATES.map(([value, key]) => ({ value, label: t(key) })),
      tradeTypeOptions: TRADE_TYPES.map(([value, key]) => ({ value, label: t(key) })),
    }),
    [t],
  );
  const refundable = (row: Row) => fen(row.amount) - fen(row.refundAmount);
  const columns: MoneyColumn[] = [
    { key: "outTradeNo", title: t("wxpay.outTradeNo"), kind: "id" },
    { key: "createTime", title: t("moneyList.createTime"), kind: "id" },
    {
      key: "tradeType",
      title: t("wxpay.tradeType"),
      render: (row) => labelOf(t, TRADE_TYPES, row.tradeType),
    },
    { key: "ownerName", title: t("moneyList.owner") },
    { key: "roomName", title: t("moneyList.room") },
    { key: "productCode", title: t("moneyList.meterNo"), kind: "id" },
    { key: "amount", title: t("moneyList.amount"), kind: "money" },
    { key: "state", title: t("moneyList.state"), render: (row) => labelOf(t, STATES, row.state) },
    { key: "paidTime", title: t("moneyList.payTime"), kind: "id" },
    { key: "receiptNo", title: t("wxpay.receiptNo"), kind: "id" },
    { key: "refundAmount", title: t("wxpay.refundAmount"), kind: "money" },
    { key: "transactionId", title: t("wxpay.transactionId"), kind: "id" },
  ];
  const totalsLines = (totals: Totals) => [
    `${t("wxpay.state.paid")} ${String(totals.paid ?? "0.00")}`,
    `${t("wxpay.state.unpaid")} ${String(totals.unpaid ?? "0.00")}`,
    `${t("wxpay.refunded")} ${String(totals.refunded ?? "0.00")}`,
  ];
  const submitRefund = async () => {
    if (!refunding) return;
    let values: { amount: string; reason?: string };
    try {
      values = await form.validateFields();
    } catch {
      // The form shows what is wrong next to the field.
      return;
    }
    setBusy(true);
    let held = false;
    try {
      const answer = await refundWxpay(
        String(refunding.row.id),
        values.amount.trim(),
        values.reason?.trim() ?? "",
        rowTenant(refunding.row),
      );
      held = answer.status === REFUND_HELD;
    } catch (failure) {
      // Server refusals were toasted by the API bridge; the dialog stays for another try.
      reportNetworkError(failure);
      setBusy(false);
      return;
    }
    setBusy(false);
    const { reload } = refunding;
    setRefunding(null);
    await reload();
    if (held) message.info(t("moneyApproval.wxRefundHeld"));
    else message.success(t("wxpay.refunded.done"));
  };
  return (
    <>
      <MoneyTable
        name="wxpay"
        title={t("menu.wxpay")}
        calls={wxpayList}
        filters={[
          "areaId",
          "roomId",
          "ownerName",
          "productCode",
          "outTradeNo",
          "tradeType",
          "state",
          "period",
        ]}
        choices={choices}
        columns={columns}
        totalsCells={(totals) => ({ amount: totalsLines(totals).join(" · ") })}
        totalsLine={(totals) => totalsLines(totals).join(" · ")}
        rowActions={(row, reload) => (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              data-testid="wxpay-detail"
              onClick={() => setShown({ id: String(row.id), tenantId: rowTenant(row) })}
            >
              {t("moneyList.detail")}
            </Button>
            {canRefund && String(row.state) === "1" && refundable(row) > 0n && (
              <Button
                type="link"
                size="small"
                danger
                data-testid="wxpay-refund"
                onClick={() => {
                  form.setFieldsValue({ amount: yuan(refundable(row)), reason: "" });
                  setRefunding({ row, reload });
                }}
              >
                {t("wxpay.refund")}
              </Button>
            )}
          </Space>
        )}
      />
      {shown && (
        <WxpayOrderDialog
          {...shown}
          stateLabel={(state) => labelOf(t, STATES, state)}
          onClose={() => setShown(null)}
        />
      )}
      <Modal
        open={refunding !== null}
        title={t("wxpay.refund.title", { no: String(refunding?.row.outTradeNo ?? "") })}
        okText={t("wxpay.refund")}
        okButtonProps={{ danger: true, loading: busy, "data-testid": "wxpay-refund-ok" }}
        onOk={() => void submitRefund()}
        onCancel={() => setRefunding(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" name="wxpayRefund">
          <Form.Item
            name="amount"
            label={t("wxpay.refund.amount", { max: refunding ? yuan(refundable(refunding.row)) : "" })}
            rules={[
              {
                validator: async (_rule, value: string | undefined) => {
                  const problem = amountProblem(value ?? "");
                  if (problem) throw new Error(t(`counter.amount.${problem}`));
                  if (refunding && fen(value) > refundable(refunding.row))
                    throw new Error(t("wxpay.refund.over"));
                },
              },
            ]}
          >
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="reason" label={t("wxpay.refund.reason")} rules={[{ max: 80 }]}>
            <Input maxLength={80} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
