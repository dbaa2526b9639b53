import type { ChartPeriod, DeviceCounts } from "@meterline/contracts";
import { Card, Col, Empty, Row, Segmented, Spin, Statistic, Tag, Typography, theme } from "antd";
import { lazy, type ReactNode, Suspense, useCallback, useState } from "react";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { useT } from "../../../i18n/index.tsx";
import { useHomeTenant } from "../home-tenant.tsx";
import { loadRechargeChart, periodLabel } from "./money-calls.ts";
import { type EnergyType, loadDeviceStatus, loadUsageChart, loadUsageRank } from "./overview-calls.ts";

const UsageBarsChart = lazy(() => import("../../../components/charts/UsageBarsChart.tsx"));
const UNITS: Record<EnergyType, string> = { "1": "kWh", "2": "m³" };

/** A card's body for a call: its spinner, its error, its empty state, or what it shows. */
function Loaded({
  loading,
  error,
  empty,
  children,
}: {
  loading: boolean;
  error?: string;
  empty?: boolean;
  children: ReactNode;
}) {
  const t = useT();
  if (error) return <LoadFailed error={error} />;
  return (
    <Spin spinning={loading}>
      {empty && !loading ? <Empty description={t("home.overview.noData")} /> : children}
    </Spin>
  );
}

function DeviceGroup({ title, counts, testId }: { title: string; counts: DeviceCounts; testId: string }) {
  const t = useT();
  return (
    <Col xs={24} md={8} data-testid={testId}>
      <Statistic title={title} value={counts.online} suffix={`/ ${counts.total}`} />
      <Typography.Text type="secondary">
        {t("home.overview.offline", { count: counts.offline })}
        {counts.supplyOff !== undefined
          ? ` · ${t("home.overview.supplyOff", { count: counts.supplyOff })}`
          : ""}
      </Typography.Text>
      {counts.arrears !== undefined || counts.alarming !== undefined ? (
        <div>
          {/* A count above zero stands out by weight: the warning colours are too pale to read on white. */}
          <Typography.Text
            type={counts.arrears ? undefined : "secondary"}
            strong={Boolean(counts.arrears)}
            data-testid="overview-arrears"
          >
            {t("home.overview.arrears", { count: counts.arrears ?? 0 })}
          </Typography.Text>
          <Typography.Text type="secondary"> · </Typography.Text>
          <Typography.Text
            type={counts.alarming ? undefined : "secondary"}
            strong={Boolean(counts.alarming)}
            data-testid="overview-alarming"
          >
            {t("home.overview.alarming", { count: counts.alarming ?? 0 })}
          </Typography.Text>
        </div>
      ) : null}
    </Col>
  );
}

function DeviceStatusCard() {
  const t = useT();
  const tenant = useHomeTenant();
  const load = useCallback(() => loadDeviceStatus(tenant), [tenant]);
  const { data, error, loading } = useLoaded(load);
  return (
    <Card title={t("home.overview.devices")} data-testid="overview-devices">
      <Loaded loading={loading} error={error}>
        {data ? (
          <Row gutter={[16, 16]}>
            <DeviceGroup
              title={t("home.overview.electricOnline")}
              counts={data.electric}
              testId="overview-electric"
            />
            <DeviceGroup title={t("home.overview.waterOnline")} counts={data.water} testId="overview-water" />
            <DeviceGroup
              title={t("home.overview.collectorOnline")}
              counts={data.collector}
              testId="overview-collector"
            />
          </Row>
        ) : null}
      </Loaded>
    </Card>
  );
}

function EnergySwitch({ value, onChange }: { value: EnergyType; onChange: (value: EnergyType) => void }) {
  const t = useT();
  return (
    <Segmented
      size="small"
      aria-label={t("home.overview.energyLabel")}
      value={value}
      onChange={onChange}
      options={[
        { value: "1", label: t("home.overview.electric") },
        { value: "2", label: t("home.overview.water") },
      ]}
    />
  );
}

