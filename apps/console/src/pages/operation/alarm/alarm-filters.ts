import type { QueryParams } from "@meterline/api-client";
import type { FieldDef, ResourceDef } from "@meterline/contracts";
import type { Dayjs } from "dayjs";

/** What the 告警记录 search bar holds. Dictionary keys are text, as the dictionaries answer them. */
export interface AlarmFilters {
  areaId?: string;
  ruleCode?: string;
  alarmLevel?: string;
  alarmStatus?: string;
  productCode?: string;
  period?: [Dayjs | null, Dayjs | null];
}

const stamp = (day: Dayjs | null | undefined) => (day ? day.format("YYYY-MM-DD HH:mm:ss") : undefined);

/** The search as checkRecord/page's (and its export's) parameters. */
export function alarmQuery(values: AlarmFilters): QueryParams {
  const [from, to] = values.period ?? [null, null];
  return {
    areaId: values.areaId,
    ruleCode: values.ruleCode,
    alarmLevel: values.alarmLevel,
    alarmStatus: values.alarmStatus,
    productCode: values.productCode?.trim(),
    startTime: stamp(from),
    endTime: stamp(to),
  };
}

/**
 * The filters a link may open the screen with (the home page's alarms per rule): rule and state
 * from the address, anything else ignored.
 */
export function filtersFromSearch(search: string): Pick<AlarmFilters, "ruleCode" | "alarmStatus"> {
  const params = new URLSearchParams(search);
  const ruleCode = params.get("ruleCode") ?? undefined;
  const alarmStatus = params.get("alarmStatus") ?? undefined;
  return {
    ...(ruleCode && /^[a-z][a-z0-9_]{0,31}$/.test(ruleCode) ? { ruleCode } : {}),
    ...(alarmStatus && /^[0-3]$/.test(alarmStatus) ? { alarmStatus } : {}),
  };
}

/** The address of 告警记录 showing the alarming records of one rule. */
export const alarmsOfRuleHref = (ruleCode: string) =>
  `/operation/checkrecord?${new URLSearchParams({ ruleCode, alarmStatus: "1" })}`;

/** The dictionaries of the selects: rules (system), levels and states (the tenant's business ones). */
export const ruleField: FieldDef = { type: "string", dict: "alarm_rule" };
export const levelField: FieldDef = { type: "int", dictBiz: "ALARM_LEVEL" };
export const stateField: FieldDef = { type: "int", dictBiz: "ALARM_STATUS" };

/**
 * The area link of the search bar, declared like a resource field so the registry's area tree
 * serves it with the same look as every other screen (the server lets 告警记录 read the tree).
 */
export const alarmFilterDef: ResourceDef = {
  name: "checkRecordFilter",
  table: "",
  service: "blade-pms",
  path: "",
  listVerb: "page",
  tenantScoped: true,
  softDelete: false,
  audit: false,
  readOnly: true,
  fields: {
    areaId: { type: "id", search: "equal", ref: { resource: "area", label: "areaName" } },
  },
};
