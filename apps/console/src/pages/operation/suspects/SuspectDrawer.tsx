import { Button, Descriptions, Drawer, Input, Space, Spin, Tag, theme } from "antd";
import dayjs from "dayjs";
import { lazy, Suspense, useCallback, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useLoaded } from "../../../components/useLoaded.ts";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { loadSuspect, markSuspect, type SuspectDetail, type SuspectState } from "./suspect-calls.ts";
import { figureKey, figureName, figureValue, STATE_COLOURS } from "./suspect-words.ts";

const SeriesChart = lazy(() => import("../../../components/charts/SeriesChart.tsx"));

/** Where each state may go (as the server allows): visit, judge, or reopen a dismissed one. */
const NEXT: Record<SuspectState, SuspectState[]> = {
  new: ["visiting", "confirmed", "dismissed"],
  visiting: ["confirmed", "dismissed"],
  confirmed: [],
  dismissed: ["visiting"],
};
const ACTION_KEYS: Record<SuspectState, MessageKey> = {
  new: "suspects.state.new",
  visiting: "suspects.markVisiting",
  confirmed: "suspects.markConfirmed",
  dismissed: "suspects.markDismissed",
};

/** One suspect's evidence: its figures, its subject's daily series, and the inspector's buttons. */
export function SuspectDrawer({
  id,
  onClose,
  onChanged,
}: {
  id: string | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const t = useT();
  const { token } = theme.useToken();
  const { message } = useFeedback();
  const canJudge = useConsole((state) => state.permission.suspects_state === true);
  const [version, setVersion] = useState(0);
  const [reason, setReason] = useState("");
  const detail = useLoaded(
    // biome-ignore lint/correctness/useExhaustiveDependencies: version asks for a fresh read
    useCallback(() => (id ? loadSuspect(id) : Promise.resolve(null)), [id, version]),
  );

  const mark = async (s: SuspectDetail, next: SuspectState) => {
    try {
      await markSuspect(s.id, next, reason.trim());
    } catch (failure) {
      reportNetworkError(failure);
      return;
    }
    message.success(t("suspects.marked"));
    setReason("");
    setVersion((v) => v + 1);
    onChanged();
  };

  const s = detail.data;
  const needsReason = (next: SuspectState) => next === "confirmed" || next === "dismissed";
  const body = detail.error ? (
    <LoadFailed error={detail.error} onRetry={() => setVersion((v) => v + 1)} testId="suspect-error" />
  ) : detail.loading || !s ? (
    <Spin />
  ) : (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Descriptions size="small" column={1} bordered data-testid="suspect-figures">
        <Descriptions.Item label={t("suspects.kind")}>
          {t(`suspects.kind.${s.kind}` as MessageKey)}
        </Descriptions.Item>
        <Descriptions.Item label={t("suspects.period")}>
          {dayjs(s.evidenceFrom).format("YYYY-MM-DD HH:mm")} –{" "}
          {dayjs(s.evidenceTo).format("YYYY-MM-DD HH:mm")}
        </Descriptions.Item>
        {s.figures.map((figure) => (
          <Descriptions.Item key={figureKey(figure)} label={figureName(t, figure)}>
            {figureValue(t, figure)}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={t("suspects.state")}>
          <Tag color={STATE_COLOURS[s.state]}>{t(`suspects.state.${s.state}` as MessageKey)}</Tag>
          {s.reason ?? ""}
        </Descriptions.Item>
      </Descriptions>
      <Suspense fallback={<Spin />}>
        <SeriesChart
          labels={s.series.map((d) => d.day.slice(5))}
          series={[
            {
              name: t(s.subjectType === "node" ? "suspects.chart.loss" : "suspects.chart.usage"),
              values: s.series.map((d) => d.value ?? "-"),
              color: token.colorPrimary,
              kind: "bar",
            },
            ...(s.power
              ? [
                  {
                    name: t("suspects.chart.power"),
                    values: s.power.map((d) => d.value ?? "-"),
                    color: token.colorWarning,
                    kind: "line" as const,
                  },
                ]
              : []),
          ]}
          textColor={token.colorTextSecondary}
          summary={t("suspects.chartOf", { subject: s.meterCode ?? s.nodeName ?? s.subjectId })}
          testId="suspect-chart"
        />
      </Suspense>
      {canJudge && NEXT[s.state].length > 0 && (
        <Space orientation="vertical" style={{ width: "100%" }}>
          <Input.TextArea
            value={reason}
            maxLength={200}
            aria-label={t("suspects.reason")}
            placeholder={t("suspects.reasonHint")}
            onChange={(e) => setReason(e.target.value)}
            data-testid="suspect-reason"
          />
          <Space wrap>
            {NEXT[s.state].map((next) => (
              <Button
                key={next}
                type={next === "confirmed" ? "primary" : "default"}
                danger={next === "confirmed"}
                disabled={needsReason(next) && !reason.trim()}
                onClick={() => mark(s, next)}
                data-testid={`suspect-mark-${next}`}
              >
                {t(ACTION_KEYS[next])}
              </Button>
            ))}
          </Space>
        </Space>
      )}
    </Space>
  );

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={560}
      title={
        s ? `${t("suspects.evidenceOf")} ${s.meterCode ?? s.nodeName ?? s.subjectId}` : t("suspects.evidence")
      }
      destroyOnHidden
      data-testid="suspect-drawer"
    >
      {body}
    </Drawer>
  );
}
