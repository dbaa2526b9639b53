import { Alert, Button, Card, Form, Input, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { useT } from "../../../i18n/index.tsx";
import { type MoneyPolicy, saveWarnDays } from "./approval-calls.ts";

/** Whole days from 0 to 30, or nothing (off); the server refuses anything else by name too. */
const DAYS_PATTERN = /^(\d|[12]\d|30)$/;

/**
 * 余额用尽预警 beside the money policy: how many days before an account's forecast cut its owner is
 * texted (once per fall of the balance) and the owner page warns. 0 or empty turns it off.
 */
export function WarnDaysCard({
  policy,
  mayEdit,
  onSaved,
}: {
  policy: MoneyPolicy;
  mayEdit: boolean;
  onSaved: (policy: MoneyPolicy) => void;
}) {
  const t = useT();
  const { message } = useFeedback();
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ warnDays: string }>();

  useEffect(() => {
    form.setFieldsValue({ warnDays: String(policy.warnDays) });
  }, [form, policy.warnDays]);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      onSaved(await saveWarnDays(values.warnDays?.trim() ?? ""));
      message.success(t("moneyPolicy.saved"));
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t("moneyPolicy.warnTitle")} data-testid="money-policy-warn">
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Alert
          type={policy.warnDays > 0 ? "info" : "warning"}
          showIcon
          data-testid="money-policy-warn-state"
          data-days={policy.warnDays}
          title={
            policy.warnDays > 0
              ? t("moneyPolicy.warnOn", { days: policy.warnDays })
              : t("moneyPolicy.warnOff")
          }
          description={
            policy.warnDaysOwn
              ? t("moneyPolicy.warnOwn")
              : t("moneyPolicy.warnInherited", { days: policy.warnDaysDefault })
          }
        />
        <Form<{ warnDays: string }>
          form={form}
          layout="horizontal"
          labelCol={{ span: 4 }}
          wrapperCol={{ span: 12 }}
          disabled={!mayEdit}
          onFinish={() => void save().catch(() => undefined)}
        >
          <Form.Item
            name="warnDays"
            label={t("moneyPolicy.warnDays")}
            extra={t("moneyPolicy.warnDaysHelp")}
            rules={[
              {
                validator: (_, value: string | undefined) =>
                  !value?.trim() || DAYS_PATTERN.test(value.trim())
                    ? Promise.resolve()
                    : Promise.reject(new Error(t("moneyPolicy.warnDaysPattern"))),
              },
            ]}
          >
            <Input inputMode="numeric" allowClear data-testid="money-policy-warn-days" />
          </Form.Item>
          {mayEdit ? (
            <Form.Item wrapperCol={{ offset: 4 }}>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="money-policy-warn-save">
                {t("moneyPolicy.warnSave")}
              </Button>
            </Form.Item>
          ) : (
            <Typography.Text type="secondary">{t("moneyPolicy.readOnly")}</Typography.Text>
          )}
        </Form>
      </Space>
    </Card>
  );
}
