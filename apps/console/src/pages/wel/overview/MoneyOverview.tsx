import { type ChartPeriod, ROLE_ADMINISTRATOR } from "@meterline/contracts";
import { Card, Col, Empty, Row, Segmented, Select, Space, Spin, Typography, theme } from "antd";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { dictionaryOptions, loadDictionary } from "../../../crud/dictionary.ts";
import { useI18n, useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { useHomeTenant } from "../home-tenant.tsx";
import {
  loadOwnerRecharges,
  loadOwnerUsage,
  loadRatio,
  type OwnerChoice,
  periodLabel,
  type RatioKind,
  ratioDictionary,
  searchOwners,
  yuanTotal,
} from "./money-calls.ts";
import "./money-overview.css";

const RatioPieChart = lazy(() => import("../../../components/charts/RatioPieChart.tsx"));
const SeriesChart = lazy(() => import("../../../components/charts/SeriesChart.tsx"));

/** The labels of a business dictionary by key, in the console's language. */
function useDictionaryLabels(code: string): Map<string, string> {
  const { language } = useI18n();
  const [labels, setLabels] = useState(new Map<string, string>());
  useEffect(() => {
    let live = true;
    loadDictionary(code, true)
      .then((items) => {
        if (live) setLabels(new Map(dictionaryOptions(items, language).map((o) => [o.value, o.label])));
      })
      .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, [code, language]);
  return labels;
}

/** One pie with its figures in a table beside it: the table is the legend and what screen readers read. */
function RatioPie({ kind, period }: { kind: RatioKind; period: ChartPeriod }) {
  const t = useT();
  const { token } = theme.useToken();
  const labels = useDictionaryLabels(ratioDictionary[kind]);
  const tenant = useHomeTenant();
  const load = useCallback(() => loadRatio(kind, period, tenant), [kind, period, tenant]);
  const { data, error, loading } = useLoaded(load);
  const slices = useMemo(
    () =>
      (data ?? [])
        .filter((s) => Number(s.amount) !== 0)
        .map((s) => {
          const key = String(s[kind] ?? "");
          return { key, label: labels.get(key) ?? key, value: s.amount, count: s.count };
        }),
    [data, kind, labels],
  );
  const title = t(`homeMoney.${kind}`);
  if (error) return <LoadFailed error={error} />;
  return (
    <Spin spinning={loading}>
      <Typography.Title level={5}>{title}</Typography.Title>
      {slices.length === 0 ? (
        loading ? null : (
          <Empty description={t(`homeMoney.empty${period}`)} data-testid={`money-${kind}-empty`} />
        )
      ) : (
        <Row gutter={16} align="middle" data-testid={`money-${kind}`}>
          <Col xs={24} md={12}>
            <Suspense fallback={<Spin />}>
              <RatioPieChart
                slices={slices}
                unit={t("meterAccount.yuan")}
                textColor={token.colorTextSecondary}
                summary={title}
                testId={`money-${kind}-chart`}
              />
            </Suspense>
          </Col>
          <Col xs={24} md={12}>
            <table className="ml-money-table" aria-label={title} data-testid={`money-${kind}-table`}>
              <thead>
                <tr>
                  <th scope="col">{t(`homeMoney.${kind}Column`)}</th>
                  <th scope="col">{t("homeMoney.amount")}</th>
                  <th scope="col">{t("homeMoney.count")}</th>
                </tr>
              </thead>
              <tbody>
                {slices.map((s) => (
                  <tr key={s.key} data-testid="money-slice">
                    <th scope="row">{s.label}</th>
                    <td>{s.value}</td>
                    <td>{s.count}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{t("homeMoney.total")}</th>
                  <td data-testid={`money-${kind}-total`}>{yuanTotal(slices.map((s) => s.value))}</td>
                  <td>{slices.reduce((sum, s) => sum + s.count, 0)}</td>
                </tr>
              </tfoot>
            </table>
          </Col>
        </Row>
      )}
    </Spin>
  );
}

/** The recharge-type and payment-method pies over 7 days, 30 days or 12 months. */
function MoneyPiesCard() {
  const t = useT();
  const [period, setPeriod] = useState<ChartPeriod>(2);
  return (
    <Card
      title={t("homeMoney.pies")}
      data-testid="money-pies"
      extra={
        <Segmented
          size="small"
          aria-label={t("chart.periodLabel")}
          value={period}
          onChange={setPeriod}
          options={([1, 2, 3] as const).map((p) => ({ value: p, label: t(`home.overview.period${p}`) }))}
          data-testid="money-period"
        />
      }
    >
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={12}>
          <RatioPie kind="paymentMethod" period={period} />
        </Col>
        <Col xs={24} xl={12}>
          <RatioPie kind="rechargeType" period={period} />
        </Col>
      </Row>
    </Card>
  );
}

const OWNER_DAYS = [7, 30, 90] as const;

/** An owner's usage and recharges per day, the owner picked by name, phone, room or meter. */
function OwnerPathCard() {
  const t = useT();
  const { token } = theme.useToken();
  const [keyword, setKeyword] = useState("");
  const [owner, setOwner] = useState<OwnerChoice>();
  // The platform administrator's choices span tenants: each is named with its tenant.
  const platform = useConsole((state) => state.roles.includes(ROLE_ADMINISTRATOR));
  const [days, setDays] = useState<(typeof OWNER_DAYS)[number]>(30);
  const tenant = useHomeTenant();
  const find = useCallback(() => searchOwners(keyword, tenant), [keyword, tenant]);
  // An owner picked before another tenant was chosen may not be among that tenant's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the tenant changes
  useEffect(() => setOwner(undefined), [tenant]);
  const owners = useLoaded<OwnerChoice[]>(find);
  const loadPaths = useCallback(
    async () =>
      owner ? Promise.all([loadOwnerUsage(owner, days), loadOwnerRecharges(owner, days)]) : undefined,
    [owner, days],
  );
  const paths = useLoaded(loadPaths);
  const [usage, money] = paths.data ?? [[], []];
  const labels = usage.map((d) => periodLabel(d.day, 1));

  return (
    <Card
      title={t("homeMoney.ownerPath")}
      data-testid="money-owner-path"
      extra={
        <Segmented
          size="small"
          aria-label={t("chart.periodLabel")}
          value={days}
          onChange={setDays}
          options={OWNER_DAYS.map((d) => ({ value: d, label: t("homeMoney.days", { days: d }) }))}
        />
      }
    >
      <Space orientation="vertical" style={{ width: "100%" }}>
        <Space>
          {/* A visible label, not a placeholder: antd's placeholder grey is too light to read. */}
          <label htmlFor="money-owner">{t("homeMoney.owner")}</label>
          <Select
            id="money-owner"
            showSearch={{ filterOption: false, onSearch: setKeyword }}
            allowClear
            value={owner?.id}
            onChange={(value: string | undefined) => setOwner(owners.data?.find((o) => o.id === value))}
            loading={owners.loading}
            options={(owners.data ?? []).map((o) => ({
              value: o.id,
              label: [o.phone ? `${o.ownerName} (${o.phone})` : o.ownerName, platform ? o.tenantName : ""]
                .filter(Boolean)
                .join(" · "),
            }))}
            style={{ width: 320, maxWidth: "100%" }}
            data-testid="money-owner-select"
          />
        </Space>
        {!owner ? (
          <Empty description={t("homeMoney.pickOwner")} />
        ) : paths.error ? (
          <LoadFailed error={paths.error} />
        ) : (
          <Spin spinning={paths.loading}>
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={12}>
                <Suspense fallback={<Spin />}>
                  <SeriesChart
                    labels={labels}
                    series={[
                      {
                        name: t("homeMoney.electricUsage"),
                        values: usage.map((d) => d.electric),
                        color: token.colorPrimary,
                        kind: "bar",
                      },
                      {
                        name: t("homeMoney.waterUsage"),
                        values: usage.map((d) => d.water),
                        color: token.colorInfo,
                        kind: "bar",
                      },
                    ]}
                    textColor={token.colorTextSecondary}
                    summary={t("homeMoney.ownerUsage")}
                    testId="money-owner-usage"
                  />
                </Suspense>
              </Col>
              <Col xs={24} xl={12}>
                <Suspense fallback={<Spin />}>
                  <SeriesChart
                    labels={money.map((d) => periodLabel(d.day, 1))}
                    series={[
                      {
                        name: t("homeMoney.recharge"),
                        values: money.map((d) => d.recharge),
                        color: token.colorSuccess,
                        kind: "bar",
                      },
                      {
                        name: t("homeMoney.refund"),
                        values: money.map((d) => d.refund),
                        color: token.colorWarning,
                        kind: "bar",
                      },
                    ]}
                    textColor={token.colorTextSecondary}
                    summary={t("homeMoney.ownerRecharges")}
                    testId="money-owner-recharges"
                  />
                </Suspense>
              </Col>
            </Row>
            <Typography.Text type="secondary" data-testid="money-owner-totals">
              {t("homeMoney.ownerTotals", {
                recharge: yuanTotal(money.map((d) => d.recharge)),
                refund: yuanTotal(money.map((d) => d.refund)),
              })}
            </Typography.Text>
          </Spin>
        )}
      </Space>
    </Card>
  );
}

/** The home page's money: payment-method and recharge-type pies, and one owner's paths over time. */
export default function MoneyOverview() {
  return (
    <Row gutter={[16, 16]} data-testid="money-overview">
      <Col span={24}>
        <MoneyPiesCard />
      </Col>
      <Col span={24}>
        <OwnerPathCard />
      </Col>
    </Row>
  );
}
