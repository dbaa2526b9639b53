import {
  ALARM_RULE_NAMES,
  type DetailAccount,
  type DetailAlarm,
  type DetailCommand,
  type DetailMeter,
  type DetailReading,
  type DetailUsage,
  isAlarmRuleCode,
} from "@meterline/contracts";
import { Button, Card, Empty, Segmented, Space, Spin, Table, Typography, theme } from "antd";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { Link } from "react-router";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { PageLoading } from "../../components/PageLoading.tsx";
import { type Translate, useI18n, useT } from "../../i18n/index.tsx";
import type { Language } from "../../store/state.ts";
import { LevelTag } from "../money/counter/LevelTag.tsx";
import { commandWords } from "../operation/command-words.ts";
import { platformStateKey } from "../operation/platform-state.ts";
import type { DetailLabels } from "./detail-labels.ts";
import { detailPath, meterDetailPath } from "./detail-paths.ts";
import { MeterActions } from "./MeterActions.tsx";
import "../money/counter/money-counter.css";

const UsageBarsChart = lazy(() => import("../../components/charts/UsageBarsChart.tsx"));

const units: Record<1 | 2, string> = { 1: "kWh", 2: "m³" };

/** A column of electric and water meters: the supply of the one, the valve of the other. */
const supplyTitles = (t: Translate) => `${t("detail.meter.supply.1")} / ${t("detail.meter.supply.2")}`;

/** A page's loading, failure (with retry) and not-found states; the page itself once loaded. */
export function DetailState<T>({
  state,
  children,
}: {
  state: { data?: T; error?: string; loading: boolean; reload: () => void };
  children: (data: T) => ReactNode;
}) {
  if (state.data) return <>{children(state.data)}</>;
  if (state.error) return <LoadFailed error={state.error} onRetry={state.reload} testId="detail-failed" />;
  return <PageLoading />;
}

/** The page head: what it is, where it is, and a refresh. */
export function DetailHead({
  title,
  extra,
  onRefresh,
}: {
  title: string;
  extra?: ReactNode;
  onRefresh: () => void;
}) {
  const t = useT();
  return (
    <Space style={{ width: "100%", justifyContent: "space-between" }} wrap>
      <Typography.Title level={4} style={{ margin: 0 }} data-testid="detail-title">
        {title}
      </Typography.Title>
      <Space wrap>
        {extra}
        <Button onClick={onRefresh} data-testid="detail-refresh">
          {t("detail.refresh")}
        </Button>
      </Space>
    </Space>
  );
}

/** A room as a link to its page, with its building path. */
export const RoomLink = ({ id, roomName, areaPath }: { id: string; roomName: string; areaPath: string }) => (
  <Link to={detailPath("room", id)}>{areaPath ? `${areaPath} / ${roomName}` : roomName}</Link>
);

/** An account's balance and level, or why there is none. */
export function AccountCell({ account }: { account: DetailAccount | null }) {
  const t = useT();
  if (!account) return <Typography.Text type="secondary">{t("detail.account.none")}</Typography.Text>;
  if (account.status !== 1)
    return <Typography.Text type="secondary">{t("detail.account.closed")}</Typography.Text>;
  return (
    <Space size={6}>
      <span data-testid="detail-balance">{account.balance}</span>
      <LevelTag level={account.alarmLevel} />
      {account.forecast && (
        <Typography.Text
          type="secondary"
          data-testid="detail-forecast"
          title={t("detail.account.forecastAsOf", { day: account.forecast.day })}
        >
          {t("detail.account.forecast", { days: account.forecast.days })}
        </Typography.Text>
      )}
    </Space>
  );
}

