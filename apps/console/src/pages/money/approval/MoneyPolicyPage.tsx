import { Alert, Button, Card, Form, Input, Select, Space, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { PageLoading } from "../../../components/PageLoading.tsx";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { loadPolicy, type MoneyPolicy, savePolicy } from "./approval-calls.ts";
import { WarnDaysCard } from "./WarnDaysCard.tsx";

/** An amount in yuan with at most two decimals, or nothing (no approval). */
const THRESHOLD_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;

interface PolicyForm {
  threshold: string;
  approverRole: string;
}

/**
 * 资金审批设置: the tenant's own money policy. Refunds, corrections minus, WeChat Pay refunds and
 * closing refunds above the threshold wait for a holder of the approver role other than the
 * requester; clearing the threshold turns approval off for this tenant. Until the tenant saves its
 * own, the platform's defaults apply and are shown as such.
 */
export default function MoneyPolicyPage() {
  const t = useT();
  const { message } = useFeedback();
  const mayEdit = useConsole((state) => Boolean(state.permission.moneyPolicy_edit));
  const [policy, setPolicy] = useState<MoneyPolicy | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState<"save" | "clear" | null>(null);
  const [form] = Form.useForm<PolicyForm>();

  const show = useCallback(
    (loaded: MoneyPolicy) => {
      setPolicy(loaded);
      form.setFieldsValue({ threshold: loaded.threshold, approverRole: loaded.approverRole });
    },
    [form],
  );

  useEffect(() => {
    let live = true;
    loadPolicy()
      .then((loaded) => live && show(loaded))
      .catch((error: unknown) => {
        if (live) setFailed(true);
        reportNetworkError(error);
      });
    return () => {
      live = false;
    };
  }, [show]);

  const store = async (threshold: string, approverRole: string, kind: "save" | "clear") => {
    setSaving(kind);
    try {
      show(await savePolicy(threshold, approverRole));
      message.success(kind === "clear" ? t("moneyPolicy.cleared") : t("moneyPolicy.saved"));
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(null);
    }
  };

  const save = async () => {
    const values = await form.validateFields();
    await store(values.threshold?.trim() ?? "", values.approverRole, "save");
  };

  const clear = async () => {
    form.setFieldValue("threshold", "");
    await store("", form.getFieldValue("approverRole") ?? policy?.approverRole ?? "", "clear");
  };

  if (failed) return <Card>{t("moneyPolicy.loadFailed")}</Card>;
  if (!policy) return <PageLoading />;
  const defaults = t("moneyPolicy.defaults", {
    threshold: policy.defaults.threshold
      ? t("moneyPolicy.above", { amount: policy.defaults.threshold })
      : t("moneyPolicy.none"),
    role: policy.defaults.approverRole,
  });
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Card title={t("menu.moneyPolicy")} data-testid="money-policy">
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          <Alert
            type={policy.threshold ? "info" : "warning"}
            showIcon
            data-testid="money-policy-state"
            data-threshold={policy.threshold}
            title={
              policy.threshold
                ? t("moneyPolicy.on", { amount: policy.threshold, role: policy.approverRole })
                : t("moneyPolicy.off")
            }
            description={policy.own ? t("moneyPolicy.own") : `${t("moneyPolicy.inherited")} ${defaults}`}
          />
          <Form<PolicyForm>
            form={form}
            layout="horizontal"
            labelCol={{ span: 4 }}
            wrapperCol={{ span: 12 }}
            disabled={!mayEdit}
            onFinish={() => void save().catch(() => undefined)}
          >
            <Form.Item
              name="threshold"
              label={t("moneyPolicy.threshold")}
              extra={t("moneyPolicy.thresholdHelp")}
              rules={[
                {
                  validator: (_, value: string | undefined) =>
                    !value?.trim() || THRESHOLD_PATTERN.test(value.trim())
                      ? Promise.resolve()
                      : Promise.reject(new Error(t("moneyPolicy.thresholdPattern"))),
                },
              ]}
            >
              <Input inputMode="decimal" allowClear data-testid="money-policy-threshold" />
            </Form.Item>
            <Form.Item
              name="approverRole"
              label={t("moneyPolicy.role")}
              extra={t("moneyPolicy.roleHelp")}
              rules={[{ required: true, message: t("moneyPolicy.roleRequired") }]}
            >
              <Select
                data-testid="money-policy-role"
                options={policy.roles.map((role) => ({
                  value: role.roleAlias,
                  label: `${role.roleName} (${role.roleAlias})`,
                }))}
              />
            </Form.Item>
            {mayEdit ? (
              <Form.Item wrapperCol={{ offset: 4 }}>
                <Space>
                  <Button
                    type="primary"
                    htmlType="submit"
                    loading={saving === "save"}
                    disabled={saving !== null}
                    data-testid="money-policy-save"
                  >
                    {t("moneyPolicy.save")}
                  </Button>
                  <Button
                    loading={saving === "clear"}
                    disabled={saving !== null}
                    onClick={() => void clear()}
                    data-testid="money-policy-clear"
                  >
                    {t("moneyPolicy.clear")}
                  </Button>
                </Space>
              </Form.Item>
            ) : (
              <Typography.Text type="secondary">{t("moneyPolicy.readOnly")}</Typography.Text>
            )}
          </Form>
        </Space>
      </Card>
      <WarnDaysCard policy={policy} mayEdit={mayEdit} onSaved={setPolicy} />
    </Space>
  );
}
