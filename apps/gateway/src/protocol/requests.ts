import {
  cjt188,
  type DateTimeInput,
  type DecodedField,
  dlt645,
  type dlt698,
  isProtocolError,
  type SplitFrame,
} from "@meterline/protocols";
import type { PreparedRequest } from "../bus/bus.ts";
import type { MeterInfo, RelayAction } from "../model.ts";
import {
  dlt698Get,
  dlt698GetRecord,
  dlt698Relay,
  parseOads,
  parseRecordItem,
  type RelayStatus,
} from "./dlt698-requests.ts";
import { CipherRefusal, dlt698MoneyWrite } from "./dlt698-wallet.ts";
import { ModbusModelError, modbusRead, modbusRelay } from "./modbus-requests.ts";
import { DEFAULT_CLEARING_DI, DEFAULT_RECHARGE_DI, encodeRecharge } from "./recharge.ts";

/**
 * Requests for one meter, built with the codecs of @meterline/protocols, each with the matcher that
 * recognises and decodes its reply. Replies are reduced to what the gateway acts on.
 */
export type MeterReply =
  | {
      kind: "read";
      fields: DecodedField[];
      statusWord3?: dlt645.StatusWord3;
      /** DL/T 698.45: the relay as 8000.5, F205.2 and 8001.2 show it. */
      relayStatus?: RelayStatus;
      meterData?: cjt188.MeterData | null;
      /** CJ/T 188 8102: the water meter's price table. */
      priceTable?: cjt188.WaterPriceTable;
      /** CJ/T 188 81F1 (vendor convention): the water meter's alarm amounts. */
      alarmAmounts?: cjt188.WaterAlarmAmounts;
    }
  | { kind: "ack"; status?: cjt188.MeterStatus | null }
  | { kind: "error"; detail: string }
  /**
   * DL/T 698.45 SECURITY-Response: only the cipher port can check and open it, and that is
   * asynchronous, so the bus hands it over sealed and the command opens it (ack or error).
   */
  | { kind: "secured"; open(): Promise<MeterReply> };

export type Request = PreparedRequest<MeterReply>;

export class UnsupportedRequest extends Error {}

/** Model errors of a Modbus meter (no model, no such register, no relay) refuse the request. */
function modbusRequest(build: () => Request): Request {
  try {
    return build();
  } catch (error) {
    if (error instanceof ModbusModelError) throw new UnsupportedRequest(error.message);
    throw error;
  }
}

function tryParse<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (isProtocolError(error)) return undefined;
    throw error;
  }
}

function dltRequest(meter: MeterInfo, bytes: Uint8Array): Request {
  const version: dlt645.Dlt645Version = meter.protocol === "dlt645-1997" ? "1997" : "2007";
  const request = dlt645.parseFrame(bytes);
  return {
    bytes,
    address: meter.address,
    accept(frame: SplitFrame) {
      const reply = tryParse(() => dlt645.parseFrame(frame.bytes));
      if (!reply || !dlt645.isReplyTo(reply, request)) return undefined;
      const { message } = dlt645.decodeReply(reply, { version });
      switch (message.kind) {
        case "read-reply":
          return { kind: "read", fields: message.fields, statusWord3: message.statusWord3 };
        case "write-ack":
        case "relay-control-ack":
          return { kind: "ack" };
        case "error-reply":
          return {
            kind: "error",
            detail: `error reply: ${message.error.flags.join(", ") || message.error.code}`,
          };
        default:
          return { kind: "error", detail: `unexpected reply: ${message.kind}` };
      }
    },
  };
}

function cjtRequest(meter: MeterInfo, bytes: Uint8Array): Request {
  const request = cjt188.parseFrame(bytes);
  const statusMap = meter.model.statusMap;
  return {
    bytes,
    address: meter.address,
    accept(frame: SplitFrame) {
      const reply = tryParse(() => cjt188.parseFrame(frame.bytes));
      if (!reply || !cjt188.isReplyTo(reply, request)) return undefined;
      const { message } = cjt188.decodeReply(reply, { statusMap });
      switch (message.kind) {
        case "read-data-reply":
          return {
            kind: "read",
            fields: message.fields,
            meterData: message.meterData,
            ...(message.priceTable ? { priceTable: message.priceTable } : {}),
            ...(message.alarmAmounts ? { alarmAmounts: message.alarmAmounts } : {}),
          };
        case "valve-control-reply":
        case "write-reply":
          return { kind: "ack", status: message.status };
        case "error-reply":
          return { kind: "error", detail: `error reply, status ${message.status?.raw ?? "none"}` };
        default:
          return { kind: "error", detail: `unexpected reply: ${message.kind}` };
      }
    },
  };
}

