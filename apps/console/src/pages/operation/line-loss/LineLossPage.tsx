import type { TableColumnsType } from "antd";
import { Card, DatePicker, Empty, Segmented, Space, Spin, Table, Tag, Typography, theme } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import "../../../crud/table.css";
import {
  type LossBand,
  type LossPeriod,
  type LossState,
  loadLossHistory,
  loadLossNodes,
  type NodeLoss,
} from "./line-loss-calls.ts";

const SeriesChart = lazy(() => import("../../../components/charts/SeriesChart.tsx"));

/**
 * Colour of each state's tag: a loss outside its band or a fault stands out, missing data is plain.
 * Solid dark colours with white text, as the flow screens' state tags: antd's light presets (green
 * on pale green) fall below 4.5:1 contrast at tag size.
 */
const STATE_COLOURS: Record<LossState, string | undefined> = {
  ok: "#237804",
  "above-band": "#a8071a",
  "below-band": "#ad4e00",
  missing: undefined,
  fault: "#9e1068",
  negative: "#ad2102",
  "no-master": undefined,
};

type Row = Omit<NodeLoss, "children"> & { key: string; children?: Row[] };

/** antd's tree table shows an expander wherever `children` is present, so leaves carry none. */
const asRows = (nodes: NodeLoss[]): Row[] =>
  nodes.map(({ children, ...node }) => ({
    ...node,
    key: node.id,
    ...(children.length > 0 ? { children: asRows(children) } : {}),
  }));

const bandText = (band: LossBand | null) => (band ? `${band.low.toFixed(2)} – ${band.high.toFixed(2)}` : "");

/**
 * 线损分析 (运行控制): the metering node tree of an energy type with each node's loss over a day
 * (and its normal band) or a month, and a node's 60-day loss % against its band once it is picked.
 * Opened with `?energyType=&node=` (from 计量拓扑) it shows that node's type with the node picked.
 */
