import { dlt698 } from "@meterline/protocols";
import { calendar, parseLocalText } from "./clock.ts";
import { answerSecured } from "./dlt698-wallet.ts";
import { type ElectricMeter, REGISTER_MODULUS } from "./electric-meter.ts";
import { switchRelay } from "./electric-protocol.ts";

/**
 * A simulated DL/T 698.45 meter answering one request addressed to it: GET of the objects the
 * gateway reads (energy, power, wallet, overdraft, relay command state, relay outputs, power
 * hold, clock, status words, address), GET-Record of its daily freezes (5004), ACTION trip /
 * close (8000), power hold (8001), broadcast time (4000 method 127) and, under security transfer,
 * the ESAM wallet operation (F100, dlt698-wallet.ts), on the same state as the
 * DL/T 645 model (electric-meter.ts). Returns the reply frame, or null for no reply.
 */
type ClientApdu = dlt698.Apdu;

const u32 = (value: number): dlt698.Data => ({ type: "double-long-unsigned", value });
const enumOf = (value: number): dlt698.Data => ({ type: "enum", value });

/** DAR codes the simulated meter answers with (appendix F.1). */
const DAR = {
  success: 0,
  denied: 3,
  undefined: 4,
  unavailable: 6,
  typeMismatch: 7,
  other: 255,
} as const;

/** Status word 1 as 2014's first bit-string: 645 bit n is the n-th bit on the wire (see the gateway's statusWord1FromBits). */
function statusWordBits(word: number): dlt698.Data {
  let bits = "";
  for (let n = 0; n < 16; n++) bits += word & (1 << n) ? "1" : "0";
  return { type: "bit-string", bits };
}

/** Energy by tariff, 0.01 kWh (scaler -2): total, then tip, peak, flat, valley, as 645's registers. */
function energyData(steps: readonly number[]): dlt698.Data {
  const total = steps.reduce((sum, value) => sum + value, 0) % REGISTER_MODULUS;
  return { type: "array", items: [total, ...steps].map(u32) };
}

function attribute(meter: ElectricMeter, oi: number, attr: number, now: number): dlt698.Data | null {
  const stuck = meter.conditions.relayFault === true;
  switch ((oi << 8) | attr) {
    case 0x001002:
      // Total, then tip, peak, flat, valley: 0.01 kWh (scaler -2), as the 645 registers.
      return { type: "array", items: [meter.shownTotal(), ...meter.shownTariffs()].map(u32) };
    case 0x200402: {
      // 0.1 W (scaler -1): total and phase A of a single-phase meter.
      const power = Number(meter.activePower(now));
      return {
        type: "array",
        items: [power, power, 0, 0].map((value): dlt698.Data => ({ type: "double-long", value })),
      };
    }
    case 0x202c02:
      if (!meter.config.localPrepaid) return null;
      return { type: "structure", items: [u32(Math.max(0, meter.balanceFen)), u32(meter.purchaseCount)] };
    case 0x202d02:
      return meter.config.localPrepaid ? u32(Math.max(0, -meter.balanceFen)) : null;
    case 0x800005:
      // Bit 0 is relay 1: 1 = the last command was a trip. A welded relay reports as commanded open.
      return { type: "bit-string", bits: meter.relayCommandOpen || stuck ? "10000000" : "00000000" };
    case 0xf20502:
      return {
        type: "array",
        items: [
          {
            type: "structure",
            items: [
              { type: "visible-string", value: "relay 1" },
              enumOf(meter.relayOpen && !stuck ? 1 : 0),
              enumOf(1),
              enumOf(0),
            ],
          },
        ],
      };
    case 0x800102:
      return enumOf(meter.powerHold ? 1 : 0);
    case 0x400002:
      return { type: "date-time-s", value: calendar(meter.localNow(now)) };
    case 0x201402: {
      // Seven status words; word 1 carries the batteries and the power direction.
      const words = [meter.statusWord1(), 0, 0, 0, 0, 0, 0];
      return { type: "array", items: words.map(statusWordBits) };
    }
    case 0x400102:
      return { type: "octet-string", hex: meter.address };
    default:
      return null;
  }
}

function get(meter: ElectricMeter, oad: string, now: number): dlt698.GetResult {
  const { oi, attribute: attr, index } = dlt698.splitOad(oad);
  const data = attribute(meter, oi, attr, now);
  if (!data) return { dar: DAR.undefined };
  if (index === 0) return { data };
  const element = data.type === "array" || data.type === "structure" ? data.items[index - 1] : undefined;
  return element ? { data: element } : { dar: DAR.undefined };
}

