import type { CommandAction } from "@meterline/gateway";
import { VALVE_STATUS_COMMAND } from "./water-valve-status.ts";
import { WATER_WRITE } from "./water-writes.ts";

const text = (value: unknown): value is string => typeof value === "string";
const texts = (value: unknown, length: number): value is string[] =>
  Array.isArray(value) && value.length === length && value.every(text);

/**
 * How the gateway carries out a stored water command (command-source.db.ts): a price table or
 * alarm-amount write as written by water-writes.ts, a valve-state read as a 901F read. Undefined
 * for a type that is not one of these or a payload that does not fit (the command then fails).
 */
export function waterWriteAction(type: string, payload: Record<string, unknown>): CommandAction | undefined {
  switch (type) {
    case WATER_WRITE.price: {
      const { prices, thresholds, startDay } = payload;
      if (!texts(prices, 3) || !texts(thresholds, 2) || !Number.isInteger(startDay)) return undefined;
      return {
        kind: "water-price",
        table: {
          prices: [prices[0]!, prices[1]!, prices[2]!],
          thresholds: [thresholds[0]!, thresholds[1]!],
          startDay: startDay as number,
        },
      };
    }
    case WATER_WRITE.alarm:
      return text(payload.first) && text(payload.second)
        ? { kind: "water-alarm", amounts: { first: payload.first, second: payload.second } }
        : undefined;
    case VALVE_STATUS_COMMAND:
      return text(payload.di) ? { kind: "read", di: payload.di } : undefined;
    default:
      return undefined;
  }
}
