import { type DecodedField, dlt645, parseHex } from "@meterline/protocols";
import { parseLocalText } from "./clock.ts";
import type { ElectricMeter } from "./electric-meter.ts";
import { applyWrite, read1997, read2007 } from "./electric-reads.ts";

type Decoded = dlt645.Dlt645Decoded;
/** The forward-energy block each version's poll opens with: a reply to it is a reading. */
const ENERGY_BLOCK = {
  "2007": dlt645.DI.FORWARD_ENERGY_BLOCK,
  "1997": dlt645.DI1997.FORWARD_ENERGY_BLOCK,
} as const;

type RelayRequest = Extract<Decoded["message"], { kind: "relay-control-request" }>["relay"];

/**
 * A simulated DL/T 645 meter answering one request addressed to it: reads, writes (limits, prices,
 * the plain-text recharge convention), relay control with password and validity checks, the
 * broadcast time. Returns the reply frame, or null when the request gets none (broadcast).
 */
export function answerElectric(meter: ElectricMeter, decoded: Decoded, now: number): Uint8Array | null {
  meter.advance(now);
  meter.counters.requests++;
  const { address, config } = meter;
  const version = config.version;
  const fn = decoded.control.function;
  const refuse = (flags: dlt645.ErrorFlag[]) => {
    meter.counters.refused++;
    return dlt645.buildErrorReply(address, fn, flags, { version });
  };
  const message = decoded.message;
  switch (message.kind) {
    case "read-request": {
      const values = version === "2007" ? read2007(meter, message.di, now) : read1997(meter, message.di, now);
      if (!values) return refuse([version === "2007" ? "no-requested-data" : "di-error"]);
      if (message.di === ENERGY_BLOCK[version]) meter.counters.energyReads++;
      return dlt645.buildReadReply(address, message.di, values, { version });
    }
    case "read-address-request":
      return dlt645.buildReadAddressReply(address);
    case "broadcast-time": {
      const set = message.time ? parseLocalText(message.time) : null;
      // The meter takes the master's clock: its drift is corrected until it drifts again.
      if (set !== null) config.localOffsetMs = set - now;
      return null;
    }
    case "write-request": {
      if (!authorised(meter, message.passwordLevel, message.password))
        return refuse(["password-or-unauthorised"]);
      const money = moneyWriteOf(message.di);
      const ok = money
        ? moneyWrite(meter, money, message.di, message.fields[0]?.raw ?? "", message.operator, now)
        : (touWrite(meter, message.di, message.fields, message.operator, now) ??
          write(meter, message.di, message.fields[0], message.operator, now));
      return ok
        ? dlt645.buildWriteAck(address, { version })
        : refuse([version === "2007" ? "other" : "illegal-data"]);
    }
    case "relay-control-request": {
      if (version !== "2007") return refuse(["illegal-data"]);
      const relay = message.relay;
      if (!authorised(meter, relay.passwordLevel, relay.password))
        return refuse(["password-or-unauthorised"]);
      const deadline =
        relay.validUntilStatus === "ok" && relay.validUntil ? parseLocalText(relay.validUntil) : null;
      // Plain-text replay protection: a frame past its validity time is refused (§1.7).
      if (deadline === null || deadline < meter.localNow(now)) return refuse(["other"]);
      if (!switchRelay(meter, relay.command, relay.operator, now)) return refuse(["other"]);
      return dlt645.buildRelayAck(address);
    }
    default:
      return refuse([version === "2007" ? "other" : "illegal-data"]);
  }
}

function authorised(meter: ElectricMeter, level: number, password: string): boolean {
  return (level === 0x02 || level === 0x04) && password === meter.password;
}

function write(
  meter: ElectricMeter,
  di: string,
  field: DecodedField | undefined,
  operator: string | null,
  now: number,
): boolean {
  if (field?.kind !== "number" || field.scaled === null) return false;
  if (!applyWrite(meter, di, field.scaled)) return false;
  meter.counters.writes++;
  meter.log("write", `${di}=${field.scaled}`, operator, now);
  return true;
}