/**
 * GET-Record: the meter's daily freezes (5004 attribute 2) by RSD selector 9, the n-th last one,
 * frozen at local midnight; columns freeze time (2021) and energy (0010), any other column null.
 * No freeze yet: no rows. A model configured without daily freezes refuses (object unavailable).
 */
function record(meter: ElectricMeter, request: dlt698.RecordRequest): dlt698.ResultRecord {
  const answer = (result: dlt698.ResultRecord["result"]) => ({
    oad: request.oad,
    columns: request.columns,
    result,
  });
  if (request.oad !== dlt698.OAD.DAILY_FROZEN) return answer({ dar: DAR.undefined });
  if (meter.config.dailyFrozen === false) return answer({ dar: DAR.unavailable });
  if (request.rsd.selector !== 9) return answer({ dar: DAR.other });
  const day = request.rsd.last >= 1 ? meter.frozen[request.rsd.last - 1] : undefined;
  if (!day) return answer({ rows: [] });
  const cell = (column: dlt698.Csd): dlt698.Data => {
    const oad = "oad" in column ? column.oad : "";
    if (oad === dlt698.OAD.FREEZE_TIME) return { type: "date-time-s", value: calendar(day.localMs) };
    if (oad === dlt698.OAD.FORWARD_ACTIVE_ENERGY) return energyData(day.steps);
    return { type: "null" };
  };
  return answer({ rows: [request.columns.map(cell)] });
}

/** Broadcast time (4000 method 127, date_time_s): the meter takes the master's clock, as 645's 08. */
function setClock(meter: ElectricMeter, data: dlt698.Data, now: number): number {
  if (data.type !== "date-time-s") return DAR.typeMismatch;
  const { year, month, day, hour, minute, second } = data.value;
  const pad = (n: number) => String(n).padStart(2, "0");
  const set = parseLocalText(`${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`);
  if (set === null) return DAR.typeMismatch;
  meter.config.localOffsetMs = set - now;
  return DAR.success;
}

/** The relay command an ACTION carries, or null when its parameter is not the standard's. */
function relayCommand(
  omd: string,
  data: dlt698.Data,
): "trip" | "close-allowed" | "close-direct" | "power-hold" | "power-hold-release" | null {
  if (omd === dlt698.OMD.POWER_HOLD_ON) return "power-hold";
  if (omd === dlt698.OMD.POWER_HOLD_OFF) return "power-hold-release";
  const first = data.type === "array" ? data.items[0] : undefined;
  if (first?.type !== "structure" || first.items[0]?.type !== "oad") return null;
  if (omd === dlt698.OMD.TRIP) return "trip";
  if (omd !== dlt698.OMD.CLOSE) return null;
  const mode = first.items[1];
  return mode?.type === "enum" ? (mode.value === 1 ? "close-direct" : "close-allowed") : null;
}

function act(meter: ElectricMeter, omd: string, data: dlt698.Data, now: number): number {
  if (omd === dlt698.OMD.BROADCAST_TIME) return setClock(meter, data, now);
  const isRelay = omd.startsWith("8000") || omd.startsWith("8001");
  if (!isRelay) return DAR.undefined;
  const command = relayCommand(omd, data);
  if (!command) return DAR.typeMismatch;
  return switchRelay(meter, command, null, now) ? DAR.success : DAR.denied;
}

export function answerDlt698(
  meter: ElectricMeter,
  frame: dlt698.Dlt698Frame,
  now: number,
): Uint8Array | null {
  const decoded = dlt698.decodeFromClient(frame);
  const apdu: ClientApdu | null = decoded.apdu;
  if (!apdu) return null;
  meter.advance(now);
  meter.counters.requests++;
  const address = meter.address;
  const piid = "piid" in apdu ? apdu.piid : 0;
  switch (apdu.service) {
    case "get-request-normal":
      return dlt698.buildGetResponse(address, [{ oad: apdu.oad, result: get(meter, apdu.oad, now) }], {
        piid,
      });
    case "get-request-normal-list":
      return dlt698.buildGetResponse(
        address,
        apdu.oads.map((oad) => ({ oad, result: get(meter, oad, now) })),
        { piid },
      );
    case "get-request-record":
      return dlt698.buildGetRecordResponse(address, record(meter, apdu.record), { piid });
    case "action-request-normal": {
      const dar = act(meter, apdu.omd, apdu.data, now);
      if (dar !== DAR.success) meter.counters.refused++;
      return dlt698.buildActionResponse(address, apdu.omd, dar, null, { piid });
    }
    case "security-request":
      return answerSecured(meter, apdu, now);
    case "link-response":
    case "report-response-list":
    case "report-response-record-list":
      return null;
    default:
      meter.counters.refused++;
      // Service not supported.
      return dlt698.buildErrorResponse(address, 2, { piid });
  }
}
