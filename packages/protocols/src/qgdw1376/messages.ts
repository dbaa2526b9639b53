import type { Qgdw1376Address } from "./address.ts";
import type { Qgdw1376Aux } from "./aux.ts";
import type { UnitValue } from "./classes.ts";
import type { Qgdw1376ControlInfo, Qgdw1376Seq } from "./control.ts";

/** One data unit: one point and one class with what it carries. */
export interface Qgdw1376Unit {
  /** 0 = p0 (the terminal), "all" = every valid point (DA FF 00). */
  pn: number | "all";
  fn: number;
  /** "p1 F129". */
  label: string;
  name: string;
  /** The identifier the unit was sent under, e.g. "01 01 01 10". */
  id: string;
  value: UnitValue;
}

/**
 * What the frame is, for the gateway's switch: the link services by name, everything else a
 * request (down, from the master) or an answer / report (up, from the terminal).
 */
export type Qgdw1376Kind =
  | "login"
  | "logout"
  | "heartbeat"
  | "confirm"
  | "deny"
  | "confirm-per-unit"
  | "request"
  | "response";

export interface Qgdw1376Decoded {
  protocol: "qgdw1376";
  /** 2 = Q/GDW 1376.1, 1 = Q/GDW 130-2005. */
  protocolId: number;
  control: Qgdw1376ControlInfo;
  address: Qgdw1376Address;
  afn: number;
  /** "0CH". */
  afnHex: string;
  afnName: string;
  seq: Qgdw1376Seq;
  kind: Qgdw1376Kind;
  units: Qgdw1376Unit[];
  aux: Qgdw1376Aux;
  warnings: string[];
}
