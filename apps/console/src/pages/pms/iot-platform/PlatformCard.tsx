import { Button, Card, Form, Input, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import {
  type Platform,
  type PlatformConfig,
  type PlatformValues,
  pushUrl,
  savePlatform,
} from "./iot-calls.ts";
import { type ConfigField, PLATFORM_FIELDS } from "./platform-fields.ts";

/** A solid dark green with white text: antd's light green preset falls below 4.5:1 at tag size. */
const CONFIGURED_COLOUR = "#237804";
const URL_PATTERN = /^https?:\/\/\S+$/;
const URL_FIELDS: readonly ConfigField[] = ["baseUrl", "authUrl"];

type FormValues = Record<ConfigField, string | undefined>;

/** The form's values of a stored configuration (secrets as their masks, which the server keeps). */
const formValuesOf = (config: PlatformConfig | null): Partial<FormValues> =>
  config
    ? {
        baseUrl: config.baseUrl,
        authUrl: config.authUrl ?? "",
        appId: config.appId,
        account: config.account ?? "",
        appSecret: config.appSecret,
        pushToken: config.pushToken,
      }
    : {};

/**
 * One platform's card: its settings as a form, saved on their own, and the address the platform
 * must push to. A secret comes back masked; sent back untouched it keeps the stored one.
 */
export function PlatformCard({
  platform,
  config,
  tenantId,
  mayEdit,
  onSaved,
}: {
  platform: Platform;
  config: PlatformConfig | null;
  tenantId: string;
  mayEdit: boolean;
  onSaved: (platform: Platform) => Promise<void>;
}) {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const fields = PLATFORM_FIELDS[platform];
  const name = t(`iotPlatform.platform.${platform}` as MessageKey);
  const address = pushUrl(window.location.origin, platform, tenantId);
  // IoTDA signs nothing: its forwarding rule's URL carries the token the push is checked by.
  const copied = platform === "iotda" ? `${address}?token=` : address;

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(formValuesOf(config));
  }, [form, config]);

  const save = async () => {
    const values = await form.validateFields();
    const text = (field: ConfigField) => values[field]?.trim() ?? "";
    const body: PlatformValues = {
      baseUrl: text("baseUrl"),
      appId: text("appId"),
      appSecret: text("appSecret"),
      pushToken: text("pushToken"),
      ...(fields.some((f) => f.name === "account") ? { account: text("account") } : {}),
      ...(fields.some((f) => f.name === "authUrl") ? { authUrl: text("authUrl") } : {}),
    };
    setSaving(true);
    try {
      await savePlatform(platform, body);
      message.success(t("iotPlatform.saved", { platform: name }));
      await onSaved(platform);
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      size="small"
      title={name}
      data-testid={`iot-platform-${platform}`}
      data-configured={config ? "1" : "0"}
      extra={
        <Tag color={config ? CONFIGURED_COLOUR : "default"}>
          {config ? t("iotPlatform.configured") : t("iotPlatform.notConfigured")}
        </Tag>
      }
    >
      <Form<FormValues>
        form={form}
        name={`iot-${platform}`}
        layout="horizontal"
        labelCol={{ xs: 24, md: 6 }}
        wrapperCol={{ xs: 24, md: 16 }}
        disabled={!mayEdit}
        onFinish={() => void save().catch(() => undefined)}
      >
        <Form.Item
          label={t("iotPlatform.pushUrl")}
          extra={t(`iotPlatform.pushUrlHelp.${platform}` as MessageKey)}
        >
          <Typography.Text copyable={{ text: copied }} code data-testid={`iot-push-url-${platform}`}>
            {copied}
          </Typography.Text>
        </Form.Item>
        {fields.map((field) => {
          const label = t(field.label);
          return (
            <Form.Item
              key={field.name}
              name={field.name}
              label={label}
              extra={
                field.secret
                  ? config
                    ? t("iotPlatform.secretHelp")
                    : undefined
                  : field.help && t(field.help)
              }
              rules={[
                ...(field.required
                  ? [
                      {
                        required: true,
                        whitespace: true,
                        message: t("iotPlatform.required", { field: label }),
                      },
                    ]
                  : []),
                ...(URL_FIELDS.includes(field.name)
                  ? [{ pattern: URL_PATTERN, message: t("iotPlatform.urlPattern") }]
                  : []),
              ]}
            >
              <Input
                placeholder={field.placeholder}
                autoComplete="off"
                maxLength={field.name === "appId" || field.name === "account" ? 128 : 255}
              />
            </Form.Item>
          );
        })}
        {mayEdit ? (
          <Form.Item wrapperCol={{ xs: 24, md: { span: 16, offset: 6 } }}>
            <Button type="primary" htmlType="submit" loading={saving} data-testid={`iot-save-${platform}`}>
              {t("iotPlatform.save")}
            </Button>
          </Form.Item>
        ) : null}
      </Form>
    </Card>
  );
}
