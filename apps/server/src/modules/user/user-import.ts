import { ApiError } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { loadExcel } from "../../xlsx/excel.ts";
import { readWorkbook } from "../../xlsx/read-workbook.ts";
import type { SheetBounds, SheetCell, SheetData } from "../../xlsx/sheet-bounds.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { asMd5, hashPassword } from "../auth/password.ts";
import { storeRejectedRows } from "../file/rejected-rows-sheet.ts";
import { initialPassword } from "./initial-password.ts";
import { UserService } from "./user.service.ts";

/** The sheet's columns: header text → field. The template and the import share them. */
export const IMPORT_COLUMNS = [
  { header: "登录账号", field: "account" },
  { header: "用户昵称", field: "name" },
  { header: "用户姓名", field: "realName" },
  { header: "手机号码", field: "phone" },
  { header: "电子邮箱", field: "email" },
  { header: "角色别名", field: "roles" },
  { header: "部门名称", field: "depts" },
  { header: "性别", field: "sex" },
] as const;
export const MAX_IMPORT_ROWS = 5000;
/** A user sheet is small: 5,000 rows of 8 short columns are well under a few MB of sheet XML. */
export const USER_SHEET_BOUNDS: SheetBounds = {
  maxInflatedBytes: 32 * 1024 * 1024,
  maxEntries: 500,
  maxRows: MAX_IMPORT_ROWS,
  maxColumns: 64,
  maxCellChars: 1000,
};
const SEX: Record<string, number> = { 男: 1, 女: 2, 未知: 3 };

export interface ImportResult {
  created: number;
  updated: number;
  rejected: number;
  /** Link to a sheet of the rejected rows with their reasons; empty when none. */
  rejectedFile: string;
}

const cellText = (value: SheetCell | undefined): string =>
  value === null || value === undefined ? "" : String(value).trim();

export async function importTemplate(): Promise<Buffer> {
  const book = new (await loadExcel()).Workbook();
  const sheet = book.addWorksheet("用户");
  sheet.columns = IMPORT_COLUMNS.map((c) => ({ header: c.header, key: c.field, width: 18 }));
  sheet.addRow({
    account: "zhangsan",
    name: "张三",
    realName: "张三",
    phone: "13800000000",
    roles: "user",
    depts: "",
    sex: "男",
  });
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * The uploaded sheet, read within the bounds. Read before the import's transaction opens, so a
 * slow or refused file never holds a database connection.
 */
export async function readUserSheet(file: Buffer): Promise<SheetData> {
  const sheet = await readWorkbook(file, USER_SHEET_BOUNDS);
  if (!sheet) throw new ApiError(400, "file: 文件中没有工作表");
  return sheet;
}

/**
 * Imports users from a sheet: each row lands whole or not at all (a savepoint per row), good rows
 * land even when others fail, and the failures come back as a sheet with a reason per row.
 * With `covered`, rows whose account exists update that user's profile instead of failing.
 */
export async function importUsers(
  tx: Queryable,
  caller: CurrentUser,
  sheet: SheetData,
  options: { covered: boolean; timeZone: string; production: boolean },
): Promise<ImportResult> {
  const headers = sheet.headers.map((h) => cellText(h));
  const index = new Map<string, number>(IMPORT_COLUMNS.map((c) => [c.field, headers.indexOf(c.header)]));
  const missing = IMPORT_COLUMNS.filter((c) => (index.get(c.field) ?? -1) < 0 && c.field !== "sex");
  if (missing.length) throw new ApiError(400, `file: 缺少列 ${missing.map((c) => c.header).join("、")}`);

  const users = new UserService(tx, options.timeZone);
  // Everyone imported starts with the tenant's known password until they change it: hash it once.
  const initialHash = await hashPassword(
    asMd5(await initialPassword(tx, caller.tenantId, options.production)),
  );
  const result = { created: 0, updated: 0, rejected: 0 };
  const rejectedRows: string[][] = [];
  for (const { cells } of sheet.rows) {
    const text = (field: string) => cellText(cells[index.get(field) ?? -1]);
    const raw = IMPORT_COLUMNS.map((c) => text(c.field));
    if (raw.every((v) => v === "")) continue;
    await tx.query("savepoint import_row");
    try {
      const body = {
        account: text("account"),
        name: text("name"),
        realName: text("realName"),
        phone: text("phone"),
        email: text("email"),
        sex: SEX[text("sex")] ?? undefined,
        roleId: await idsByName(tx, caller.tenantId, "sys_role", "role_alias", text("roles"), "角色别名"),
        deptId: await idsByName(tx, caller.tenantId, "sys_dept", "dept_name", text("depts"), "部门名称"),
      };
      // A blank cell says nothing: on update it keeps the stored value, on create the field is missing.
      for (const key of Object.keys(body) as (keyof typeof body)[]) {
        if (body[key] === "" || body[key] === undefined) delete body[key];
      }
      const [existing] = await tx.query<{ id: string }>(
        "select id from sys_user where tenant_id = $1 and account = $2 and is_deleted = 0",
        [caller.tenantId, body.account],
      );
      if (existing && options.covered) {
        await users.update(caller, existing.id, body);
        result.updated++;
      } else {
        await users.create(caller, body, initialHash);
        result.created++;
      }
      await tx.query("release savepoint import_row");
    } catch (error) {
      await tx.query("rollback to savepoint import_row");
      if (!(error instanceof ApiError)) throw error;
      result.rejected++;
      rejectedRows.push([...raw, error.message]);
    }
  }
  const rejectedFile = rejectedRows.length ? (await rejectedSheet(tx, caller, rejectedRows)).link : "";
  return { ...result, rejectedFile };
}

/** Ids of the tenant's rows whose `column` is one of the CSV names; an unknown name is the row's error. */
async function idsByName(
  tx: Queryable,
  tenantId: string,
  table: string,
  column: string,
  csv: string,
  label: string,
) {
  const names = csv
    .split(/[,，]/)
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) return "";
  const rows = await tx.query<{ id: string; name: string }>(
    `select id, ${column} as name from ${table} where tenant_id = $1 and is_deleted = 0 and ${column} = any($2)`,
    [tenantId, names],
  );
  const unknown = names.filter((n) => !rows.some((r) => r.name === n));
  if (unknown.length) throw new ApiError(400, `${label}: 不存在 ${unknown.join("、")}`);
  return rows.map((r) => r.id).join(",");
}

const rejectedSheet = (tx: Queryable, caller: CurrentUser, rows: string[][]) =>
  storeRejectedRows(tx, caller, {
    fileName: "未导入的用户.xlsx",
    columns: [
      ...IMPORT_COLUMNS.map((c) => ({ header: c.header, width: 18 })),
      { header: "失败原因", width: 48 },
    ],
    rows,
  });