/** A time-of-use count or table write (tou-tables.ts); undefined when the DI is not one. */
function touWrite(
  meter: ElectricMeter,
  di: string,
  fields: readonly DecodedField[],
  operator: string | null,
  now: number,
): boolean | undefined {
  const ok = meter.tou.write(di, fields);
  if (ok) {
    meter.counters.writes++;
    meter.log("write", `${di}=${dlt645.touTableValue(di, fields) ?? fields[0]?.raw}`, operator, now);
  }
  return ok;
}

const MONEY_WRITES = Object.entries(dlt645.MONEY_WRITE_DI) as [dlt645.MoneyWriteKind, string][];

function moneyWriteOf(di: string): dlt645.MoneyWriteKind | undefined {
  return MONEY_WRITES.find(([, moneyDi]) => moneyDi === di)?.[0];
}

/**
 * A recharge or an account clearing (the codec's vendor convention). Either one's purchase count must
 * be exactly one more than the meter's: a replayed write is refused.
 */
function moneyWrite(
  meter: ElectricMeter,
  kind: dlt645.MoneyWriteKind,
  di: string,
  raw: string,
  operator: string | null,
  now: number,
): boolean {
  if (!meter.config.localPrepaid || raw === "") return false;
  const written = dlt645.decodeMoneyWrite(di, parseHex(raw));
  if (!written || written.purchaseCount !== meter.purchaseCount + 1) return false;
  const amountFen = Number(written.amount.replace(".", ""));
  return kind === "recharge"
    ? recharge(meter, amountFen, operator, now)
    : clear(meter, amountFen, operator, now);
}

export function recharge(
  meter: ElectricMeter,
  amountFen: number,
  operator: string | null,
  now: number,
): boolean {
  if (amountFen <= 0) return false;
  if (meter.balanceFen + amountFen > meter.hoardingLimitFen) return false;
  meter.balanceFen += amountFen;
  meter.purchaseCount += 1;
  meter.purchasedFen += amountFen;
  meter.counters.recharges++;
  meter.log("recharge", `#${meter.purchaseCount} +${amountFen} fen`, operator, now);
  if (meter.selfTripped && meter.balanceFen >= meter.closeAllowedFen) {
    meter.selfTripped = false;
    meter.relayCommandOpen = false;
    meter.closePendingSince = now;
  }
  return true;
}

/**
 * Account clearing: only the exact remaining amount is given up (a meter that spent since it was
 * read, or owes, refuses), so what the server refunds is what the meter no longer holds.
 */
export function clear(
  meter: ElectricMeter,
  amountFen: number,
  operator: string | null,
  now: number,
): boolean {
  if (amountFen <= 0 || amountFen !== meter.balanceFen) return false;
  meter.balanceFen = 0;
  meter.microYuan = 0;
  meter.purchaseCount += 1;
  meter.counters.clearings++;
  meter.log("clearing", `#${meter.purchaseCount} -${amountFen} fen`, operator, now);
  return true;
}

/** Carry out a relay command (DL/T 645 control frame or DL/T 698.45 ACTION); false when refused. */
export function switchRelay(
  meter: ElectricMeter,
  command: RelayRequest["command"],
  operator: string | null,
  now: number,
): boolean {
  const inArrears = meter.config.localPrepaid && meter.balanceFen < meter.closeAllowedFen;
  switch (command) {
    case "trip":
      if (meter.powerHold) return false;
      meter.relayCommandOpen = true;
      meter.relayOpen = true;
      meter.closePendingSince = null;
      meter.counters.trips++;
      break;
    case "close-allowed":
      if (inArrears) return false;
      meter.relayCommandOpen = false;
      if (meter.relayOpen) meter.closePendingSince = now;
      break;
    case "close-direct":
      if (inArrears) return false;
      meter.relayCommandOpen = false;
      if (meter.relayOpen) meter.counters.closes++;
      meter.relayOpen = false;
      meter.closePendingSince = null;
      break;
    case "power-hold":
    case "power-hold-release":
      meter.powerHold = command === "power-hold";
      break;
    case "alarm":
    case "alarm-release":
      meter.alarm = command === "alarm";
      break;
    default:
      return false;
  }
  meter.selfTripped = false;
  meter.counters.relayOps++;
  meter.log("relay", command, operator, now);
  return true;
}