/**
 * Builds requests; `nextSer` numbers CJ/T 188 requests (SER) and DL/T 698.45 ones (PIID) so a late
 * reply never matches a newer one.
 */
export class RequestFactory {
  /**
   * `cipher`: the cipher machine DL/T 698.45 money writes go through (dlt698-wallet.ts); without
   * one they are refused before a byte is sent.
   */
  constructor(
    private readonly nextSer: () => number,
    private readonly cipher: dlt698.WalletCipherPort | null = null,
  ) {}

  private cjtOptions(meter: MeterInfo): cjt188.Cjt188BuildOptions {
    const { meterType, diOrder, preamble } = meter.model;
    return { ser: this.nextSer(), meterType, diOrder, preamble };
  }

  /**
   * `di`: a DL/T 645 DI, "901F" for CJ/T 188; for DL/T 698.45 one OAD or several joined by ",", or
   * a record "<OAD>#<n>:<column OADs>" (GET-Record of the n-th last record, see recordItem).
   */
  read(meter: MeterInfo, di: string): Request {
    // Modbus: a register of the meter's model by name, or "relay" (its read-back point).
    if (meter.protocol === "modbus") return modbusRequest(() => modbusRead(meter, di, this.nextSer()));
    if (meter.protocol === "dlt698") {
      const record = parseRecordItem(di);
      if (record) return dlt698GetRecord(meter, record, this.nextSer());
      const oads = parseOads(di);
      if (!oads)
        throw new UnsupportedRequest(
          `${di} is not a DL/T 698.45 OAD (8 hex digits, or a list) nor a record (<OAD>#<n>:<columns>)`,
        );
      return dlt698Get(meter, oads, this.nextSer());
    }
    if (meter.protocol === "cjt188") {
      const bytes = cjt188.buildReadData(meter.address, { ...this.cjtOptions(meter), di });
      return cjtRequest(meter, bytes);
    }
    const version = meter.protocol === "dlt645-1997" ? "1997" : "2007";
    if ((di.length === 4) !== (version === "1997"))
      throw new UnsupportedRequest(`DI ${di} does not belong to DL/T 645-${version}`);
    return dltRequest(
      meter,
      dlt645.buildRead(meter.address, di, { preamble: meter.model.preamble, version }),
    );
  }

  relay(meter: MeterInfo, action: RelayAction, validUntil: DateTimeInput, operator?: string): Request {
    if (meter.protocol === "dlt698") return dlt698Relay(meter, action, this.nextSer());
    if (meter.protocol === "modbus") return modbusRequest(() => modbusRelay(meter, action, this.nextSer()));
    if (meter.protocol !== "dlt645-2007") throw new UnsupportedRequest(`relay control needs DL/T 645-2007`);
    const credentials = { ...meter.model.credentials, ...(operator ? { operator } : {}) };
    const bytes = dlt645.buildRelayControl(
      meter.address,
      { command: action, validUntil, ...credentials },
      { preamble: meter.model.preamble },
    );
    return dltRequest(meter, bytes);
  }

  valve(meter: MeterInfo, action: "open" | "close"): Request {
    if (meter.protocol !== "cjt188") throw new UnsupportedRequest("valve control needs a CJ/T 188 meter");
    return cjtRequest(meter, cjt188.buildValveControl(meter.address, action, this.cjtOptions(meter)));
  }

  /** A water meter's price table (CJ/T 188 A010). */
  waterPrice(meter: MeterInfo, table: cjt188.WaterPriceWrite): Request {
    if (meter.protocol !== "cjt188")
      throw new UnsupportedRequest("a water price table needs a CJ/T 188 meter");
    return cjtRequest(meter, cjt188.buildWritePriceTable(meter.address, table, this.cjtOptions(meter)));
  }

