import type { Row } from "@meterline/api-client";
import { Button, Descriptions, Empty, Modal, Spin, Table, Typography } from "antd";
import { useCallback } from "react";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useLoaded } from "../../components/useLoaded.ts";
import { type MessageKey, type Translate, useI18n } from "../../i18n/index.tsx";
import { loadWxpayOrder } from "./money-calls.ts";
import { ScrollRegion } from "./ScrollRegion.tsx";

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/**
 * A refund's state in words: WeChat Pay's own (PROCESSING, SUCCESS, CLOSED, ABNORMAL) and ours before
 * it is sent (APPROVAL waiting for a second person, APPROVED about to be sent, REJECTED never sent).
 */
const REFUND_STATES = ["PROCESSING", "SUCCESS", "CLOSED", "ABNORMAL", "APPROVAL", "APPROVED", "REJECTED"];
export const refundStateLabel = (t: Translate, status: unknown) =>
  REFUND_STATES.includes(String(status))
    ? t(`wxpay.refundState.${String(status)}` as MessageKey)
    : text(status);

/** One WeChat Pay order (wxpay/detail) with each of its refunds and where it stands. */
export function WxpayOrderDialog({
  id,
  tenantId,
  stateLabel,
  onClose,
}: {
  id: string;
  /** The order's tenant, for the platform administrator reading another tenant's. */
  tenantId?: string;
  stateLabel: (state: unknown) => string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const load = useCallback(() => loadWxpayOrder(id, tenantId), [id, tenantId]);
  const { data, error, loading } = useLoaded(load);
  const refunds: Row[] = Array.isArray(data?.refunds) ? (data.refunds as Row[]) : [];

  let body = <Spin spinning />;
  if (error) body = <LoadFailed error={error} />;
  else if (data && !loading)
    body = (
      <>
        <Descriptions
          size="small"
          bordered
          column={2}
          items={[
            { key: "no", label: t("wxpay.outTradeNo"), children: text(data.outTradeNo) },
            { key: "state", label: t("moneyList.state"), children: stateLabel(data.state) },
            { key: "owner", label: t("moneyList.owner"), children: text(data.ownerName) },
            { key: "room", label: t("moneyList.room"), children: text(data.roomName) },
            { key: "meter", label: t("moneyList.meterNo"), children: text(data.productCode) },
            { key: "amount", label: t("moneyList.amount"), children: text(data.amount) },
            { key: "paid", label: t("moneyList.payTime"), children: text(data.paidTime) || "-" },
            { key: "receipt", label: t("wxpay.receiptNo"), children: text(data.receiptNo) || "-" },
            {
              key: "transaction",
              label: t("wxpay.transactionId"),
              span: 2,
              children: text(data.transactionId) || "-",
            },
          ]}
        />
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t("wxpay.refunds")}
        </Typography.Title>
        <ScrollRegion label={t("wxpay.refunds")}>
          <Table<Row>
            rowKey="outRefundNo"
            size="small"
            pagination={false}
            dataSource={refunds}
            data-testid="wxpay-order-refunds"
            locale={{ emptyText: <Empty description={t("wxpay.noRefunds")} /> }}
            columns={[
              {
                key: "outRefundNo",
                dataIndex: "outRefundNo",
                title: t("wxpay.outRefundNo"),
                className: "ml-nowrap",
              },
              { key: "amount", dataIndex: "amount", title: t("moneyList.amount"), align: "right" },
              {
                key: "status",
                title: t("moneyList.state"),
                className: "ml-nowrap",
                render: (_, row) => refundStateLabel(t, row.status),
              },
              { key: "reason", dataIndex: "reason", title: t("wxpay.refund.reason") },
              {
                key: "operator",
                dataIndex: "operator",
                title: t("moneyList.operator"),
                className: "ml-nowrap",
              },
              {
                key: "createTime",
                dataIndex: "createTime",
                title: t("moneyList.createTime"),
                className: "ml-nowrap",
              },
            ]}
          />
        </ScrollRegion>
      </>
    );

  return (
    <Modal
      open
      title={t("wxpay.detail", { no: text(data?.outTradeNo) })}
      onCancel={onClose}
      width={860}
      footer={<Button onClick={onClose}>{t("moneyList.close")}</Button>}
      data-testid="wxpay-order"
    >
      {body}
    </Modal>
  );
}
