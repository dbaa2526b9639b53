import { ReloadOutlined } from "@ant-design/icons";
import { Alert, Button, Empty, Input, Modal, Result, Space, Spin, TreeSelect, Typography, theme } from "antd";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { describeError, reportNetworkError } from "../../../../app/api.ts";
import { ErrorBoundary } from "../../../../components/ErrorBoundary.tsx";
import { LoadFailed } from "../../../../components/LoadFailed.tsx";
import { useI18n } from "../../../../i18n/index.tsx";
import { detailPath } from "../../../detail/detail-paths.ts";
import { useAreaTree } from "../useAreaTree.ts";
import "./topology.css";
import { loadTopology, TOPOLOGY_METER_LIMIT, type Topology, type TopologyBranch } from "./topology-calls.ts";
import type { TopologyLook } from "./topology-option.ts";
import { defaultExpanded, expandLevel, search, type TopologyView, visibleCount } from "./topology-view.ts";

// ECharts is large: it loads with the chart, the first time a topology is opened.
const TopologyChart = lazy(() => import("./TopologyChart.tsx"));

/** The dialog's drawing area (topology.css holds the same height); a larger tree scrolls inside it. */
const VIEW_HEIGHT = 560;

interface Props {
  /** The area chosen on the area screen; the whole tenant when none. */
  areaId?: string;
  onClose: () => void;
}

/** How many areas and collectors a tree holds, for the accessible summary. */
function census(roots: TopologyBranch[]): { areas: number; collectors: number } {
  let areas = 0;
  let collectors = 0;
  const walk = (nodes: TopologyBranch[]) => {
    for (const node of nodes) {
      if (node.category === "area") areas += 1;
      if (node.category === "collector") collectors += 1;
      if (node.category === "area" || node.category === "collector" || node.category === "direct")
        walk(node.children);
    }
  };
  walk(roots);
  return { areas, collectors };
}

/** The drawing's window: it scrolls a larger tree, and takes focus so the keyboard can scroll it. */
function ScrollArea({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard.
    <section className="ml-topology-scroll" tabIndex={0} aria-label={label} data-testid="topology-scroll">
      {children}
    </section>
  );
}

const EMPTY_VIEW: TopologyView = { expanded: new Set(), matches: new Set() };

/**
 * The registry topology (area → building → collector → meter) in a large dialog: pick an area,
 * open and close nodes by clicking, search within; it starts at the buildings with their counts,
 * so a site of 10,000 meters reads the same as one of ten.
 */
