import { Button, Card, Descriptions, Form, Input, Modal, Select, Typography } from "antd";
import { useCallback, useState } from "react";
import { useFeedback } from "../../app/feedback.ts";
import { useSaving } from "../../app/useSaving.ts";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useLoaded } from "../../components/useLoaded.ts";
import { type MessageKey, useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import {
  type DeviceLink,
  loadDeviceLink,
  PLATFORMS,
  type Platform,
  saveDeviceLink,
} from "../pms/iot-platform/iot-calls.ts";

/** Who may link a meter (the server's rule): those who switch its supply. */
const LINK_PERMISSIONS: Record<number, readonly string[]> = {
  1: ["meter_switch"],
  2: ["meter_switch", "water_switch"],
};

interface MeterRef {
  id: string;
  productCode: string;
  energyType: number;
}

export const useMayLinkDevice = (energyType: number) =>
  useConsole((state) => (LINK_PERMISSIONS[energyType] ?? []).some((code) => state.permission[code] === true));

/** The dialog that links the meter to its device on a platform, prefilled with the current link. */
function LinkDialog({
  meter,
  link,
  onClose,
}: {
  meter: MeterRef;
  link: DeviceLink | null;
  onClose: (changed: boolean) => void;
}) {
  const t = useT();
  const { message } = useFeedback();
  const { saving, save } = useSaving();
  const [form] = Form.useForm<{ platform: Platform; deviceId: string }>();
  const submit = async () => {
    const values = await form.validateFields();
    const deviceId = values.deviceId.trim();
    await save(async () => {
      await saveDeviceLink(meter.energyType, meter.id, values.platform, deviceId);
      message.success(t("iotDevice.saved", { deviceId }));
      onClose(true);
    });
  };
  return (
    <Modal
      open
      title={t("iotDevice.dialogTitle", { meter: meter.productCode })}
      onCancel={() => onClose(false)}
      onOk={() => void submit().catch(() => undefined)}
      okButtonProps={{ loading: saving, "data-testid": "iot-device-ok" }}
      maskClosable={false}
      destroyOnHidden
    >
      <Form
        form={form}
        name="iot-device"
        layout="vertical"
        initialValues={link ? { platform: link.platform, deviceId: link.deviceId } : {}}
        data-testid="iot-device-form"
      >
        <Form.Item
          name="platform"
          label={t("iotDevice.platform")}
          rules={[{ required: true, message: t("iotDevice.choosePlatform") }]}
        >
          <Select
            options={PLATFORMS.map((p) => ({
              value: p,
              label: t(`iotPlatform.platform.${p}` as MessageKey),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="deviceId"
          label={t("iotDevice.deviceId")}
          extra={t("iotDevice.deviceIdHelp")}
          rules={[{ required: true, whitespace: true, message: t("iotDevice.enterDeviceId") }]}
        >
          <Input maxLength={128} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A report interval as people say it: minutes under two hours (demo meters wake every few), else hours. */
function intervalText(t: ReturnType<typeof useT>, seconds: number | null): string {
  if (!seconds) return "";
  if (seconds < 7200)
    return t("iotDevice.intervalMinutes", { minutes: Math.max(1, Math.round(seconds / 60)) });
  return t("iotDevice.intervalValue", { hours: (seconds / 3600).toFixed(1) });
}

/**
 * The meter's device on its NB-IoT platform (CTWing, OneNET, IoTDA): which, its id, when it last
 * reported and how often it does; linked or changed here. Shown to those who may link it, since
 * the link is read under the same grant.
 */
export function PlatformDeviceCard({ meter }: { meter: MeterRef }) {
  const t = useT();
  const [round, setRound] = useState(0);
  const [editing, setEditing] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` reads the link again after a change.
  const load = useCallback(
    () => loadDeviceLink(meter.energyType, meter.id),
    [meter.energyType, meter.id, round],
  );
  const state = useLoaded(load);
  const link = state.data ?? null;
  return (
    <Card
      size="small"
      title={t("iotDevice.title")}
      data-testid="iot-device-card"
      extra={
        state.data !== undefined ? (
          <Button size="small" onClick={() => setEditing(true)} data-testid="iot-device-edit">
            {link ? t("iotDevice.change") : t("iotDevice.bind")}
          </Button>
        ) : null
      }
    >
      {state.error ? (
        <LoadFailed error={state.error} onRetry={() => setRound((n) => n + 1)} />
      ) : link ? (
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered data-testid="iot-device-link">
          <Descriptions.Item label={t("iotDevice.platform")}>
            <span data-testid="iot-device-platform" data-platform={link.platform}>
              {t(`iotPlatform.platform.${link.platform}` as MessageKey)}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t("iotDevice.deviceId")}>
            <span data-testid="iot-device-id">{link.deviceId}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t("iotDevice.lastReport")}>{link.lastReportTime ?? ""}</Descriptions.Item>
          <Descriptions.Item label={t("iotDevice.interval")}>
            <span data-testid="iot-device-interval">{intervalText(t, link.reportIntervalSeconds)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t("iotDevice.nextReport")}>
            <span data-testid="iot-device-next">{link.nextReportTime ?? ""}</span>
          </Descriptions.Item>
        </Descriptions>
      ) : state.data === null ? (
        <Typography.Text type="secondary" data-testid="iot-device-none">
          {t("iotDevice.none")}
        </Typography.Text>
      ) : null}
      {editing ? (
        <LinkDialog
          meter={meter}
          link={link}
          onClose={(changed) => {
            setEditing(false);
            if (changed) setRound((n) => n + 1);
          }}
        />
      ) : null}
    </Card>
  );
}
