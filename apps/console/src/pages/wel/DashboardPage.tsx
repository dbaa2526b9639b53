import { ReloadOutlined } from "@ant-design/icons";
import type { HealthInfo } from "@meterline/api-client";
import { website } from "@meterline/contracts";
import { Alert, Button, Card, Col, Descriptions, Row, Statistic } from "antd";
import { useCallback, useEffect, useState } from "react";
import { api, describeError } from "../../app/api.ts";
import { useNow } from "../../components/useNow.ts";
import { useT } from "../../i18n/index.tsx";
import { formatDateTime } from "../../store/logs.ts";
import { useConsole } from "../../store/useConsole.ts";
import { durationParts } from "./greeting.ts";

/** The server's start (ISO, UTC) as the reader's local time; text that is no date stays as sent. */
const localTime = (iso: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : formatDateTime(at);
};

/** Health plus the moment it was read, so the uptime can keep counting locally. */
interface Reading {
  health: HealthInfo;
  readAt: number;
}

function useHealth() {
  const [reading, setReading] = useState<Reading | null>(null);
  const [error, setError] = useState("");
  const load = useCallback(() => {
    setError("");
    api.health().then(
      (health) => setReading({ health, readAt: Date.now() }),
      (failure: unknown) => setError(describeError(failure)),
    );
  }, []);
  useEffect(load, [load]);
  return { reading, error, load };
}

/** /wel/dashboard: server status from /api/health and the facts of the current session. */
export default function DashboardPage() {
  const t = useT();
  const now = useNow(1000);
  const { reading, error, load } = useHealth();
  const token = useConsole((state) => state.token);
  const userInfo = useConsole((state) => state.userInfo);
  const profile = useConsole((state) => state.profile);
  const duration = (seconds: number) =>
    seconds > 0 ? t("dashboard.duration", durationParts(seconds)) : t("dashboard.expired");

  const issuedAt = token?.datetime ?? now;
  const expiresIn = (issuedAt + (userInfo?.expires_in ?? 0) * 1000 - now) / 1000;
  const refreshIn = (issuedAt + website.tokenTime * 1000 - now) / 1000;
  const uptime = reading ? reading.health.uptimeSeconds + (now - reading.readAt) / 1000 : 0;

  return (
    <Row gutter={[16, 16]} data-testid="dashboard-page">
      <Col xs={24} xl={12}>
        <Card
          title={t("dashboard.system")}
          extra={
            <Button type="text" icon={<ReloadOutlined />} onClick={load} aria-label={t("common.refresh")} />
          }
        >
          {error ? (
            <Alert type="error" showIcon title={t("dashboard.healthFailed")} description={error} />
          ) : null}
          {reading ? (
            <Row gutter={16}>
              <Col span={8}>
                <Statistic title={t("dashboard.version")} value={reading.health.version} />
              </Col>
              <Col span={8}>
                <Statistic
                  title={t("dashboard.database")}
                  value={t(`dashboard.db.${reading.health.database}`)}
                />
              </Col>
              <Col span={8}>
                <Statistic
                  title={t("dashboard.uptime")}
                  value={duration(uptime)}
                  data-testid="dashboard-uptime"
                />
              </Col>
              <Col span={24} className="ml-dashboard-started">
                {t("dashboard.startedAt")}: {localTime(reading.health.startedAt)}
              </Col>
            </Row>
          ) : null}
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card title={t("dashboard.session")}>
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: "account", label: t("dashboard.account"), children: userInfo?.account },
              {
                key: "tenant",
                label: t("dashboard.tenant"),
                children: profile?.tenantName
                  ? `${profile.tenantName} (${userInfo?.tenant_id})`
                  : userInfo?.tenant_id,
              },
              { key: "roles", label: t("dashboard.roles"), children: userInfo?.role_name },
              {
                key: "issued",
                label: t("dashboard.tokenIssued"),
                children: formatDateTime(new Date(issuedAt)),
              },
              {
                key: "expires",
                label: t("dashboard.tokenExpires"),
                children: <span data-testid="token-countdown">{duration(expiresIn)}</span>,
              },
              { key: "refresh", label: t("dashboard.nextRefresh"), children: duration(refreshIn) },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
