import { type RegistrationRow, resources } from "@meterline/contracts";
import { Form, type FormInstance, Input, Modal } from "antd";
import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { RefPicker } from "../../crud/RefPicker.tsx";
import { type MessageKey, useT } from "../../i18n/index.tsx";
import { approveRegistration, rejectRegistration } from "./registration-calls.ts";

const csv = (value: unknown) => (Array.isArray(value) ? value.join(",") : String(value ?? ""));

/**
 * A review dialog's OK: validate the form, send the decision, say so and close; a refused call is
 * reported and the dialog stays open.
 */
function useDecision<V>(
  form: FormInstance<V>,
  send: (values: V) => Promise<unknown>,
  done: MessageKey,
  onDone: (changed: boolean) => void,
) {
  const t = useT();
  const { message } = useFeedback();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setBusy(true);
    try {
      await send(values);
      message.success(t(done));
      onDone(true);
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, submit };
}

/** Approve: the roles and departments the new user gets (both required, of this tenant). */
export function ApproveDialog({ row, onDone }: { row: RegistrationRow; onDone: (changed: boolean) => void }) {
  const t = useT();
  const [form] = Form.useForm<{ roleId: unknown; deptId: unknown }>();
  const { busy, submit } = useDecision(
    form,
    (values) => approveRegistration(row.id, csv(values.roleId), csv(values.deptId)),
    "registration.approved",
    onDone,
  );
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
  const [form] = Form.useForm<{ reason: string }>();
  const { busy, submit } = useDecision(
    form,
    (values) => rejectRegistration(row.id, values.reason.trim()),
    "registration.rejected",
    onDone,
  );
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
