import { type RegistrationRow, resources } from "@meterline/contracts";
import { Form, Input, Modal } from "antd";
import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { RefPicker } from "../../crud/RefPicker.tsx";
import { useT } from "../../i18n/index.tsx";
import { approveRegistration, rejectRegistration } from "./registration-calls.ts";

const csv = (value: unknown) => (Array.isArray(value) ? value.join(",") : String(value ?? ""));

/** Approve: the roles and departments the new user gets (both required, of this tenant). */
export function ApproveDialog({ row, onDone }: { row: RegistrationRow; onDone: (changed: boolean) => void }) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<{ roleId: unknown; deptId: unknown }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setBusy(true);
    try {
      await approveRegistration(row.id, csv(values.roleId), csv(values.deptId));
      message.success(t("registration.approved"));
      onDone(true);
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t("registration.approveTitle", { account: row.account })}
      okText={t("registration.approve")}
      confirmLoading={busy}
      onOk={submit}
      onCancel={() => onDone(false)}
    >
      <Form form={form} layout="vertical" data-testid="registration-approve-form">
        <Form.Item
          name="roleId"
          label={t("registration.role")}
          rules={[{ required: true, message: t("registration.roleRequired") }]}
        >
          <RefPicker name="roleId" field={resources.user.fields.roleId} data-testid="registration-role" />
        </Form.Item>
        <Form.Item
          name="deptId"
          label={t("registration.dept")}
          rules={[{ required: true, message: t("registration.deptRequired") }]}
        >
          <RefPicker name="deptId" field={resources.user.fields.deptId} data-testid="registration-dept" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Reject: the reason is kept on the application and shown in the list. */
export function RejectDialog({ row, onDone }: { row: RegistrationRow; onDone: (changed: boolean) => void }) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setBusy(true);
    try {
      await rejectRegistration(row.id, values.reason.trim());
      message.success(t("registration.rejected"));
      onDone(true);
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t("registration.rejectTitle", { account: row.account })}
      okText={t("registration.reject")}
      okButtonProps={{ danger: true }}
      confirmLoading={busy}
      onOk={submit}
      onCancel={() => onDone(false)}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t("registration.reason")}
          rules={[{ required: true, whitespace: true, message: t("registration.reasonRequired") }]}
        >
          <Input.TextArea maxLength={255} rows={3} data-testid="registration-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
