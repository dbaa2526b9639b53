import type { QueryParams } from "@meterline/api-client";
import type { ResourceDef } from "@meterline/contracts";
import type { Dayjs } from "dayjs";

/** The search fields a money list may show, in the order they appear. */
export type MoneyFilter =
  | "areaId"
  | "roomId"
  | "ownerName"
  | "phone"
  | "productCode"
  | "receiptNo"
  | "outTradeNo"
  | "tradeType"
  | "energyType"
  | "rechargeType"
  | "paymentMethod"
  | "state"
  | "channel"
  | "period";

export const DAY = "YYYY-MM-DD";

type Range = [Dayjs | null, Dayjs | null] | null | undefined;

/**
 * Search values → the list call's parameters: texts trimmed, selects as their keys, the period as
 * `startTime` / `endTime` days (the server takes the start day from 00:00 and the end day to 23:59:59).
 */
export function toMoneyQuery(values: Record<string, unknown>): QueryParams {
  const query: QueryParams = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === "period") continue;
    if (typeof value === "string" && value.trim() !== "") query[name] = value.trim();
    else if (typeof value === "number") query[name] = value;
  }
  const [from, to] = (values.period as Range) ?? [null, null];
  if (from) query.startTime = from.format(DAY);
  if (to) query.endTime = to.format(DAY);
  return query;
}

/**
 * The links of the search bar, declared like a resource's fields so the registry's own pickers
 * (the area tree, rooms under their areas) serve them, with the same look as every other screen.
 */
export const moneyFilterDef: ResourceDef = {
  name: "moneyFilter",
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
    roomId: { type: "id", search: "equal", ref: { resource: "room", label: "roomName" } },
    energyType: { type: "int", search: "equal", dict: "energy_type" },
    rechargeType: { type: "int", search: "equal", dictBiz: "RECHARGE_TYPE" },
    paymentMethod: { type: "int", search: "equal", dictBiz: "PAYMENT_METHOD" },
    controlStatus: { type: "int", dictBiz: "CONTROL_STATUS" },
  },
};
