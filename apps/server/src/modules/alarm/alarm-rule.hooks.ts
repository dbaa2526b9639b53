import { isAlarmRuleCode } from "@meterline/contracts";
import { badRequest } from "../../contract/errors.ts";
import { columnByName } from "../../crud/columns.ts";
import type { ResourceHooks } from "../../crud/hooks.ts";

/**
 * A tenant's alarm rule names a rule the server runs. The alarm_rule dictionary also names what
 * owner messages are about (a balance reminder is no rule), so the dictionary alone does not
 * decide: a rule nobody runs would be saved and never raise anything.
 */
export const alarmRuleHooks: ResourceHooks = {
  async beforeWrite({ def }, values) {
    const column = columnByName(def, "ruleCode");
    if (!column || !values.has(column)) return;
    const code = values.get(column);
    if (typeof code === "string" && !isAlarmRuleCode(code))
      throw badRequest("ruleCode: 不是系统运行的告警规则");
  },
};
