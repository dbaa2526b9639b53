import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { storeRejectedRows } from "../file/rejected-rows-sheet.ts";
import { COLLECTOR_COLUMNS, COLLECTOR_SHEET } from "./collector-columns.ts";
import type { CollectorRejection } from "./collector-planner.ts";
import { IMPORT_COLUMNS } from "./import-columns.ts";
import type { Rejection } from "./import-plan.ts";
import { NODE_COLUMNS, NODE_METER_COLUMNS, NODE_METER_SHEET, NODE_SHEET } from "./topology-columns.ts";
import type { TopologyRejection } from "./topology-planner.ts";

export const REASON_HEADER = "失败原因";
export const ROW_HEADER = "原行号";

/**
 * Stores the rejected rows as a sheet in the template's own layout plus a reason and the row's
 * number in the uploaded file: the operator fixes the rows in place and imports this very file
 * (the extra columns are ignored on import).
 */
export const storeRejectedSheet = (
  db: Queryable,
  caller: CurrentUser,
  rejected: readonly Rejection[],
  topology: readonly TopologyRejection[] = [],
  collectors: readonly CollectorRejection[] = [],
) =>
  storeRejectedRows(
    db,
    caller,
    {
      fileName: "未导入的房间档案.xlsx",
      columns: withReason(IMPORT_COLUMNS),
      rows: rejected.map((r) => [...IMPORT_COLUMNS.map((c) => r.text[c.key]), r.reason, r.row]),
    },
    // Topology rows go to sheets laid out as the template's 计量节点 and 节点下级表; collector rows
    // to one laid out as its 采集器, their secrets masked.
    [
      ...(
        [
          [NODE_SHEET, NODE_COLUMNS, "nodes"],
          [NODE_METER_SHEET, NODE_METER_COLUMNS, "nodeMeters"],
        ] as const
      ).map(([name, columns, kind]) => ({
        name,
        columns: withReason(columns),
        rows: topology.filter((r) => r.sheet === kind).map((r) => [...r.cells, r.reason, r.row]),
      })),
      {
        name: COLLECTOR_SHEET,
        columns: withReason(COLLECTOR_COLUMNS),
        rows: collectors.map((r) => [...r.cells, r.reason, r.row]),
      },
    ],
  );

const withReason = (columns: readonly { header: string; width: number; text: boolean }[]) => [
  ...columns.map((c) => ({ header: c.header, width: c.width, text: c.text })),
  { header: REASON_HEADER, width: 60 },
  { header: ROW_HEADER, width: 8 },
];
