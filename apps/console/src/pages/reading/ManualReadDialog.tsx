import type { ResourceDef } from "@meterline/contracts";
import { DatePicker, Form, Input, Modal, Space } from "antd";
import type { Dayjs } from "dayjs";
import { useMemo, useState } from "react";
import { useFeedback } from "../../app/feedback.ts";
import { ResourceFormProvider, type ResourceFormScope } from "../../crud/form-context.ts";
import { RefPicker } from "../../crud/RefPicker.tsx";
import { serverFieldError } from "../../crud/server-field-error.ts";
import { validatedValues } from "../../crud/validated.ts";
import { useT } from "../../i18n/index.tsx";
import { type ReadingKind, submitManualRead } from "./reading-fix-calls.ts";

interface Props {
  /** The reading screen's resource: its meter link is the picker (by number, within the tenant). */
  def: ResourceDef;
  kind: ReadingKind;
  onClose: (saved: boolean) => void;
}

const BANDS = ["tipValue", "peakValue", "peaceValue", "lowValue"] as const;
const BAND_LABEL = { tipValue: "tip", peakValue: "peak", peaceValue: "peace", lowValue: "low" } as const;
/** As the server takes registers: non-negative, at most two decimals. */
const REGISTER = /^\d{1,10}(\.\d{1,2})?$/;

interface Values {
  meterId?: string;
  totalValue?: string;
  readTime?: Dayjs;
  tipValue?: string;
  peakValue?: string;
  peaceValue?: string;
  lowValue?: string;
}

/**
 * Enter a read by hand (spec §7 dataread / waterdataread submit): the meter, its register, and when
 * it was read. The server refuses a register lower than an earlier read or higher than a later one,
 * naming the field; that reason is shown under the field and the dialog keeps what was typed.
 */
export function ManualReadDialog({ def, kind, onClose }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const scope = useMemo<ResourceFormScope>(() => ({ def, purpose: "search" }), [def]);
  const meterField = def.fields.meterId;
  const registerRule = { pattern: REGISTER, message: t("readingFix.registerFormat") };

  const save = async () => {
    const values = await validatedValues(form);
    if (!values) return;
    setSaving(true);
    try {
      const bands = kind === "electric" ? BANDS.filter((b) => values[b]) : [];
      await submitManualRead(kind, {
        meterId: String(values.meterId),
        totalValue: String(values.totalValue).trim(),
        ...(values.readTime ? { readTime: values.readTime.format("YYYY-MM-DD HH:mm:ss") } : {}),
        ...Object.fromEntries(bands.map((b) => [b, String(values[b]).trim()])),
      });
      message.success(t("readingFix.added"));
      onClose(true);
    } catch (error) {
      // The API bridge showed the failure; a refusal naming a field is shown under it as well.
      const named = serverFieldError(error, { meterId: 1, totalValue: 1, readTime: 1, ...BAND_LABEL });
      if (named) form.setFields([{ name: named.name as keyof Values, errors: [named.reason] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t("readingFix.addTitle")}
      onOk={save}
      onCancel={() => onClose(false)}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "manual-read-ok" }}
      destroyOnHidden
    >
      <ResourceFormProvider value={scope}>
        <Form form={form} layout="vertical" data-testid="manual-read-form">
          {meterField && (
            <Form.Item
              name="meterId"
              label={t("readingFix.meter")}
              rules={[{ required: true, message: t("readingFix.meterRequired") }]}
            >
              <RefPicker name="meterId" field={meterField} data-testid="manual-read-meter" />
            </Form.Item>
          )}
          <Form.Item
            name="totalValue"
            label={t("readingFix.total")}
            rules={[{ required: true, message: t("readingFix.totalRequired") }, registerRule]}
          >
            <Input inputMode="decimal" data-testid="manual-read-total" />
          </Form.Item>
          {kind === "electric" && (
            <Form.Item label={t("readingFix.bands")}>
              <Space>
                {BANDS.map((band) => (
                  <Form.Item key={band} name={band} noStyle rules={[registerRule]}>
                    <Input
                      inputMode="decimal"
                      placeholder={t(`readingFix.${BAND_LABEL[band]}`)}
                      style={{ width: 88 }}
                    />
                  </Form.Item>
                ))}
              </Space>
            </Form.Item>
          )}
          <Form.Item name="readTime" label={t("readingFix.time")} extra={t("readingFix.timeHint")}>
            <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" data-testid="manual-read-time" />
          </Form.Item>
        </Form>
      </ResourceFormProvider>
    </Modal>
  );
}
