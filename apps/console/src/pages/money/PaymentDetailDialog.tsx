import type { Row } from "@meterline/api-client";
import { Button, Descriptions, Empty, Modal, Spin, Table, Typography } from "antd";
import { useCallback } from "react";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useLoaded } from "../../components/useLoaded.ts";
import { useI18n } from "../../i18n/index.tsx";
import { loadPaymentDetail } from "./money-calls.ts";
import { moneyFilterDef } from "./money-filters.ts";
import { channelLabel, paymentStateLabel, useDictionaryLabel } from "./money-labels.ts";
import { ScrollRegion } from "./ScrollRegion.tsx";

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/** One payment (payment/detail) with the recharges it paid for. */
export function PaymentDetailDialog({
  id,
  tenantId,
  onClose,
}: {
  id: string;
  /** The payment's tenant, for the platform administrator reading another tenant's. */
  tenantId?: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const load = useCallback(() => loadPaymentDetail(id, tenantId), [id, tenantId]);
  const { data, error, loading } = useLoaded(load);
  const method = useDictionaryLabel(moneyFilterDef.fields.paymentMethod);
  const rechargeType = useDictionaryLabel(moneyFilterDef.fields.rechargeType);
  const recharges: Row[] = data?.recharges ?? [];

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
            { key: "no", label: t("moneyList.transactionNo"), children: text(data.transactionNo) },
            { key: "state", label: t("moneyList.state"), children: paymentStateLabel(t, data.state) },
            { key: "owner", label: t("moneyList.owner"), children: text(data.ownerName) },
            { key: "meter", label: t("moneyList.meterNo"), children: text(data.productCode) },
            { key: "amount", label: t("moneyList.amount"), children: text(data.amount) },
            { key: "method", label: t("moneyList.paymentMethod"), children: method(data.paymentMethod) },
            { key: "channel", label: t("moneyList.channel"), children: channelLabel(t, data.channel) },
            { key: "paid", label: t("moneyList.payTime"), children: text(data.paidTime) || "-" },
          ]}
        />
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t("moneyList.paymentRecharges")}
        </Typography.Title>
        <ScrollRegion label={t("moneyList.paymentRecharges")}>
          <Table<Row>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={recharges}
            locale={{ emptyText: <Empty description={t("moneyList.noRecharges")} /> }}
            columns={[
              {
                key: "receiptNo",
                dataIndex: "receiptNo",
                title: t("moneyList.receiptNo"),
                className: "ml-nowrap",
              },
              {
                key: "rechargeType",
                title: t("moneyList.rechargeType"),
                className: "ml-nowrap",
                render: (_, row) => rechargeType(row.rechargeType),
              },
              { key: "amount", dataIndex: "amount", title: t("moneyList.amount"), align: "right" },
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
      title={t("moneyList.paymentDetail")}
      onCancel={onClose}
      width={760}
      footer={<Button onClick={onClose}>{t("moneyList.close")}</Button>}
      data-testid="payment-detail"
    >
      {body}
    </Modal>
  );
}
