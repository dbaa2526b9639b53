import type { Row } from "@meterline/api-client";
import { Space, Tag } from "antd";
import { type MessageKey, useT } from "../../../i18n/index.tsx";

/** The state of a record in words; an alarming record someone ignored says so beside it. */
export function StateCell({ row }: { row: Row }) {
  const t = useT();
  const state = Number(row.alarmStatus);
  const colour = state === 1 ? "red" : state === 2 ? "green" : "default";
  return (
    <Space size={4}>
      <Tag color={colour}>{t(`alarm.state.${state}` as MessageKey)}</Tag>
      {row.ignored ? <Tag data-testid="alarm-ignored">{t("alarm.ignored")}</Tag> : null}
    </Space>
  );
}
