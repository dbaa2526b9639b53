import type { DateTimeField, DecodedField, NumberField } from "../values.ts";
import type { Cjt188ControlInfo } from "./control.ts";
import type { DiOrder } from "./identifiers.ts";
import type { WaterAlarmAmounts, WaterPriceTable, WaterPriceWrite } from "./parameters.ts";
import type { MeterStatus } from "./status.ts";
import type { ValveCommandName } from "./valve.ts";

/** Reply to 901F from water and gas meters (metering-domain.md §2.2). */
export interface MeterData {
  currentTotal: NumberField;
  settlementDayTotal: NumberField;
  time: DateTimeField;
  status: MeterStatus;
}

interface WithDi {
  di: string;
  diOrder: DiOrder | "unknown";
  name: string | null;
  /** Sequence number SER; the meter echoes the master's (§6 item 7). */
  ser: number;
}

export type Cjt188Message =
  | ({ kind: "read-data-request" } & WithDi)
  | ({
      kind: "read-data-reply";
      meterData: MeterData | null;
      fields: DecodedField[];
      /** 8102: the meter's price table. */
      priceTable?: WaterPriceTable;
      /** 81F1 (vendor convention): the meter's alarm amounts. */
      alarmAmounts?: WaterAlarmAmounts;
    } & WithDi)
  | ({ kind: "read-address-request" } & WithDi)
  | ({ kind: "read-address-reply" } & WithDi)
  | ({ kind: "valve-control-request"; command: ValveCommandName | "unknown"; commandCode: number } & WithDi)
  | ({ kind: "valve-control-reply"; status: MeterStatus | null } & WithDi)
  | ({
      kind: "write-request";
      data: string;
      /** A010: the price table and its start date, when the data holds one. */
      priceWrite?: WaterPriceWrite;
      /** A0F1 (vendor convention): the alarm amounts, when the data holds them. */
      alarmAmounts?: WaterAlarmAmounts;
    } & WithDi)
  | ({ kind: "write-reply"; status: MeterStatus | null; data: string } & WithDi)
  | { kind: "error-reply"; ser: number | null; status: MeterStatus | null }
  | { kind: "other"; data: string };

export interface Cjt188Decoded {
  protocol: "cjt188";
  meterType: number;
  meterTypeName: string;
  address: string;
  control: Cjt188ControlInfo;
  message: Cjt188Message;
  warnings: string[];
}
