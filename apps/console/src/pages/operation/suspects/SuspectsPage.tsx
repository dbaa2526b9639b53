import type { TableColumnsType } from "antd";
import { Button, Card, Empty, Segmented, Select, Space, Table, Tag, Typography } from "antd";
import { useCallback, useState } from "react";
import { useSearchParams } from "react-router";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import "../../../crud/table.css";
import { SuspectDrawer } from "./SuspectDrawer.tsx";
import { loadSuspects, type Suspect, type SuspectState, sweepSuspects } from "./suspect-calls.ts";
import { figureText, STATE_COLOURS } from "./suspect-words.ts";

const STATES: SuspectState[] = ["new", "visiting", "confirmed", "dismissed"];

/**
 * 窃电与漏水 (运行控制): the meters and nodes the detectors suspect, best rank first, with their
 * evidence; an inspector opens one, sees its figures and daily series, and marks the visit's outcome.
 */
export default function SuspectsPage() {
  const t = useT();
  const { message } = useFeedback();
  const canSweep = useConsole((state) => state.permission.suspects_sweep === true);
  // Opened from 线损分析 for one node: its suspects only, until the filter is cleared.
  const [params, setParams] = useSearchParams();
  const nodeId = params.get("nodeId") ?? undefined;
  const nodeName = params.get("node") ?? nodeId;
  const [energyType, setEnergyType] = useState<1 | 2>(params.get("energyType") === "2" ? 2 : 1);
  const [state, setState] = useState<SuspectState | undefined>(undefined);
  const [openId, setOpenId] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [sweeping, setSweeping] = useState(false);
  const list = useLoaded(
    // biome-ignore lint/correctness/useExhaustiveDependencies: version asks for a fresh read
    useCallback(
      () => loadSuspects({ energyType, ...(state ? { state } : {}), ...(nodeId ? { nodeId } : {}) }),
      [energyType, state, nodeId, version],
    ),
  );

  const sweep = async () => {
    setSweeping(true);
    try {
      const answer = await sweepSuspects();
      message.success(t("suspects.swept", { count: answer.found }));
      setVersion((v) => v + 1);
    } catch (failure) {
      reportNetworkError(failure);
    } finally {
      setSweeping(false);
    }
  };

  const columns: TableColumnsType<Suspect> = [
    { key: "order", title: t("suspects.order"), width: 64, render: (_, _s, index) => index + 1 },
    {
      key: "subject",
      title: t("suspects.subject"),
      className: "ml-nowrap",
      render: (_, s) => (s.subjectType === "node" ? s.nodeName : s.meterCode) ?? s.subjectId,
    },
    {
      key: "place",
      title: t("suspects.place"),
      render: (_, s) => [s.buildingName, s.roomName].filter(Boolean).join(" · ") || s.nodeName || "",
    },
    {
      key: "kind",
      title: t("suspects.kind"),
      render: (_, s) => <Tag>{t(`suspects.kind.${s.kind}` as MessageKey)}</Tag>,
    },
    { key: "rank", title: t("suspects.rank"), align: "right", render: (_, s) => s.rank.toFixed(2) },
    { key: "score", title: t("suspects.score"), align: "right", render: (_, s) => s.score.toFixed(2) },
    {
      key: "evidence",
      title: t("suspects.evidence"),
      render: (_, s) =>
        s.figures
          .slice(0, 2)
          .map((figure) => figureText(t, figure))
          .join(";"),
    },
    {
      key: "state",
      title: t("suspects.state"),
      render: (_, s) => (
        <Tag color={STATE_COLOURS[s.state]} data-testid={`suspect-state-${s.id}`}>
          {t(`suspects.state.${s.state}` as MessageKey)}
        </Tag>
      ),
    },
    { key: "reason", title: t("suspects.reason"), render: (_, s) => s.reason ?? "" },
    {
      key: "actions",
      title: t("suspects.actions"),
      render: (_, s, index) => (
        <Button size="small" onClick={() => setOpenId(s.id)} data-testid={`suspect-open-${index}`}>
          {t("suspects.open")}
        </Button>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="suspects-page">
      <Card>
        <Space wrap size="middle">
          <Segmented<1 | 2>
            value={energyType}
            onChange={(v) => setEnergyType(v)}
            options={[
              { value: 1, label: t("suspects.electric") },
              { value: 2, label: t("suspects.water") },
            ]}
            aria-label={t("suspects.energyType")}
            data-testid="suspects-energy"
          />
          <Select<SuspectState | "all">
            style={{ minWidth: 140 }}
            aria-label={t("suspects.state")}
            value={state ?? "all"}
            onChange={(v) => setState(v === "all" ? undefined : v)}
            options={[
              { value: "all", label: t("suspects.allStates") },
              ...STATES.map((s) => ({ value: s, label: t(`suspects.state.${s}` as MessageKey) })),
            ]}
            data-testid="suspects-state-filter"
          />
          {nodeId && (
            <Tag
              closable
              onClose={() => setParams({})}
              title={t("suspects.clearNode")}
              data-testid="suspects-node-filter"
              data-node-id={nodeId}
            >
              {t("suspects.nodeFilter", { node: nodeName ?? "" })}
            </Tag>
          )}
          {canSweep && (
            <Button onClick={sweep} loading={sweeping} data-testid="suspects-sweep">
              {t("suspects.sweep")}
            </Button>
          )}
          <Typography.Text type="secondary">{t("suspects.note")}</Typography.Text>
        </Space>
      </Card>
      <Card>
        {list.error ? (
          <LoadFailed error={list.error} onRetry={() => setVersion((v) => v + 1)} testId="suspects-error" />
        ) : (
          <Table<Suspect>
            rowKey="id"
            size="small"
            loading={list.loading}
            columns={columns}
            dataSource={list.data?.records ?? []}
            pagination={false}
            locale={{ emptyText: <Empty description={t("suspects.empty")} /> }}
            data-testid="suspects-table"
          />
        )}
      </Card>
      <SuspectDrawer id={openId} onClose={() => setOpenId(null)} onChanged={() => setVersion((v) => v + 1)} />
    </Space>
  );
}
