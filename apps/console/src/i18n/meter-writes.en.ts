import type { meterWritesZh } from "./meter-writes.zh.ts";

/** English strings of the price and alarm-limit writes to local-prepaid meters. */
export const meterWritesEn: Record<keyof typeof meterWritesZh, string> = {
  "meterWrite.price": "Write prices",
  "meterWrite.alarm": "Write alarm limits",
  "meterWrite.confirm.price":
    "Write the prices of each account's charging scheme to the {count} selected local-prepaid meters?",
  "meterWrite.confirm.alarm":
    "Write alarm amounts 1 and 2 and the overdraft limit of each account's alarm scheme to the {count} selected local-prepaid meters?",
  "meterWrite.skippedTitle": "{count} meters not written",
  "meterWrite.skippedRow": "{meter}: {reason}",
} as const;