export function TopologyDialog({ areaId: chosen, onClose }: Props) {
  const { t } = useI18n();
  const { token } = theme.useToken();
  const areas = useAreaTree();
  const [areaId, setAreaId] = useState(chosen);
  const [state, setState] = useState<{ topology: Topology | null; loading: boolean; error: string | null }>({
    topology: null,
    loading: true,
    error: null,
  });
  const [view, setView] = useState<TopologyView>(EMPTY_VIEW);
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<number | null>(null);
  const [fitKey, setFitKey] = useState(0);

  const load = useCallback(async (area?: string) => {
    setState((s) => ({ ...s, loading: true }));
    try {
      const topology = await loadTopology(area);
      setState({ topology, loading: false, error: null });
      setView({ expanded: defaultExpanded(topology.roots), matches: new Set() });
      setFound(null);
      setQuery("");
    } catch (error) {
      reportNetworkError(error);
      setState({ topology: null, loading: false, error: describeError(error) });
    }
  }, []);
  useEffect(() => {
    void load(areaId);
  }, [load, areaId]);

  const roots = state.topology?.roots ?? [];
  const navigate = useNavigate();
  const toggle = useCallback(
    (id: string, kind: string) => {
      if (kind === "meter" || kind === "water") {
        onClose();
        navigate(detailPath(kind, id));
        return;
      }
      setView((current) => {
        const expanded = new Set(current.expanded);
        if (expanded.has(id)) expanded.delete(id);
        else expanded.add(id);
        return { ...current, expanded };
      });
    },
    [navigate, onClose],
  );
  const find = (value: string) => {
    setQuery(value);
    const result = search(roots, value, view.expanded);
    setView({ expanded: result.expanded, matches: result.matches });
    setFound(value.trim() ? result.total : null);
  };

  const look = useMemo<TopologyLook>(
    () => ({
      names: {
        area: t("pms.topology.area"),
        meter: t("pms.topology.meter"),
        water: t("pms.topology.water"),
        collector: t("pms.topology.collector"),
        direct: t("pms.topology.direct"),
      },
      colours: {
        area: token.colorPrimary,
        meter: token.colorWarning,
        water: token.cyan6,
        collector: token.purple6,
        direct: token.colorTextTertiary,
      },
      text: token.colorText,
      line: token.colorBorder,
      offlineFill: token.colorBgContainer,
      offlineBorder: token.colorError,
      matchBackground: token.colorWarningBg,
      offlineWord: t("pms.topology.offline"),
      onlineWord: t("pms.topology.online"),
      areaLabel: (node) =>
        t("pms.topology.areaLabel", { name: node.name, meters: node.meters, offline: node.offline }),
      collectorLabel: (node) => t("pms.topology.collectorLabel", { name: node.name, meters: node.meters }),
      more: (count) => t("pms.topology.more", { count }),
    }),
    [t, token],
  );

  const { topology, loading, error } = state;
  const summary = useMemo(() => {
    if (!topology) return "";
    return t("pms.topology.summary", {
      ...census(topology.roots),
      meters: topology.meters,
      offline: topology.offline,
      shown: visibleCount(topology.roots, view.expanded),
    });
  }, [topology, view, t]);

  let body = <Spin spinning style={{ display: "block", height: VIEW_HEIGHT }} />;
  if (error) {
    body = <LoadFailed error={error} onRetry={() => void load(areaId)} />;
  } else if (topology && topology.roots.length === 0) {
    body = <Empty description={t("pms.topology.empty")} data-testid="topology-empty" />;
  } else if (topology) {
    body = (
      <ErrorBoundary
        fallback={(failure) => <Result status="error" title={t("page.crashed")} subTitle={failure.message} />}
      >
        <Suspense fallback={<Spin spinning style={{ display: "block", height: VIEW_HEIGHT }} />}>
          <ScrollArea label={t("pms.topology.title")}>
            <TopologyChart
              roots={topology.roots}
              view={view}
              look={look}
              summary={summary}
              minHeight={VIEW_HEIGHT - 8}
              fitKey={fitKey}
              onToggle={toggle}
            />
          </ScrollArea>
        </Suspense>
      </ErrorBoundary>
    );
  }

  return (
    <Modal
      open
      title={t("pms.topology.title")}
      width="92vw"
      style={{ top: 24 }}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t("crud.close")}
        </Button>
      }
      destroyOnHidden
    >
      <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="topology-dialog">
        <Space wrap>
          <TreeSelect
            value={areaId}
            onChange={(value?: string) => setAreaId(value || undefined)}
            treeData={areas.nodes}
            loading={areas.loading}
            allowClear
            showSearch
            treeNodeFilterProp="title"
            treeDefaultExpandAll
            placeholder={t("pms.allAreas")}
            style={{ width: 240 }}
            aria-label={t("pms.areaTree")}
            data-testid="topology-area"
          />
          <Input.Search
            value={query}
            onChange={(event) => find(event.target.value)}
            onSearch={find}
            allowClear
            placeholder={t("pms.topology.search")}
            aria-label={t("pms.topology.search")}
            style={{ width: 320 }}
            data-testid="topology-search"
          />
          {found !== null && (
            <Typography.Text
              type={found > 0 ? "secondary" : "warning"}
              data-testid="topology-found"
              aria-live="polite"
            >
              {found > 0 ? t("pms.topology.found", { count: found }) : t("pms.topology.notFound")}
            </Typography.Text>
          )}
          <Button
            onClick={() => setView((v) => ({ ...v, expanded: expandLevel(roots, v.expanded) }))}
            data-testid="topology-expand"
          >
            {t("pms.topology.expandLevel")}
          </Button>
          <Button
            onClick={() => setView({ expanded: defaultExpanded(roots), matches: new Set() })}
            data-testid="topology-collapse"
          >
            {t("pms.topology.collapse")}
          </Button>
          <Button onClick={() => setFitKey((k) => k + 1)}>{t("pms.topology.fit")}</Button>
          <Button icon={<ReloadOutlined />} onClick={() => void load(areaId)} loading={loading}>
            {t("common.refresh")}
          </Button>
        </Space>
        <Typography.Text type="secondary">{t("pms.topology.hint")}</Typography.Text>
        {topology?.truncated && (
          <Alert
            type="warning"
            showIcon
            title={t("pms.topology.truncated", { limit: TOPOLOGY_METER_LIMIT })}
            data-testid="topology-truncated"
          />
        )}
        {body}
      </Space>
    </Modal>
  );
}
