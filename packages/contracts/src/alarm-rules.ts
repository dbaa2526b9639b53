/**
 * The alarm rules a check record names (dictionary alarm_rule): their codes in the order operators
 * read them, and the names shown where a rule is listed. The server's rules and the console's
 * filters both read this one list, so a rule exists in both or in neither.
 */
export const ALARM_RULE_CODES = [
  "balance_low",
  "balance_severe",
  "arrears",
  "offline",
  "register_back",
  "register_jump",
  "water_flow",
  "reverse_energy",
  "clock_drift",
  "cover_open",
  "relay_fault",
  "battery_low",
  "valve_fault",
  "over_power",
  "command_unsettled",
  "loss_above_band",
  "loss_negative",
] as const;
export type AlarmRuleCode = (typeof ALARM_RULE_CODES)[number];

export const isAlarmRuleCode = (code: string): code is AlarmRuleCode =>
  (ALARM_RULE_CODES as readonly string[]).includes(code);

/** Each rule's name (checkRuleName when the tenant has not renamed it) in Chinese and English. */
export const ALARM_RULE_NAMES: Record<AlarmRuleCode, { zh: string; en: string }> = {
  balance_low: { zh: "余额不足", en: "Low balance" },
  balance_severe: { zh: "余额严重不足", en: "Severely low balance" },
  arrears: { zh: "欠费", en: "Arrears" },
  offline: { zh: "表计离线", en: "Meter offline" },
  register_back: { zh: "读数倒走", en: "Register went backwards" },
  register_jump: { zh: "读数跳变", en: "Register jumped" },
  water_flow: { zh: "持续流水", en: "Continuous water flow" },
  reverse_energy: { zh: "电能反向", en: "Reverse energy" },
  clock_drift: { zh: "时钟偏差", en: "Meter clock off" },
  cover_open: { zh: "开表盖", en: "Meter cover opened" },
  relay_fault: { zh: "继电器故障", en: "Relay fault" },
  battery_low: { zh: "电池欠压", en: "Battery low" },
  valve_fault: { zh: "阀门故障", en: "Valve fault" },
  over_power: { zh: "功率超限", en: "Power over limit" },
  command_unsettled: { zh: "指令待确认", en: "Command not confirmed" },
  loss_above_band: { zh: "线损超出正常范围", en: "Loss above its normal band" },
  loss_negative: { zh: "负线损(挂接或表计故障)", en: "Negative loss (mapping or meter fault)" },
};

/**
 * The rules a metering node's day raises on its master meter (the daily line-loss sweep), one
 * record per node and day; the others are conditions of a meter that hold now and restore.
 */
export const LINE_LOSS_RULE_CODES = [
  "loss_above_band",
  "loss_negative",
] as const satisfies readonly AlarmRuleCode[];