/** The money taken per period under the usage of the same period, for users of the money screens. */
function RechargeBars({ period }: { period: ChartPeriod }) {
  const t = useT();
  const { token } = theme.useToken();
  const tenant = useHomeTenant();
  const load = useCallback(() => loadRechargeChart(period, tenant), [period, tenant]);
  const { data, error, loading } = useLoaded(load);
  const bars = (data ?? []).map((b) => ({ label: periodLabel(b.day, period), value: b.recharge }));
  return (
    <>
      <Typography.Title level={5}>{t("homeMoney.rechargeBars")}</Typography.Title>
      <Loaded loading={loading} error={error} empty={(data ?? []).every((b) => b.count === 0)}>
        <Suspense fallback={<Spin />}>
          <UsageBarsChart
            bars={bars}
            unit={t("meterAccount.yuan")}
            color={token.colorSuccess}
            textColor={token.colorTextSecondary}
            summary={t("homeMoney.rechargeBars")}
            testId="overview-recharge-chart"
          />
        </Suspense>
      </Loaded>
    </>
  );
}

function UsageChartCard({ showsMoney }: { showsMoney: boolean }) {
  const t = useT();
  const { token } = theme.useToken();
  const [energy, setEnergy] = useState<EnergyType>("1");
  const [period, setPeriod] = useState<ChartPeriod>(1);
  const tenant = useHomeTenant();
  const load = useCallback(() => loadUsageChart(period, energy, tenant), [period, energy, tenant]);
  const { data, error, loading } = useLoaded(load);
  const bars = (data ?? []).map((b) => ({
    label: period === 3 ? b.day.slice(0, 7) : b.day.slice(5),
    value: b.usage,
  }));
  return (
    <Card
      title={t("home.overview.usage")}
      data-testid="overview-usage"
      extra={
        <span style={{ display: "inline-flex", gap: 8 }}>
          <EnergySwitch value={energy} onChange={setEnergy} />
          <Segmented
            size="small"
            aria-label={t("chart.periodLabel")}
            value={period}
            onChange={setPeriod}
            options={([1, 2, 3] as const).map((p) => ({ value: p, label: t(`home.overview.period${p}`) }))}
          />
        </span>
      }
    >
      <Loaded loading={loading} error={error} empty={(data ?? []).every((b) => b.meters === 0)}>
        <Suspense fallback={<Spin />}>
          <UsageBarsChart
            bars={bars}
            unit={UNITS[energy]}
            color={energy === "1" ? token.colorPrimary : token.colorInfo}
            textColor={token.colorTextSecondary}
            summary={t("home.overview.usage")}
            testId="overview-usage-chart"
          />
        </Suspense>
      </Loaded>
      {showsMoney ? <RechargeBars period={period} /> : null}
    </Card>
  );
}

function UsageRankCard() {
  const t = useT();
  const [energy, setEnergy] = useState<EnergyType>("1");
  const tenant = useHomeTenant();
  const load = useCallback(() => loadUsageRank(energy, tenant), [energy, tenant]);
  const { data, error, loading } = useLoaded(load);
  return (
    <Card
      title={t("home.overview.rank")}
      data-testid="overview-rank"
      extra={<EnergySwitch value={energy} onChange={setEnergy} />}
    >
      <Loaded loading={loading} error={error} empty={(data ?? []).length === 0}>
        {/* A plain list drawn as antd's small List: its own module would bring the Pagination too. */}
        <ol className="ml-rank-list">
          {(data ?? []).map((row, index) => (
            <li key={row.meterId} className="ml-rank-row" data-testid="overview-rank-row">
              <span>
                <Tag color={index < 3 ? "volcano" : "default"}>{index + 1}</Tag>
                {[row.areaName, row.roomName].filter(Boolean).join(" ") || "—"}
                <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                  {row.productCode}
                </Typography.Text>
                {/* Every tenant's rank (the platform administrator's): rooms of two sites look alike. */}
                {row.tenantName ? (
                  <Typography.Text
                    type="secondary"
                    style={{ marginLeft: 8 }}
                    data-testid="overview-rank-tenant"
                  >
                    · {row.tenantName}
                  </Typography.Text>
                ) : null}
              </span>
              <Typography.Text strong data-testid="overview-rank-usage">
                {row.usage} {UNITS[energy]}
              </Typography.Text>
            </li>
          ))}
        </ol>
      </Loaded>
    </Card>
  );
}

/**
 * The home page's metering overview: device status, usage by energy type (with the money taken in
 * the same periods when `showsMoney`), today's rank.
 */
export default function MeteringOverview({ showsMoney = false }: { showsMoney?: boolean }) {
  return (
    <Row gutter={[16, 16]} data-testid="metering-overview">
      <Col span={24}>
        <DeviceStatusCard />
      </Col>
      <Col xs={24} xl={14}>
        <UsageChartCard showsMoney={showsMoney} />
      </Col>
      <Col xs={24} xl={10}>
        <UsageRankCard />
      </Col>
    </Row>
  );
}
