import { badRequest } from "../../contract/errors.ts";
import { optionalString } from "../../contract/params.ts";

/** IGNORE_TYPE and its days (spec §4): this time 0, seven days 7, permanently 9999. */
export const IGNORE_DAYS = { 1: 0, 2: 7, 3: 9999 } as const;
export type IgnoreType = keyof typeof IGNORE_DAYS;

const TYPE_OF_DAYS: Record<string, IgnoreType> = { "0": 1, "7": 2, "9999": 3 };

export interface IgnoreInput {
  recordId: string;
  meterId: string | undefined;
  ignoreType: IgnoreType;
  days: number;
  reason: string;
}

/**
 * checkIgnore/save's parameters (spec §7): the record, the ignore type or its days (`days` or
 * `ignoreDate`; 7 when none is given), and the remark or reason, required for a permanent ignore.
 * Each wrong one is a 400 naming it; nothing is read from the database here.
 */
export function readIgnoreInput(params: Record<string, unknown>): IgnoreInput {
  const recordId = optionalString(params, "recordId")?.trim();
  if (!recordId) throw badRequest("recordId: 请选择告警记录");
  if (!/^\d{1,19}$/.test(recordId)) throw badRequest("recordId: 告警记录不存在");
  const meterId = optionalString(params, "meterId")?.trim();
  if (meterId !== undefined && !/^\d{1,19}$/.test(meterId)) throw badRequest("meterId: 表计不存在");
  const typeText = optionalString(params, "ignoreType")?.trim();
  // The days travel as `days` or, in the family's own model, as `ignoreDate` (spec §4 ignore record).
  const days = optionalString(params, "days")?.trim();
  const ignoreDate = optionalString(params, "ignoreDate")?.trim();
  if (days !== undefined && ignoreDate !== undefined && days !== ignoreDate)
    throw badRequest(`ignoreDate: 与 days 不符, 应为 ${days}`);
  const daysField = days !== undefined ? "days" : "ignoreDate";
  const daysText = days ?? ignoreDate;
  let ignoreType: IgnoreType | undefined;
  if (typeText !== undefined) {
    if (typeText !== "1" && typeText !== "2" && typeText !== "3")
      throw badRequest("ignoreType: 只能是 1(忽略本次)、2(忽略7天) 或 3(永久忽略)");
    ignoreType = Number(typeText) as IgnoreType;
  }
  if (daysText !== undefined) {
    const byDays = TYPE_OF_DAYS[daysText];
    if (byDays === undefined) throw badRequest(`${daysField}: 只能是 0(本次)、7 或 9999(永久)`);
    if (ignoreType !== undefined && ignoreType !== byDays)
      throw badRequest(`${daysField}: 与忽略方式 ${ignoreType} 不符, 应为 ${IGNORE_DAYS[ignoreType]}`);
    ignoreType = byDays;
  }
  ignoreType ??= 2;
  const reason = (optionalString(params, "reason") ?? optionalString(params, "remark") ?? "").trim();
  if (ignoreType === 3 && reason === "") throw badRequest("reason: 忽略理由不能为空");
  if (reason.length > 255) throw badRequest("reason: 忽略理由不能超过 255 个字符");
  return { recordId, meterId, ignoreType, days: IGNORE_DAYS[ignoreType], reason };
}