  /** A water meter's alarm amounts (CJ/T 188 vendor convention A0F1). */
  waterAlarm(meter: MeterInfo, amounts: cjt188.WaterAlarmAmounts): Request {
    if (meter.protocol !== "cjt188")
      throw new UnsupportedRequest("water alarm amounts need a CJ/T 188 meter");
    return cjtRequest(meter, cjt188.buildWriteAlarmAmounts(meter.address, amounts, this.cjtOptions(meter)));
  }

  recharge(
    meter: MeterInfo,
    amount: string,
    purchaseCount: number,
    operator?: string,
  ): Request | Promise<Request> {
    if (meter.protocol === "dlt698" && meter.model.localPrepaid)
      return this.dlt698Money(meter, "recharge", amount, purchaseCount);
    if (meter.protocol !== "dlt645-2007" || !meter.model.localPrepaid)
      throw new UnsupportedRequest(
        "remote recharge needs a local-prepaid DL/T 645-2007 or DL/T 698.45 meter",
      );
    const di = meter.model.rechargeDi ?? DEFAULT_RECHARGE_DI;
    return this.writeRaw(meter, di, encodeRecharge(di, purchaseCount, amount), operator);
  }

  /** Account clearing at closing: the meter gives up exactly `amount` as purchase `purchaseCount`. */
  clearing(
    meter: MeterInfo,
    amount: string,
    purchaseCount: number,
    operator?: string,
  ): Request | Promise<Request> {
    // DL/T 698.45: the wallet's refund (退费) of exactly the remaining amount.
    if (meter.protocol === "dlt698" && meter.model.localPrepaid)
      return this.dlt698Money(meter, "refund", amount, purchaseCount);
    if (meter.protocol !== "dlt645-2007" || !meter.model.localPrepaid)
      throw new UnsupportedRequest(
        "account clearing needs a local-prepaid DL/T 645-2007 or DL/T 698.45 meter",
      );
    const di = meter.model.clearingDi ?? DEFAULT_CLEARING_DI;
    return this.writeRaw(meter, di, encodeRecharge(di, purchaseCount, amount), operator);
  }

  /** Checked synchronously, so a gateway without a cipher machine refuses before anything else. */
  private dlt698Money(
    meter: MeterInfo,
    operation: "recharge" | "refund",
    amount: string,
    purchaseCount: number,
  ): Promise<Request> {
    if (!this.cipher)
      throw new UnsupportedRequest(
        "DL/T 698.45 money writes go through a cipher machine, and this gateway has none configured (GATEWAY_DLT698_CIPHER_PORT)",
      );
    return dlt698MoneyWrite(meter, this.cipher, operation, amount, purchaseCount, this.nextSer()).catch(
      (error: unknown) => {
        if (error instanceof CipherRefusal) throw new UnsupportedRequest(error.message);
        throw error;
      },
    );
  }

  write(meter: MeterInfo, di: string, value: string, operator?: string): Request {
    if (meter.protocol !== "dlt645-2007") throw new UnsupportedRequest("writes need DL/T 645-2007");
    const item = dlt645.lookupDataItem(di, "2007");
    // A time-of-use table is one value of comma-separated entries (tou-tables.ts), checked here.
    if (item && dlt645.touTableKind(di)) {
      let entries: string[];
      try {
        entries = dlt645.touTableInputs(di, value);
      } catch (error) {
        throw new UnsupportedRequest(`DI ${di}: ${(error as Error).message}`);
      }
      return this.writeRaw(meter, di, dlt645.encodeDataItem(item, entries), operator);
    }
    if (item?.fields.length !== 1) throw new UnsupportedRequest(`DI ${di} is not a writable value`);
    return this.writeRaw(meter, di, dlt645.encodeDataItem(item, [value]), operator);
  }

  private writeRaw(meter: MeterInfo, di: string, payload: Uint8Array, operator?: string): Request {
    const credentials = { ...meter.model.credentials, ...(operator ? { operator } : {}) };
    const bytes = dlt645.buildWrite(meter.address, di, payload, {
      ...credentials,
      preamble: meter.model.preamble,
    });
    return dltRequest(meter, bytes);
  }
}
