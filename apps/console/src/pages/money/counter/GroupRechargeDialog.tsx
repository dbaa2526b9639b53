import { Alert, Form, Modal, Radio, Result, Select, Table } from "antd";
import { useCallback, useState } from "react";
import { describeError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { useLoaded } from "../../../components/useLoaded.ts";
import { useT } from "../../../i18n/index.tsx";
import { type GroupRecharged, newIdempotencyKey, ownerGroups, submitGroupRecharge } from "./counter-calls.ts";
import { PaymentFields } from "./PaymentFields.tsx";
import { usePaymentMethods } from "./payment-methods.ts";

interface Values {
  ownerGroupId: string;
  energyType: string;
  amount: string;
  paymentMethod: string;
  remark?: string;
}

/**
 * Recharges every owner of an owner group with the same amount in one operation (all or nothing),
 * after a confirmation, and lists the receipts it booked. One idempotency key per opening.
 */
export function GroupRechargeDialog({ onClose }: { onClose: (booked: boolean) => void }) {
  const t = useT();
  const { modal } = useFeedback();
  const methods = usePaymentMethods();
  const [form] = Form.useForm<Values>();
  const [key] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<GroupRecharged>();
  const groups = useLoaded(useCallback(() => ownerGroups(), []));

  // The platform administrator's groups span tenants: each is booked in its own tenant.
  const groupOf = (id: string) => groups.data?.find((g) => g.id === id);

  const book = async (values: Values) => {
    setBusy(true);
    setError(undefined);
    try {
      setDone(
        await submitGroupRecharge(
          {
            ownerGroupId: values.ownerGroupId,
            energyType: values.energyType,
            amount: values.amount.trim(),
            paymentMethod: values.paymentMethod,
            remark: (values.remark ?? "").trim(),
            idempotencyKey: key,
          },
          groupOf(values.ownerGroupId)?.tenantId,
        ),
      );
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  const submit = (values: Values) => {
    const group = groupOf(values.ownerGroupId)?.groupName ?? "";
    modal.confirm({
      title: t("counter.groupTitle"),
      content: t("counter.groupConfirm", {
        group,
        energy: t(values.energyType === "2" ? "counter.energy.2" : "counter.energy.1"),
        amount: values.amount.trim(),
      }),
      okText: t("counter.form.submit", { type: t("counter.recharge") }),
      okButtonProps: { "data-testid": "counter-group-confirm-ok" },
      onOk: () => book(values),
    });
  };

  return (
    <Modal
      open
      title={t("counter.groupTitle")}
      onCancel={() => onClose(Boolean(done))}
      onOk={done ? () => onClose(true) : () => form.submit()}
      okText={done ? t("counter.close") : t("counter.form.submit", { type: t("counter.recharge") })}
      okButtonProps={{ loading: busy, disabled: !done && Boolean(groups.error) }}
      maskClosable={false}
      width={640}
      destroyOnHidden
    >
      {groups.error && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t("counter.groupLoadFailed")}
          description={groups.error}
        />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t("counter.groupUnavailable")}
          description={`${error} · ${t("counter.failedHint")}`}
          style={{ marginBottom: 12 }}
        />
      )}
      {done ? (
        <>
          <Result status="success" title={t("counter.groupDone", { count: done.count, total: done.total })} />
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ y: 240 }}
            dataSource={done.recharges}
            columns={[
              {
                title: t("counter.receiptNo"),
                dataIndex: "receiptNo",
                render: (no: string) => <span className="counter-code">{no}</span>,
              },
              { title: t("counter.owner"), dataIndex: "ownerName" },
              {
                title: t("counter.meter"),
                dataIndex: "productCode",
                render: (code: string) => <span className="counter-code">{code}</span>,
              },
              { title: t("counter.receiptAmount"), dataIndex: "amount", align: "right" },
              { title: t("counter.receiptBalance"), dataIndex: "balanceAfter", align: "right" },
            ]}
          />
        </>
      ) : (
        <Form<Values>
          form={form}
          layout="vertical"
          disabled={busy}
          initialValues={{ energyType: "1", paymentMethod: "1" }}
          onFinish={submit}
        >
          <Form.Item
            name="ownerGroupId"
            label={t("counter.groupName")}
            rules={[{ required: true, message: t("counter.groupRequired") }]}
          >
            <Select
              loading={groups.loading}
              showSearch={{ optionFilterProp: "label" }}
              options={(groups.data ?? []).map((g) => ({
                value: g.id,
                label: g.tenantName ? `${g.groupName} · ${g.tenantName}` : g.groupName,
              }))}
            />
          </Form.Item>
          <Form.Item name="energyType" label={t("counter.groupEnergy")}>
            <Radio.Group
              options={[
                { value: "1", label: t("counter.energy.1") },
                { value: "2", label: t("counter.energy.2") },
              ]}
            />
          </Form.Item>
          <PaymentFields methods={methods} />
        </Form>
      )}
    </Modal>
  );
}