/** The meters of a room or an owner: live reading, online and supply state, account, actions. */
export function MetersTable({
  meters,
  labels,
  onChanged,
  showRoom = false,
}: {
  meters: DetailMeter[];
  labels: DetailLabels;
  onChanged: () => void;
  showRoom?: boolean;
}) {
  const t = useT();
  return (
    <Table<DetailMeter>
      size="small"
      rowKey={(m) => `${m.energyType}-${m.id}`}
      dataSource={meters}
      pagination={false}
      scroll={{ x: "max-content" }}
      locale={{ emptyText: <Empty description={t("detail.noMeters")} /> }}
      data-testid="detail-meters"
      columns={[
        {
          key: "productCode",
          title: t("detail.meter.productCode"),
          render: (_, m) => (
            <Space size={4}>
              <Link to={meterDetailPath(m.energyType, m.id)} data-testid="detail-meter-link">
                {m.productCode}
              </Link>
              <Typography.Text type="secondary">{t(`detail.energy.${m.energyType}`)}</Typography.Text>
            </Space>
          ),
        },
        ...(showRoom
          ? [
              {
                key: "room",
                title: t("detail.meter.room"),
                render: (_: unknown, m: DetailMeter) =>
                  m.roomId ? <RoomLink id={m.roomId} roomName={m.roomName} areaPath={m.areaPath} /> : null,
              },
            ]
          : []),
        {
          key: "reading",
          title: t("detail.meter.reading"),
          render: (_, m) =>
            m.reading ? (
              <span data-testid="detail-meter-reading">
                {m.reading.totalValue} {units[m.energyType]}
              </span>
            ) : (
              <Typography.Text type="secondary">{t("detail.meter.noReading")}</Typography.Text>
            ),
        },
        { key: "readTime", title: t("detail.meter.readTime"), render: (_, m) => m.reading?.readTime ?? "" },
        { key: "online", title: t("detail.meter.online"), render: (_, m) => labels.online(m.onlineStatus) },
        {
          key: "supply",
          title: supplyTitles(t),
          render: (_, m) => (
            <span data-testid="detail-meter-supply">
              {labels.supply(m.reading?.switchStatus ?? m.switchStatus)}
            </span>
          ),
        },
        {
          key: "account",
          title: t("detail.account.balance"),
          render: (_, m) => <AccountCell account={m.account} />,
        },
        {
          key: "actions",
          title: t("detail.actions"),
          render: (_, m) => <MeterActions meter={m} onChanged={onChanged} />,
        },
      ]}
    />
  );
}

/**
 * Usage per day (last 30) or month (last 12), one chart per kind of meter the subject has. The
 * chart is the subject's own: the server summed only its meters.
 */
export function UsageCard({ usage, energies }: { usage: DetailUsage; energies: (1 | 2)[] }) {
  const t = useT();
  const { token } = theme.useToken();
  const [period, setPeriod] = useState<"day" | "month">("day");
  const rows = period === "day" ? usage.days : usage.months;
  const shown = energies.length > 0 ? energies : [1 as const];
  const empty = shown.every((energy) =>
    rows.every((row) => Number(energy === 1 ? row.electric : row.water) === 0),
  );
  return (
    <Card
      size="small"
      title={t("detail.usage")}
      extra={
        <Segmented
          size="small"
          aria-label={t("detail.usage.periodLabel")}
          value={period}
          onChange={(value) => setPeriod(value as "day" | "month")}
          options={[
            { value: "day", label: t("detail.usage.day") },
            { value: "month", label: t("detail.usage.month") },
          ]}
          data-testid="detail-usage-period"
        />
      }
    >
      {empty ? (
        <Empty description={t("detail.usage.empty")} data-testid="detail-usage-empty" />
      ) : (
        <Suspense fallback={<Spin />}>
          {shown.map((energy) => {
            const values = rows.map((row) => (energy === 1 ? row.electric : row.water));
            const total = (values.reduce((sum, v) => sum + Math.round(Number(v) * 100), 0) / 100).toFixed(2);
            const summary = t(`detail.usage.summary.${energy}`, { total });
            return (
              <div key={energy}>
                <Typography.Text type="secondary">{summary}</Typography.Text>
                <UsageBarsChart
                  bars={rows.map((row, i) => ({
                    label: period === "day" ? row.period.slice(5) : row.period,
                    value: values[i] ?? "0",
                  }))}
                  unit={units[energy]}
                  color={energy === 2 ? token.colorInfo : token.colorPrimary}
                  textColor={token.colorTextSecondary}
                  summary={summary}
                  testId={`detail-usage-${energy === 1 ? "electric" : "water"}`}
                  height={200}
                />
              </div>
            );
          })}
        </Suspense>
      )}
    </Card>
  );
}

/** The latest polls of the subject's meters. */
export function ReadingsCard({
  readings,
  labels,
  showMeter,
  energies,
}: {
  readings: DetailReading[];
  labels: DetailLabels;
  showMeter: boolean;
  /** The kinds of meter read: a water meter has a valve and keeps no balance. */
  energies: (1 | 2)[];
}) {
  const t = useT();
  const supplyTitle = energies.length === 1 ? t(`detail.meter.supply.${energies[0] ?? 1}`) : supplyTitles(t);
  return (
    <Card size="small" title={t("detail.readings")}>
      <Table<DetailReading>
        size="small"
        rowKey={(r) => `${r.energyType}-${r.meterId}-${r.readTime}`}
        dataSource={readings}
        pagination={false}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: <Empty description={t("detail.readings.empty")} /> }}
        data-testid="detail-readings"
        columns={[
          { key: "readTime", title: t("detail.meter.readTime"), dataIndex: "readTime" },
          ...(showMeter
            ? [
                {
                  key: "meter",
                  title: t("detail.meter.productCode"),
                  render: (_: unknown, r: DetailReading) => (
                    <Link to={meterDetailPath(r.energyType, r.meterId)}>{r.productCode}</Link>
                  ),
                },
              ]
            : []),
          {
            key: "value",
            title: t("detail.reading.value"),
            render: (_, r) => `${r.totalValue} ${units[r.energyType]}`,
          },
          ...(energies.includes(1)
            ? [
                {
                  key: "balance",
                  title: t("detail.meter.meterBalance"),
                  render: (_: unknown, r: DetailReading) => r.balance ?? "",
                },
              ]
            : []),
          {
            key: "supply",
            title: supplyTitle,
            render: (_, r) => labels.supply(r.switchStatus),
          },
        ]}
      />
    </Card>
  );
}

