import type { FieldDef } from "@meterline/contracts";
import { useMemo } from "react";
import { useDictionary } from "../../crud/dictionary.ts";
import type { MessageKey, Translate } from "../../i18n/index.tsx";
import { useI18n } from "../../i18n/index.tsx";

/** Payment states of payment/list (0 unpaid, 1 paid, 2 failed). */
const paymentStates: [number, MessageKey][] = [
  [0, "moneyList.payment.unpaid"],
  [1, "moneyList.payment.paid"],
  [2, "moneyList.payment.failed"],
];

/**
 * Recharge states: 1 booked; 0 waiting for the meter to confirm a purchase; 2 the write failed;
 * 3 a refund or correction minus waiting for approval; 4 its approval rejected (nothing booked).
 */
const rechargeStates: Record<string, MessageKey> = {
  "0": "moneyList.recharge.pending",
  "1": "moneyList.recharge.booked",
  "2": "moneyList.recharge.failed",
  "3": "moneyList.recharge.awaitingApproval",
  "4": "moneyList.recharge.rejected",
};

/** Where money came in (payment channel). */
const channels: [string, MessageKey][] = [
  ["counter", "moneyList.channel.counter"],
  ["online", "moneyList.channel.online"],
  ["bank", "moneyList.channel.bank"],
  ["other", "moneyList.channel.other"],
];

export const channelOptions = (t: Translate) => channels.map(([value, key]) => ({ value, label: t(key) }));

export function channelLabel(t: Translate, channel: unknown): string {
  const found = channels.find(([value]) => value === channel);
  return found ? t(found[1]) : String(channel ?? "");
}

export const paymentStateOptions = (t: Translate) =>
  paymentStates.map(([value, key]) => ({ value: String(value), label: t(key) }));

export function paymentStateLabel(t: Translate, state: unknown): string {
  const found = paymentStates.find(([value]) => String(value) === String(state));
  return found ? t(found[1]) : String(state ?? "");
}

export function rechargeStateLabel(t: Translate, state: unknown): string {
  const key = rechargeStates[String(state)];
  return key ? t(key) : String(state ?? "");
}

/** Only unpaid and failed payments may be removed; paid ones are money received. */
export const removablePayment = (state: unknown) => String(state) === "0" || String(state) === "2";

/** The name of a dictionary key in the current language (the key itself until the items arrive). */
export function useDictionaryLabel(field: FieldDef | undefined): (key: unknown) => string {
  const { language } = useI18n();
  const options = useDictionary(field ?? { type: "int" }, language);
  const names = useMemo(() => new Map(options.map((o) => [o.value, o.label])), [options]);
  return (key: unknown) => {
    const text = key === null || key === undefined ? "" : String(key);
    return names.get(text) ?? text;
  };
}
