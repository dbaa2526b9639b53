import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { storeRejectedRows } from "../file/rejected-rows-sheet.ts";
import { IMPORT_COLUMNS } from "./import-columns.ts";
import type { Rejection } from "./import-plan.ts";

export const REASON_HEADER = "失败原因";
export const ROW_HEADER = "原行号";

/**
 * Stores the rejected rows as a sheet in the template's own layout plus a reason and the row's
 * number in the uploaded file: the operator fixes the rows in place and imports this very file
 * (the extra columns are ignored on import).
 */
export const storeRejectedSheet = (db: Queryable, caller: CurrentUser, rejected: readonly Rejection[]) =>
  storeRejectedRows(db, caller, {
    fileName: "未导入的房间档案.xlsx",
    columns: [
      ...IMPORT_COLUMNS.map((c) => ({ header: c.header, width: c.width, text: c.text })),
      { header: REASON_HEADER, width: 60 },
      { header: ROW_HEADER, width: 8 },
    ],
    rows: rejected.map((r) => [...IMPORT_COLUMNS.map((c) => r.text[c.key]), r.reason, r.row]),
  });
