/** 本地费控表写电价、写告警金额的中文文案。 */
export const meterWritesZh = {
  "meterWrite.price": "写电价",
  "meterWrite.alarm": "写告警金额",
  "meterWrite.confirm.price": "按账户的收费方案把电价写入所选的 {count} 块本地费控表?",
  "meterWrite.confirm.alarm": "按账户的告警方案把告警金额1、2和透支限额写入所选的 {count} 块本地费控表?",
  "meterWrite.skippedTitle": "{count} 块表未下发",
  "meterWrite.skippedRow": "{meter}:{reason}",
} as const;
