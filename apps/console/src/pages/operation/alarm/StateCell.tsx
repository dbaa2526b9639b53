import type { Row } from "@meterline/api-client";
import { Space, Tag } from "antd";
import { type MessageKey, useT } from "../../../i18n/index.tsx";

/**
 * antd's green tag (#389e0d on #f6ffed) reaches only 3.4:1: a recovered record gets a fixed
 * dark-on-light pair that meets 4.5:1 in every theme, as the balance levels do.
 */
const RECOVERED = { color: "#135200", background: "#f6ffed", borderColor: "#b7eb8f" };

/** The state of a record in words; an alarming record someone ignored says so beside it. */
export function StateCell({ row }: { row: Row }) {
  const t = useT();
  const state = Number(row.alarmStatus);
  return (
    <Space size={4}>
      {state === 2 ? (
        <Tag style={RECOVERED}>{t("alarm.state.2")}</Tag>
      ) : (
        <Tag color={state === 1 ? "red" : "default"}>{t(`alarm.state.${state}` as MessageKey)}</Tag>
      )}
      {row.ignored ? <Tag data-testid="alarm-ignored">{t("alarm.ignored")}</Tag> : null}
    </Space>
  );
}
