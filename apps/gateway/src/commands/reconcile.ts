import { type cjt188, parseScaled } from "@meterline/protocols";
import type { CommandAction, RelayAction } from "../model.ts";

/**
 * Pure decisions about a write's outcome from what the meter says about itself. Used after a
 * timeout (did the meter act?) and after an acknowledgement (did it really switch?).
 * Status word 3 bit 6 is the relay *command* state and bit 4 the actual relay; a trip with a
 * trip delay or a "close allowed" waiting for the user's button are still executed commands
 * (metering-domain.md §1.7), so the command bit decides.
 */
export type ReadBackFact =
  | { item: "status-word-3"; relayCommandOpen: boolean; relayOpen: boolean; powerHold: boolean }
  | { item: "valve"; valve: string }
  | { item: "purchase-count"; purchaseCount: number }
  | { item: "register"; di: string; value: string }
  | { item: "water-price"; table: cjt188.WaterPriceTable }
  | { item: "water-alarm"; amounts: cjt188.WaterAlarmAmounts };

export type Decision = { state: "success" | "fail" | "timeout"; detail: string };

/** What to read to learn whether a write took effect; null for reads (nothing to reconcile). */
export type ReadBackItem =
  | { item: "status-word-3" }
  | { item: "valve" }
  | { item: "purchase-count" }
  | { item: "register"; di: string }
  | { item: "water-price" }
  | { item: "water-alarm" };

export function readBackItemFor(action: CommandAction): ReadBackItem | null {
  switch (action.kind) {
    case "relay":
      return { item: "status-word-3" };
    case "valve":
      return { item: "valve" };
    case "recharge":
    case "clearing":
      return { item: "purchase-count" };
    case "write":
      return { item: "register", di: action.di };
    case "water-price":
      return { item: "water-price" };
    case "water-alarm":
      return { item: "water-alarm" };
    case "read":
      return null;
  }
}

function relayReached(action: RelayAction, fact: Extract<ReadBackFact, { item: "status-word-3" }>): boolean {
  switch (action) {
    case "trip":
      return fact.relayCommandOpen;
    case "close-allowed":
    case "close-direct":
      return !fact.relayCommandOpen;
    case "power-hold":
      return fact.powerHold;
    case "power-hold-release":
      return !fact.powerHold;
  }
}

/** The same number however written ("5.50" = "5.5"); a table (tou-tables.ts) only as the same text. */
function sameValue(a: string, b: string): boolean {
  try {
    return parseScaled(a, 8) === parseScaled(b, 8);
  } catch {
    return a === b;
  }
}

/** Does the meter's state show the command's effect? null when the fact does not fit the action. */
export function effectVisible(action: CommandAction, fact: ReadBackFact): boolean | null {
  if (action.kind === "relay" && fact.item === "status-word-3") return relayReached(action.action, fact);
  if (action.kind === "valve" && fact.item === "valve")
    return fact.valve === (action.action === "open" ? "open" : "closed");
  // Purchase counts only grow by one per accepted recharge or clearing; reaching ours means ours was applied.
  if ((action.kind === "recharge" || action.kind === "clearing") && fact.item === "purchase-count")
    return fact.purchaseCount >= action.purchaseCount;
  if (action.kind === "write" && fact.item === "register" && fact.di === action.di)
    return sameValue(fact.value, action.value);
  // The start date is not in the 8102 answer: the prices and thresholds decide.
  if (action.kind === "water-price" && fact.item === "water-price")
    return [...action.table.prices, ...action.table.thresholds].every((value, i) =>
      sameValue(value, [...fact.table.prices, ...fact.table.thresholds][i]!),
    );
  if (action.kind === "water-alarm" && fact.item === "water-alarm")
    return (
      sameValue(fact.amounts.first, action.amounts.first) &&
      sameValue(fact.amounts.second, action.amounts.second)
    );
  return null;
}

function describe(fact: ReadBackFact): string {
  switch (fact.item) {
    case "status-word-3":
      return `relay command ${fact.relayCommandOpen ? "open" : "closed"}, relay ${fact.relayOpen ? "open" : "closed"}${fact.powerHold ? ", power-hold on" : ""}`;
    case "valve":
      return `valve ${fact.valve}`;
    case "purchase-count":
      return `purchase count ${fact.purchaseCount}`;
    case "register":
      return `${fact.di} = ${fact.value}`;
    case "water-price":
    case "water-alarm":
      return describeWaterFact(fact);
  }
}

/** After a timeout: the read-back decides; no read-back leaves the command to be confirmed. */
export function decideFromReadBack(action: CommandAction, fact: ReadBackFact | null): Decision {
  if (!fact) return { state: "timeout", detail: "no reply, and the read-back got no answer either" };
  const visible = effectVisible(action, fact);
  if (visible === null) return { state: "timeout", detail: `read-back does not fit: ${describe(fact)}` };
  return visible
    ? { state: "success", detail: `no reply; read-back shows the command took effect (${describe(fact)})` }
    : {
        state: "fail",
        detail: `no reply; read-back shows the command did not take effect (${describe(fact)})`,
      };
}

/** After an acknowledgement: a verification read that disagrees turns it into a failure. */
export function decideAfterAck(action: CommandAction, fact: ReadBackFact | null): Decision {
  if (!fact) return { state: "success", detail: "acknowledged; the verification read got no answer" };
  const visible = effectVisible(action, fact);
  if (visible === false)
    return { state: "fail", detail: `acknowledged, but the meter shows otherwise (${describe(fact)})` };
  return { state: "success", detail: `acknowledged and verified (${describe(fact)})` };
}

/** A water meter's price table or alarm amounts as a read-back shows them. */
export function describeWaterFact(
  fact: Extract<ReadBackFact, { item: "water-price" | "water-alarm" }>,
): string {
  if (fact.item === "water-alarm") return `alarm amounts ${fact.amounts.first} / ${fact.amounts.second}`;
  const [p1, p2, p3] = fact.table.prices;
  const [t1, t2] = fact.table.thresholds;
  return `prices ${p1} / ${p2} / ${p3}, thresholds ${t1} / ${t2}`;
}
