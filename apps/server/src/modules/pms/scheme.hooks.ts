import { badRequest } from "../../contract/errors.ts";
import { columnByName } from "../../crud/columns.ts";
import type { ResourceHooks } from "../../crud/hooks.ts";
import { mergedValues } from "./merged-values.ts";
import {
  bandsUsed,
  checkAlarmAmounts,
  checkLadder,
  checkProtectDates,
  checkProtectTimes,
  checkTouPeriods,
  SchemeError,
} from "./scheme-rules.ts";

const PRICE_MODE = { flat: 1, ladder: 2, tou: 3 } as const;
const bandPrice = { tip: "tipPrice", peak: "peakPrice", peace: "peacePrice", low: "lowPrice" } as const;

/** Scheme rules answer HTTP 400 naming the field, as every bad input does. */
function asBadRequest(check: () => void) {
  try {
    check();
  } catch (error) {
    if (error instanceof SchemeError) throw badRequest(error.message);
    throw error;
  }
}

const blank = (v: unknown) => v === undefined || v === null || v === "";

/** A charging scheme holds what its price mode needs, in canonical JSON. */
export const chargingSchemeHooks: ResourceHooks = {
  async beforeWrite({ db, def }, values, id) {
    const row = await mergedValues(db, def, values, id);
    asBadRequest(() => {
      switch (Number(row.priceMode)) {
        case PRICE_MODE.flat:
          if (blank(row.price)) throw new SchemeError("price", "单一价格需填写单价");
          break;
        case PRICE_MODE.ladder:
          if (blank(row.ladderCycle)) throw new SchemeError("ladderCycle", "阶梯价格需选择阶梯周期");
          values.set(columnByName(def, "ladder")!, JSON.stringify(checkLadder(row.ladder)));
          break;
        case PRICE_MODE.tou: {
          const periods = checkTouPeriods(row.touPeriods);
          for (const band of bandsUsed(periods)) {
            if (blank(row[bandPrice[band]]))
              throw new SchemeError(bandPrice[band], "分时时段用到的费率需填写电价");
          }
          values.set(columnByName(def, "touPeriods")!, JSON.stringify(periods));
          break;
        }
      }
    });
  },
};

/** An alarm scheme's amounts fall from first to second, and its protection windows are well formed. */
export const alarmSchemeHooks: ResourceHooks = {
  async beforeWrite({ db, def }, values, id) {
    const row = await mergedValues(db, def, values, id);
    asBadRequest(() => {
      checkAlarmAmounts(String(row.firstAlarm), String(row.secondAlarm));
      if (!blank(row.protectTimes))
        values.set(columnByName(def, "protectTimes")!, JSON.stringify(checkProtectTimes(row.protectTimes)));
      if (!blank(row.protectDates))
        values.set(columnByName(def, "protectDates")!, JSON.stringify(checkProtectDates(row.protectDates)));
    });
    if (!blank(row.notifyChannels)) {
      const channels = String(row.notifyChannels)
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean);
      const known = await db.query<{ dict_key: string }>(
        "select dict_key from sys_dict where code = 'notify_channel' and parent_id > 0 and is_deleted = 0",
      );
      const allowed = new Set(known.map((k) => k.dict_key));
      const unknown = channels.find((c) => !allowed.has(c));
      if (unknown) throw badRequest(`notifyChannels: 不支持的通知渠道 ${unknown}`);
      values.set(columnByName(def, "notifyChannels")!, [...new Set(channels)].join(","));
    }
  },
};
