import { defineResource } from "../../resource/types.ts";
import { registryBase, remarkField } from "./base.ts";

/**
 * The tenant's alarm rules (spec §7 alarm): which checks raise check records, under the name the
 * operator reads (checkRuleName), with the rule's threshold. The balance rules read the levels of
 * each meter's alarm scheme, and the rules on a reported state (reverse energy, battery, valve) have
 * no threshold of their own; for the others the threshold is minutes (offline: without a reading;
 * clock drift: the clock off by; relay fault: the settle time; unsettled command: the wait), units
 * per hour the meter's rating allows (register jump), hours (water flow: of uninterrupted flow; cover
 * open: how long an opening alarms) or kW (over-power). A rule without a row runs with its default;
 * of two rows for one rule the last edited holds. The codes and default names: ALARM_RULE_CODES.
 */
export const alarm = defineResource({
  name: "alarm",
  table: "pms_alarm",
  ...registryBase,
  path: "alarm",
  listVerb: "list",
  fields: {
    ruleCode: {
      type: "string",
      required: true,
      maxLength: 32,
      dict: "alarm_rule",
      search: "equal",
    },
    checkRuleName: { type: "string", required: true, maxLength: 64, search: "like" },
    threshold: { type: "decimal", scale: 2, min: 0, max: 1_000_000 },
    enabled: { type: "int", required: true, dictBiz: "YES_NO", default: 1, search: "equal" },
    remark: remarkField,
  },
});
