import { cjt188, dlt645, isProtocolError } from "@meterline/protocols";

/** What a meter's report says, in the terms of the readings the gateway records. */
export interface MeterReport {
  address: string;
  volume?: string;
  valve?: cjt188.ValveState;
  batteryLow?: boolean;
  energyTotal?: string;
}

/** The bytes of a transparent payload given as hex (CTWing / OneNET) or Base64 (CTWing APPdata, IoTDA). */
export function payloadBytes(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, "");
  if (compact.length > 0 && compact.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(compact))
    return Uint8Array.from(Buffer.from(compact, "hex"));
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    const bytes = Buffer.from(compact, "base64");
    return bytes.length > 0 ? Uint8Array.from(bytes) : undefined;
  }
  return undefined;
}

/**
 * A transparent frame as the meter sent it: a CJ/T 188 901F reply (water: volume, valve, battery)
 * or a DL/T 645-2007 read reply of the total forward energy. Undefined for anything else: a frame
 * that does not decode is never half-recorded.
 */
export function decodeReportFrame(bytes: Uint8Array): MeterReport | undefined {
  // Both codecs skip the wake-up preamble (FE…) and anything before the first 68.
  const frame = bytes;
  try {
    const decoded = cjt188.decodeReply(cjt188.parseFrame(frame));
    const message = decoded.message;
    if (message.kind === "read-data-reply" && message.meterData) {
      const data = message.meterData;
      return {
        address: decoded.address,
        ...(data.currentTotal.value !== null ? { volume: data.currentTotal.value } : {}),
        valve: data.status.valve,
        batteryLow: data.status.batteryLow,
      };
    }
    if (message.kind === "valve-control-reply" && message.status)
      return { address: decoded.address, valve: message.status.valve, batteryLow: message.status.batteryLow };
  } catch (error) {
    if (!isProtocolError(error)) throw error;
  }
  try {
    const decoded = dlt645.decodeReply(dlt645.parseFrame(frame));
    const message = decoded.message;
    if (message.kind === "read-reply" && message.di === dlt645.DI.FORWARD_ENERGY_TOTAL) {
      const total = message.fields[0];
      if (total?.kind === "number" && total.value !== null)
        return { address: decoded.address, energyTotal: total.value };
    }
  } catch (error) {
    if (!isProtocolError(error)) throw error;
  }
  return undefined;
}

/** The frame a platform carries to the meter for a supply command: CJ/T 188 valve or DL/T 645 relay. */
export function commandFrame(input: {
  energyType: 1 | 2;
  address: string;
  on: boolean;
  validUntil: Date;
}): Uint8Array {
  if (input.energyType === 2) return cjt188.buildValveControl(input.address, input.on ? "open" : "close");
  // Meters keep China time (UTC+8), the zone of the sites these platforms serve.
  const v = new Date(input.validUntil.getTime() + 8 * 3600_000);
  return dlt645.buildRelayControl(input.address, {
    command: input.on ? "close-direct" : "trip",
    validUntil: {
      year: v.getUTCFullYear(),
      month: v.getUTCMonth() + 1,
      day: v.getUTCDate(),
      hour: v.getUTCHours(),
      minute: v.getUTCMinutes(),
      second: v.getUTCSeconds(),
    },
  });
}

/** Names NB-IoT meter vendors give their profile's properties, by what they mean. */
const VOLUME_NAMES = ["totalFlow", "cumulativeFlow", "total_flow", "cumulative_flow", "waterFlow", "volume"];
const ENERGY_NAMES = ["totalEnergy", "total_energy", "positiveActiveEnergy", "energy"];
const VALVE_NAMES = ["valveStatus", "valve_status", "valveState", "valve_state", "valve"];
const BATTERY_LOW_NAMES = ["batteryLow", "battery_low", "lowBattery"];

const pick = (data: Record<string, unknown>, names: readonly string[]) => {
  for (const name of names) if (data[name] !== undefined && data[name] !== null) return data[name];
  return undefined;
};

/** A register as exact decimal text (numbers as the platform's JSON gives them, never through arithmetic). */
function decimalOf(value: unknown): string | undefined {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^\d+(\.\d+)?$/.test(text) ? text : undefined;
}

/** Valve words and codes: 0 / "open" / "ON" open, 1 / "closed" / "OFF" closed (the common profile coding). */
function valveOf(value: unknown): cjt188.ValveState | undefined {
  const text = String(value).toLowerCase();
  if (["0", "open", "opened", "on"].includes(text)) return "open";
  if (["1", "close", "closed", "off"].includes(text)) return "closed";
  return undefined;
}

/**
 * A report in the platform's JSON service data (a product profile's properties rather than a
 * transparent frame): the volume or energy register, the valve and the battery flag by the names
 * vendors' profiles use. Undefined when it carries none of them.
 */
export function decodeServiceData(address: string, data: Record<string, unknown>): MeterReport | undefined {
  const volume = decimalOf(pick(data, VOLUME_NAMES));
  const energyTotal = decimalOf(pick(data, ENERGY_NAMES));
  const valveValue = pick(data, VALVE_NAMES);
  const valve = valveValue === undefined ? undefined : valveOf(valveValue);
  const battery = pick(data, BATTERY_LOW_NAMES);
  const report: MeterReport = {
    address,
    ...(volume !== undefined ? { volume } : {}),
    ...(energyTotal !== undefined ? { energyTotal } : {}),
    ...(valve !== undefined ? { valve } : {}),
    ...(battery !== undefined ? { batteryLow: battery === true || battery === 1 || battery === "1" } : {}),
  };
  return Object.keys(report).length > 1 ? report : undefined;
}
