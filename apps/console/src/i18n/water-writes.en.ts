import type { waterWritesZh } from "./water-writes.zh.ts";

/** English strings of the water meters' price and alarm writes and valve-state reads. */
export const waterWritesEn: Record<keyof typeof waterWritesZh, string> = {
  "waterWrite.price": "Write water prices",
  "waterWrite.alarm": "Write alarm amounts",
  "waterWrite.valve": "Read valve state",
  "waterWrite.confirm.price":
    "Write the price table of each account's charging scheme (3 prices, 2 usage steps) to the {count} selected water meters?",
  "waterWrite.confirm.alarm":
    "Write alarm amounts 1 and 2 of each account's alarm scheme to the {count} selected water meters?",
  "waterWrite.confirm.valve":
    "Read the valve state of the {count} selected water meters now? Results show in the switch status column and the command records as they arrive.",
} as const;
