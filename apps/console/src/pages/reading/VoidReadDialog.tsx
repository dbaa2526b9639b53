import type { Row } from "@meterline/api-client";
import { Form, Input, Modal } from "antd";
import { useState } from "react";
import { useFeedback } from "../../app/feedback.ts";
import { serverFieldError } from "../../crud/server-field-error.ts";
import { validatedValues } from "../../crud/validated.ts";
import { useT } from "../../i18n/index.tsx";
import { type ReadingKind, voidRead } from "./reading-fix-calls.ts";

interface Props {
  kind: ReadingKind;
  row: Row;
  onClose: (saved: boolean) => void;
}

/**
 * Void one read, hand-entered or the gateway's (spec §7 dataread / waterdataread remove): a reason
 * is required; the read stays in the log marked with who voided it, when and why.
 */
export function VoidReadDialog({ kind, row, onClose }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<{ reason?: string }>();
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const values = await validatedValues(form);
    if (!values) return;
    setSaving(true);
    try {
      await voidRead(kind, String(row.id), String(values.reason).trim());
      message.success(t("readingFix.voided"));
      onClose(true);
    } catch (error) {
      const named = serverFieldError(error, { reason: 1 });
      if (named) form.setFields([{ name: "reason", errors: [named.reason] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t("readingFix.voidTitle", {
        meter: String(row.productCode ?? ""),
        time: String(row.readTime ?? ""),
      })}
      onOk={save}
      onCancel={() => onClose(false)}
      confirmLoading={saving}
      okButtonProps={{ danger: true, "data-testid": "void-read-ok" }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t("readingFix.reason")}
          rules={[{ required: true, whitespace: true, message: t("readingFix.reasonRequired") }]}
        >
          <Input.TextArea maxLength={255} showCount rows={3} data-testid="void-read-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