export default function LineLossPage() {
  const t = useT();
  const { token } = theme.useToken();
  const [params] = useSearchParams();
  const linkedType = params.get("energyType") === "2" ? "2" : "1";
  const linkedNode = params.get("node");
  const [energyType, setEnergyType] = useState(linkedType);
  const [mode, setMode] = useState<"day" | "month">("day");
  const [date, setDate] = useState<Dayjs>(() => dayjs().subtract(1, "day"));
  const [picked, setPicked] = useState<string | null>(linkedNode);
  // The page stays open between visits: a later link to another node picks that one.
  useEffect(() => {
    if (!linkedNode) return;
    setEnergyType(linkedType);
    setPicked(linkedNode);
  }, [linkedNode, linkedType]);

  const dateText = date.format(mode === "day" ? "YYYY-MM-DD" : "YYYY-MM");
  // One object per search, so that a retry (a copy of it) reads again.
  const [query, setQuery] = useState<{ energyType: string; period: LossPeriod } | null>(null);
  const asked = useMemo(
    () => ({ energyType, period: mode === "day" ? { day: dateText } : { month: dateText } }),
    [energyType, mode, dateText],
  );
  const current =
    query &&
    query.energyType === asked.energyType &&
    JSON.stringify(query.period) === JSON.stringify(asked.period)
      ? query
      : asked;
  const loadNodes = useCallback(() => loadLossNodes(current.energyType, current.period), [current]);
  const nodes = useLoaded(loadNodes);
  const rows = useMemo(() => asRows(nodes.data?.nodes ?? []), [nodes.data]);

  const historyDay =
    mode === "day" ? date.format("YYYY-MM-DD") : dayjs().subtract(1, "day").format("YYYY-MM-DD");
  const loadHistory = useCallback(
    () => (picked ? loadLossHistory(picked, historyDay) : Promise.resolve(null)),
    [picked, historyDay],
  );
  const history = useLoaded(loadHistory);

  const unit = t(energyType === "2" ? "lineLoss.unitWater" : "lineLoss.unitElectric");
  const figure = (key: "input" | "delivered" | "loss", title: MessageKey) => ({
    key,
    title: `${t(title)} (${unit})`,
    align: "right" as const,
    className: "ml-nowrap",
    render: (_: unknown, row: Row) => row[key] ?? "",
  });
  const columns: TableColumnsType<Row> = [
    { key: "nodeName", title: t("lineLoss.node"), dataIndex: "nodeName", className: "ml-nowrap" },
    { key: "master", title: t("lineLoss.master"), render: (_, row) => row.masterMeterCode ?? "" },
    figure("input", "lineLoss.input"),
    figure("delivered", "lineLoss.delivered"),
    figure("loss", "lineLoss.loss"),
    {
      key: "percent",
      title: t("lineLoss.percent"),
      align: "right",
      render: (_, row) => (row.percent === null ? "" : row.percent.toFixed(2)),
    },
    {
      key: "band",
      title: t("lineLoss.band"),
      className: "ml-nowrap",
      render: (_, row) => bandText(row.band),
    },
    {
      key: "state",
      title: t("lineLoss.state"),
      render: (_, row) => (
        <Tag
          color={STATE_COLOURS[row.state]}
          data-testid={`line-loss-state-${row.id}`}
          data-state={row.state}
        >
          {t(`lineLoss.state.${row.state}` as MessageKey)}
        </Tag>
      ),
    },
    {
      key: "detail",
      title: t("lineLoss.detail"),
      render: (_, row) =>
        [
          row.missingMeters.length > 0
            ? t("lineLoss.missingMeters", { meters: row.missingMeters.join(", ") })
            : "",
          row.faultyMeters.length > 0
            ? t("lineLoss.faultyMeters", { meters: row.faultyMeters.join(", ") })
            : "",
          row.unmeteredNodes.length > 0
            ? t("lineLoss.unmeteredNodes", { nodes: row.unmeteredNodes.join(", ") })
            : "",
        ]
          .filter(Boolean)
          .join(";"),
    },
    {
      key: "suspects",
      title: t("lineLoss.suspects"),
      render: (_, row) => (
        // The suspects counted under this node (and the nodes below it), for the one who reads a
        // high loss to go straight to the meters that may explain it.
        <Link
          to={`/operation/suspects?${new URLSearchParams({ nodeId: row.id, energyType, node: row.nodeName })}`}
          onClick={(event) => event.stopPropagation()}
          aria-label={t("lineLoss.openSuspectsOf", { node: row.nodeName })}
          data-testid={`line-loss-suspects-${row.id}`}
        >
          {t("lineLoss.openSuspects")}
        </Link>
      ),
    },
  ];

  const table = nodes.error ? (
    <LoadFailed error={nodes.error} onRetry={() => setQuery({ ...current })} testId="line-loss-error" />
  ) : !nodes.loading && rows.length === 0 ? (
    <Empty description={t("lineLoss.empty")} data-testid="line-loss-empty" />
  ) : (
    <Table<Row>
      rowKey="key"
      size="small"
      loading={nodes.loading}
      columns={columns}
      dataSource={rows}
      pagination={false}
      expandable={{ defaultExpandAllRows: true }}
      key={`${energyType}-${dateText}-${rows.length}`}
      onRow={(row) => ({
        onClick: () => setPicked(row.id),
        style: { cursor: "pointer" },
        "data-node-id": row.id,
      })}
      rowClassName={(row) => (row.id === picked ? "ant-table-row-selected" : "")}
      data-testid="line-loss-table"
    />
  );

  const days = history.data?.days ?? [];
  const value = (n: number | null | undefined) => (n === null || n === undefined ? "-" : n.toFixed(2));
  const chart = !picked ? (
    <Empty description={t("lineLoss.pickNode")} data-testid="line-loss-pick" />
  ) : history.error ? (
    <LoadFailed error={history.error} testId="line-loss-history-error" />
  ) : history.loading || !history.data ? (
    <Spin />
  ) : (
    <Suspense fallback={<Spin />}>
      <SeriesChart
        labels={days.map((d) => d.day.slice(5))}
        series={[
          {
            name: t("lineLoss.percent"),
            values: days.map((d) => value(d.percent)),
            color: token.colorPrimary,
            kind: "line",
          },
          {
            name: t("lineLoss.bandHigh"),
            values: days.map((d) => value(d.band?.high)),
            color: token.colorError,
            kind: "line",
          },
          {
            name: t("lineLoss.bandLow"),
            values: days.map((d) => value(d.band?.low)),
            color: token.colorWarning,
            kind: "line",
          },
        ]}
        textColor={token.colorTextSecondary}
        summary={t("lineLoss.chartOf", { node: history.data.nodeName })}
        testId="line-loss-chart"
        height={260}
      />
    </Suspense>
  );

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="line-loss-page">
      <Card>
        <Space wrap size="middle">
          <Segmented
            value={energyType}
            onChange={(v) => {
              setEnergyType(String(v));
              setPicked(null);
            }}
            options={[
              { value: "1", label: t("lineLoss.electric") },
              { value: "2", label: t("lineLoss.water") },
            ]}
            aria-label={t("lineLoss.energyType")}
            data-testid="line-loss-energy"
          />
          <Segmented
            value={mode}
            onChange={(v) => setMode(v as "day" | "month")}
            options={[
              { value: "day", label: t("lineLoss.byDay") },
              { value: "month", label: t("lineLoss.byMonth") },
            ]}
            aria-label={t("lineLoss.periodMode")}
            data-testid="line-loss-mode"
          />
          <DatePicker
            picker={mode === "day" ? "date" : "month"}
            value={date}
            allowClear={false}
            onChange={(d) => d && setDate(d)}
            disabledDate={(d) => d.isAfter(dayjs(), "day")}
            data-testid="line-loss-date"
          />
          <Typography.Text type="secondary">{t("lineLoss.note")}</Typography.Text>
        </Space>
      </Card>
      <Card>{table}</Card>
      <Card
        title={history.data ? t("lineLoss.chartOf", { node: history.data.nodeName }) : t("lineLoss.chart")}
      >
        {chart}
      </Card>
    </Space>
  );
}
