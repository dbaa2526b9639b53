import { resources } from "@meterline/contracts";
import { Alert, DatePicker, Form, InputNumber, Modal } from "antd";
import type { Dayjs } from "dayjs";
import { api } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useSaving } from "../../app/useSaving.ts";
import { DATE_TIME } from "../../crud/fields.ts";
import { fieldLabel } from "../../crud/labels.ts";
import { validatedValues } from "../../crud/validated.ts";
import { useI18n } from "../../i18n/index.tsx";

interface Values {
  accountNumber?: number | null;
  expireTime?: Dayjs | null;
}

const UNLIMITED = -1;

/**
 * 授权配置: the account limit and expiry of every ticked tenant at once (tenant/setting). A blank
 * limit is no limit (-1); a blank expiry never expires.
 */
export function TenantSettingDialog({
  tenantIds,
  onClose,
  onSaved,
}: {
  tenantIds: readonly string[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, language } = useI18n();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const { saving, save } = useSaving();
  const label = (name: "accountNumber" | "expireTime") => fieldLabel(resources.tenant, name, language);

  const submit = async () => {
    const values = await validatedValues(form);
    if (!values) return;
    await save(async () => {
      await api.post<unknown>("/api/blade-system/tenant/setting", undefined, {
        ids: tenantIds.join(","),
        accountNumber: values.accountNumber ?? UNLIMITED,
        expireTime: values.expireTime ? values.expireTime.format(DATE_TIME) : "",
      });
      message.success(t("tenant.settingSaved", { count: tenantIds.length }));
      onSaved();
    });
  };

  return (
    <Modal
      open
      title={t("tenant.settingTitle", { count: tenantIds.length })}
      width={480}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("crud.submit")}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "tenant-setting-ok" }}
      destroyOnHidden
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("tenant.settingHint")} />
      <Form form={form} layout="vertical" data-testid="tenant-setting-dialog">
        <Form.Item name="accountNumber" label={label("accountNumber")} extra={t("tenant.accountNumberHint")}>
          <InputNumber min={UNLIMITED} max={1_000_000} precision={0} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item name="expireTime" label={label("expireTime")} extra={t("tenant.expireTimeHint")}>
          <DatePicker showTime style={{ width: "100%" }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
