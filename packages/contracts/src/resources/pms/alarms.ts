import { defineResource } from "../../resource/types.ts";
import { registryBase, remarkField } from "./base.ts";

/**
 * The tenant's alarm rules (spec §7 alarm): which checks raise check records, under the name the
 * operator reads (checkRuleName), with the rule's threshold. The balance rules read the levels of
 * each meter's alarm scheme and have no threshold of their own; for the others the threshold is
 * minutes without a reading (offline), units per hour the meter's rating allows (register jump) or
 * hours of uninterrupted flow (water flow). A rule without a row runs with its default; of two rows
 * for one rule the last edited holds.
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
