import { Alert, Card, Space } from "antd";
import { useCallback, useEffect, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { PageLoading } from "../../../components/PageLoading.tsx";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { loadPlatform, PLATFORMS, type Platform, type PlatformConfig } from "./iot-calls.ts";
import { PlatformCard } from "./PlatformCard.tsx";

type Configs = Record<Platform, PlatformConfig | null>;

const loadAll = async (): Promise<Configs> => {
  const [ctwing, onenet, iotda] = await Promise.all(PLATFORMS.map(loadPlatform));
  return { ctwing: ctwing ?? null, onenet: onenet ?? null, iotda: iotda ?? null };
};

/**
 * 物联网平台 (档案管理): the tenant's settings of the platforms its NB-IoT meters report through,
 * one card each, with the push address to give each platform. A tenant administrator's screen,
 * like 微信支付配置; saving is the iotPlatform_edit button.
 */
export default function IotPlatformPage() {
  const t = useT();
  const mayEdit = useConsole((state) => Boolean(state.permission.iotPlatform_edit));
  const tenantId = useConsole((state) => state.tenantId);
  const [configs, setConfigs] = useState<Configs | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    loadAll()
      .then((loaded) => live && setConfigs(loaded))
      .catch((error: unknown) => {
        if (live) setFailed(true);
        reportNetworkError(error);
      });
    return () => {
      live = false;
    };
  }, []);

  // After a save the card shows what the server stored: the new secret masked.
  const reload = useCallback(async (platform: Platform) => {
    const config = await loadPlatform(platform);
    setConfigs((current) => (current ? { ...current, [platform]: config ?? null } : current));
  }, []);

  if (failed) return <Card>{t("iotPlatform.loadFailed")}</Card>;
  if (!configs) return <PageLoading />;
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="iot-platform-page">
      <Alert type="info" showIcon title={t("iotPlatform.intro")} />
      {mayEdit ? null : <Alert type="warning" showIcon title={t("iotPlatform.readOnly")} />}
      {PLATFORMS.map((platform) => (
        <PlatformCard
          key={platform}
          platform={platform}
          config={configs[platform]}
          tenantId={tenantId}
          mayEdit={mayEdit}
          onSaved={reload}
        />
      ))}
    </Space>
  );
}
