import type { TableColumnsType } from "antd";
import { Button, Card, Empty, Input, Segmented, Space, Table, Tag, Typography } from "antd";
import { useCallback, useMemo, useState } from "react";
import { Link } from "react-router";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import "../../../crud/table.css";
import { meterDetailPath } from "../../detail/detail-paths.ts";
import { loadTopologyNodes, type TopologyMeter } from "./topology-calls.ts";
import { nodeKeys, type TopologyRow, topologyRows } from "./topology-rows.ts";

/**
 * Role tags in solid dark colours with white text: antd's light presets fall below 4.5:1 contrast
 * at tag size.
 */
const ROLE_COLOURS: Record<number, string> = { 1: "#0958d9", 2: "#874d00" };

/**
 * 计量拓扑 (档案管理): a tenant's metering nodes of one energy type as a tree. Each node shows its
 * master meter, how many tenant and common-area meters and child nodes it holds, and a link to its
 * 线损分析; below it come its child nodes, then its listed meters with their rooms. Addresses link to
 * the meter's detail and are never cut. A search keeps what matches and the nodes above it.
 */
export default function MeteringTopologyPage() {
  const t = useT();
  const [energyType, setEnergyType] = useState("1");
  const [query, setQuery] = useState("");
  const [expanded, setExpanded] = useState<readonly string[] | null>(null);
  const [reload, setReload] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload asks again for the same type.
  const load = useCallback(() => loadTopologyNodes(energyType), [energyType, reload]);
  const loaded = useLoaded(load);
  const nodes = loaded.data?.nodes ?? [];
  const { rows, matches } = useMemo(() => topologyRows(nodes, query), [nodes, query]);
  const allKeys = useMemo(() => nodeKeys(rows), [rows]);
  // A new type or a new search opens the whole tree again; the operator folds it from there.
  const chooseType = (value: string) => {
    setEnergyType(value);
    setExpanded(null);
  };
  const search = (value: string) => {
    setQuery(value);
    setExpanded(null);
  };
  const openKeys = expanded ?? allKeys;
  const meterCount = nodes.reduce((sum, n) => sum + n.meters.length, 0);

  const meterLink = (meter: TopologyMeter, testId: string) => (
    <Link to={meterDetailPath(energyType, meter.meterId)} className="ml-nowrap" data-testid={testId}>
      {meter.productCode}
    </Link>
  );
  const columns: TableColumnsType<TopologyRow> = [
    {
      key: "name",
      title: t("meteringTopology.name"),
      className: "ml-nowrap",
      render: (_, row) =>
        row.kind === "node" ? (
          <Typography.Text strong data-testid={`topology-node-${row.node.nodeTitle}`}>
            {row.node.nodeTitle}
          </Typography.Text>
        ) : (
          meterLink(row.meter, `topology-meter-${row.meter.productCode}`)
        ),
    },
    {
      key: "kind",
      title: t("meteringTopology.kind"),
      className: "ml-nowrap",
      render: (_, row) =>
        row.kind === "node" ? (
          t(`meteringTopology.kind.${row.node.nodeKind}` as MessageKey)
        ) : (
          <Tag color={ROLE_COLOURS[row.meter.meterRole ?? 1]} data-role={row.meter.meterRole}>
            {t(`meteringTopology.role.${row.meter.meterRole === 2 ? 2 : 1}` as MessageKey)}
          </Tag>
        ),
    },
    {
      key: "master",
      title: t("meteringTopology.master"),
      className: "ml-nowrap",
      render: (_, row) =>
        row.kind !== "node" ? null : row.node.master ? (
          <Space size={4}>
            {meterLink(row.node.master, `topology-master-${row.node.master.productCode}`)}
            {row.node.master.room && (
              <Typography.Text type="secondary">{row.node.master.room}</Typography.Text>
            )}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t("meteringTopology.noMaster")}</Typography.Text>
        ),
    },
    {
      key: "room",
      title: t("meteringTopology.room"),
      className: "ml-nowrap",
      render: (_, row) => (row.kind === "node" ? (row.node.areaName ?? "") : (row.meter.room ?? "")),
    },
    {
      key: "counts",
      title: t("meteringTopology.counts"),
      className: "ml-nowrap",
      render: (_, row) =>
        row.kind === "node" ? (
          <span data-testid={`topology-counts-${row.node.nodeTitle}`}>
            {t("meteringTopology.countsText", row.counts)}
          </span>
        ) : null,
    },
    {
      key: "actions",
      title: t("meteringTopology.actions"),
      className: "ml-nowrap",
      render: (_, row) =>
        row.kind === "node" ? (
          <Link
            to={`/operation/lineloss?energyType=${energyType}&node=${encodeURIComponent(row.node.id)}`}
            aria-label={`${t("meteringTopology.lineLoss")} ${row.node.nodeTitle}`}
            data-testid={`topology-loss-${row.node.nodeTitle}`}
          >
            {t("meteringTopology.lineLoss")}
          </Link>
        ) : null,
    },
  ];

  const body = loaded.error ? (
    <LoadFailed error={loaded.error} onRetry={() => setReload((n) => n + 1)} testId="topology-error" />
  ) : !loaded.loading && nodes.length === 0 ? (
    <Empty description={t("meteringTopology.empty")} data-testid="topology-empty" />
  ) : !loaded.loading && rows.length === 0 ? (
    <Empty description={t("meteringTopology.notFound")} data-testid="topology-no-match" />
  ) : (
    <Table<TopologyRow>
      rowKey="key"
      size="small"
      loading={loaded.loading}
      columns={columns}
      dataSource={rows}
      pagination={false}
      scroll={{ x: "max-content" }}
      expandable={{
        expandedRowKeys: [...openKeys],
        onExpandedRowsChange: (keys) => setExpanded(keys.map(String)),
      }}
      data-testid="topology-table"
    />
  );

  return (
    <Space
      orientation="vertical"
      size="middle"
      style={{ width: "100%" }}
      data-testid="metering-topology-page"
    >
      <Card>
        <Space wrap size="middle">
          <Segmented
            value={energyType}
            onChange={(v) => chooseType(String(v))}
            options={[
              { value: "1", label: t("meteringTopology.electric") },
              { value: "2", label: t("meteringTopology.water") },
            ]}
            aria-label={t("meteringTopology.energyType")}
            data-testid="topology-energy"
          />
          <Input.Search
            value={query}
            onChange={(event) => search(event.target.value)}
            onSearch={search}
            allowClear
            placeholder={t("meteringTopology.search")}
            aria-label={t("meteringTopology.search")}
            style={{ width: 300 }}
            data-testid="topology-search"
          />
          <Button onClick={() => setExpanded(null)} data-testid="topology-expand-all">
            {t("meteringTopology.expandAll")}
          </Button>
          <Button onClick={() => setExpanded([])} data-testid="topology-collapse-all">
            {t("meteringTopology.collapseAll")}
          </Button>
          <Typography.Text type="secondary" aria-live="polite" data-testid="topology-summary">
            {query.trim() !== ""
              ? matches > 0
                ? t("meteringTopology.found", { count: matches })
                : t("meteringTopology.notFound")
              : t("meteringTopology.summary", { nodes: nodes.length, meters: meterCount })}
          </Typography.Text>
        </Space>
      </Card>
      <Card>{body}</Card>
    </Space>
  );
}
