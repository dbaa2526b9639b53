import type { Row } from "@meterline/api-client";
import type { TableColumnsType } from "antd";
import type { MessageKey, Translate } from "../../i18n/index.tsx";
import { type FlowState, StateTag } from "./StateTag.tsx";

/**
 * The columns 流程管理 and 流程跟踪 share: the row's fields as text under their `flow.col.*` titles,
 * then its state as a tag (a definition suspended or active, an instance suspended or running).
 */
export function flowColumns(
  t: Translate,
  keys: readonly string[],
  notSuspended: Exclude<FlowState, "suspended">,
): TableColumnsType<Row> {
  return [
    ...keys.map((key) => ({
      key,
      dataIndex: key,
      title: t(`flow.col.${key}` as MessageKey),
      render: (value: unknown) => String(value ?? ""),
    })),
    {
      key: "state",
      title: t("work.col.state"),
      render: (_: unknown, row: Row) => (
        <StateTag state={Number(row.suspensionState) === 2 ? "suspended" : notSuspended} />
      ),
    },
  ];
}