/** The latest commands sent to the subject's meters. */
export function CommandsCard({
  commands,
  labels,
  showMeter,
}: {
  commands: DetailCommand[];
  labels: DetailLabels;
  showMeter: boolean;
}) {
  const { t, language } = useI18n();
  // "拉闸 · 欠费自动断电": what it does and why, as the command log says it.
  const words = (c: DetailCommand) =>
    commandWords(
      (language === "en" ? c.actionNameEn : c.actionName) || labels.commandType(c.commandType),
      language === "en" ? c.whyNameEn : c.whyName,
    );
  return (
    <Card size="small" title={t("detail.commands")}>
      <Table<DetailCommand>
        size="small"
        rowKey="id"
        dataSource={commands}
        pagination={false}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: <Empty description={t("detail.commands.empty")} /> }}
        data-testid="detail-commands"
        columns={[
          { key: "created", title: t("detail.command.created"), dataIndex: "createTime" },
          ...(showMeter
            ? [
                {
                  key: "meter",
                  title: t("detail.meter.productCode"),
                  render: (_: unknown, c: DetailCommand) => (
                    <Link to={meterDetailPath(c.energyType, c.meterId)}>{c.productCode}</Link>
                  ),
                },
              ]
            : []),
          {
            key: "type",
            title: t("detail.command.type"),
            render: (_, c) => <span data-testid="detail-command-words">{words(c)}</span>,
          },
          { key: "state", title: t("detail.command.state"), render: (_, c) => labels.commandState(c.state) },
          // An NB-IoT meter's command at its platform, and when the sleeping meter should wake to take it.
          ...(commands.some((c) => c.platformState)
            ? [
                {
                  key: "platformState",
                  title: t("commandLog.platformState"),
                  render: (_: unknown, c: DetailCommand) => {
                    const key = platformStateKey(c.platformState);
                    return key ? t(key) : "";
                  },
                },
                {
                  key: "expectedWake",
                  title: t("commandLog.expectedWake"),
                  render: (_: unknown, c: DetailCommand) => (
                    <span data-testid="detail-command-wake">{c.expectedWake ?? ""}</span>
                  ),
                },
              ]
            : []),
          { key: "done", title: t("detail.command.done"), render: (_, c) => c.doneTime ?? "" },
        ]}
      />
    </Card>
  );
}

/** A rule's name in the reader's language; a rule the contracts do not know keeps the record's own name. */
const ruleNameOf = (alarm: DetailAlarm, language: Language) =>
  isAlarmRuleCode(alarm.ruleCode) ? ALARM_RULE_NAMES[alarm.ruleCode][language] : alarm.ruleName;

/**
 * The alarms still open on the page's meters (check records alarming): the meter (when the page
 * has several), the rule, the balance level for money rules, and since when. Restored and closed
 * ones are in 告警记录.
 */
export function AlarmsCard({ alarms, showMeter }: { alarms: readonly DetailAlarm[]; showMeter: boolean }) {
  const { t, language } = useI18n();
  return (
    <Card size="small" title={t("detail.alarms")} data-testid="detail-alarms">
      {alarms.length === 0 ? (
        <Typography.Text>{t("detail.alarms.none")}</Typography.Text>
      ) : (
        <Space orientation="vertical" style={{ width: "100%" }}>
          {alarms.map((alarm) => (
            <Space key={alarm.id} wrap data-testid="detail-alarm">
              {showMeter ? (
                <Link to={meterDetailPath(alarm.energyType, alarm.meterId)}>{alarm.productCode}</Link>
              ) : null}
              <Typography.Text strong>{ruleNameOf(alarm, language)}</Typography.Text>
              {alarm.alarmLevel > 0 ? <LevelTag level={alarm.alarmLevel} /> : null}
              <Typography.Text type="secondary">
                {t("detail.alarms.since", { time: alarm.createTime })}
              </Typography.Text>
            </Space>
          ))}
        </Space>
      )}
    </Card>
  );
}

/** The kinds of meter among these, for the usage charts. */
export const energiesOf = (meters: readonly { energyType: 1 | 2 }[]) =>
  ([1, 2] as const).filter((energy) => meters.some((m) => m.energyType === energy));
