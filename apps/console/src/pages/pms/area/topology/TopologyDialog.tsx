import { ReloadOutlined } from "@ant-design/icons";
import { Alert, Button, Empty, Modal, Result, Space, Spin, TreeSelect, Typography, theme } from "antd";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { describeError, reportNetworkError } from "../../../../app/api.ts";
import { useReducedMotion } from "../../../../app/useReducedMotion.ts";
import { ErrorBoundary } from "../../../../components/ErrorBoundary.tsx";
import { LoadFailed } from "../../../../components/LoadFailed.tsx";
import { useI18n } from "../../../../i18n/index.tsx";
import { useAreaTree } from "../useAreaTree.ts";
import { loadTopology, type Topology } from "./topology-calls.ts";
import { countByCategory, type TopologyLook } from "./topology-option.ts";

// ECharts is large: it loads with the chart, the first time a topology is opened.
const TopologyChart = lazy(() => import("./TopologyChart.tsx"));

const CHART_HEIGHT = "62vh";

interface Props {
  /** The area chosen on the area screen; the whole tenant when none. */
  areaId?: string;
  onClose: () => void;
}

/**
 * The registry topology (area → room → meter → collector) in a large dialog: pick an area, pan and
 * zoom the graph; a graph too large to draw whole says so.
 */
export function TopologyDialog({ areaId: chosen, onClose }: Props) {
  const { t } = useI18n();
  const { token } = theme.useToken();
  const reduced = useReducedMotion();
  const areas = useAreaTree();
  const [areaId, setAreaId] = useState(chosen);
  const [state, setState] = useState<{ topology: Topology | null; loading: boolean; error: string | null }>({
    topology: null,
    loading: true,
    error: null,
  });

  const load = useCallback(async (area?: string) => {
    setState((s) => ({ ...s, loading: true }));
    try {
      setState({ topology: await loadTopology(area), loading: false, error: null });
    } catch (error) {
      reportNetworkError(error);
      setState({ topology: null, loading: false, error: describeError(error) });
    }
  }, []);
  useEffect(() => {
    void load(areaId);
  }, [load, areaId]);

  const look = useMemo<TopologyLook>(
    () => ({
      names: {
        area: t("pms.topology.area"),
        room: t("pms.topology.room"),
        meter: t("pms.topology.meter"),
        water: t("pms.topology.water"),
        collector: t("pms.topology.collector"),
      },
      colours: {
        area: token.colorPrimary,
        room: token.colorSuccess,
        meter: token.colorWarning,
        water: token.cyan6,
        collector: token.purple6,
      },
      text: token.colorText,
      line: token.colorBorder,
      offlineFill: token.colorBgContainer,
      offlineBorder: token.colorError,
      offlineWord: t("pms.topology.offline"),
      onlineWord: t("pms.topology.online"),
      animate: !reduced,
    }),
    [t, token, reduced],
  );

  const { topology, loading, error } = state;
  const summary = useMemo(() => {
    if (!topology) return "";
    const counts = countByCategory(topology);
    return t("pms.topology.summary", {
      ...counts,
      offline: topology.nodes.filter((n) => n.online === 0).length,
    });
  }, [topology, t]);

  let body = <Spin spinning style={{ display: "block", height: CHART_HEIGHT }} />;
  if (error) {
    body = <LoadFailed error={error} onRetry={() => void load(areaId)} />;
  } else if (topology && topology.nodes.length === 0) {
    body = <Empty description={t("pms.topology.empty")} data-testid="topology-empty" />;
  } else if (topology) {
    body = (
      <ErrorBoundary
        fallback={(failure) => <Result status="error" title={t("page.crashed")} subTitle={failure.message} />}
      >
        <Suspense fallback={<Spin spinning style={{ display: "block", height: CHART_HEIGHT }} />}>
          <TopologyChart topology={topology} look={look} summary={summary} height={CHART_HEIGHT} />
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
            style={{ width: 260 }}
            aria-label={t("pms.areaTree")}
            data-testid="topology-area"
          />
          <Button icon={<ReloadOutlined />} onClick={() => void load(areaId)} loading={loading}>
            {t("common.refresh")}
          </Button>
          <Typography.Text type="secondary">{t("pms.topology.hint")}</Typography.Text>
        </Space>
        {topology?.truncated && (
          <Alert
            type="warning"
            showIcon
            title={t("pms.topology.truncated")}
            data-testid="topology-truncated"
          />
        )}
        {body}
      </Space>
    </Modal>
  );
}
