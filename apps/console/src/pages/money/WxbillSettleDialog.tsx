import { Form, Input, Modal, Select } from "antd";
import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { type MessageKey, useI18n } from "../../i18n/index.tsx";
import { type BillDiff, settleDiff } from "./wxbill-calls.ts";

/** Which settlement fits which kind (the server checks the same); the first is proposed. */
const ACTIONS: Record<string, string[]> = {
  wechat_only: ["book", "acknowledge"],
  alipay_only: ["book", "acknowledge"],
  local_only: ["reverse", "acknowledge"],
  amount: ["correct", "acknowledge"],
  counter_only: ["acknowledge", "reverse"],
};
const REASON_MAX = 200;

interface Props {
  diff: BillDiff | null;
  onClose: () => void;
  onSettled: () => Promise<void>;
}

/** Settles one difference: the action its kind allows and a reason, always required. */
export function WxbillSettleDialog({ diff, onClose, onSettled }: Props) {
  const { t } = useI18n();
  const { message } = useFeedback();
  const [form] = Form.useForm<{ action: string; reason: string }>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!diff) return;
    let values: { action: string; reason: string };
    try {
      values = await form.validateFields();
    } catch {
      // The form shows what is wrong next to the field.
      return;
    }
    setBusy(true);
    let held = false;
    try {
      held = (await settleDiff(diff.id, values.action, values.reason.trim())).held;
    } catch (failure) {
      // Server refusals were shown by the API bridge; the dialog stays for another try.
      reportNetworkError(failure);
      setBusy(false);
      return;
    }
    setBusy(false);
    message.success(t(held ? "wxbill.held" : "wxbill.settled"));
    await onSettled();
  };

  return (
    <Modal
      open={diff !== null}
      title={t("wxbill.settle.title", {
        no: (diff?.kind === "counter_only" ? diff.receiptNo : diff?.outTradeNo) ?? "",
      })}
      okText={t("wxbill.settle")}
      okButtonProps={{ loading: busy, "data-testid": "wxbill-settle-ok" }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {/* Mounted afresh at each opening (destroyOnHidden): the proposed action is the kind's first. */}
      <Form
        form={form}
        layout="vertical"
        name="wxbillSettle"
        initialValues={{ action: ACTIONS[diff?.kind ?? ""]?.[0] ?? "acknowledge", reason: "" }}
      >
        <Form.Item name="action" label={t("wxbill.action")} rules={[{ required: true }]}>
          <Select
            options={(ACTIONS[diff?.kind ?? ""] ?? []).map((action) => ({
              value: action,
              label: t(`wxbill.action.${action}` as MessageKey),
            }))}
            data-testid="wxbill-action"
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t("wxbill.reason")}
          rules={[
            { required: true, whitespace: true, message: t("wxbill.reasonRequired") },
            { max: REASON_MAX },
          ]}
        >
          <Input.TextArea maxLength={REASON_MAX} rows={3} data-testid="wxbill-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
