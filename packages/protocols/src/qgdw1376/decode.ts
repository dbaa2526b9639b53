import { fail } from "../errors.ts";
import { byteHex, toHex } from "../hex.ts";
import {
  decodePassword,
  decodeTimeTag,
  EC_LENGTH,
  PW_AFNS,
  PW_LENGTH,
  type Qgdw1376Aux,
  TP_LENGTH,
} from "./aux.ts";
import { afnName, className, classSpec, type Way } from "./classes.ts";
import { decodeControl, decodeSeq } from "./control.ts";
import { decodeDataUnitId, unitLabel } from "./data-units.ts";
import type { Qgdw1376Frame } from "./frame.ts";
import type { Qgdw1376Decoded, Qgdw1376Kind, Qgdw1376Unit } from "./messages.ts";

/** Decode a parsed frame: header fields, AUX cut from the end, then every data unit in order. */
export function decodeFrame(frame: Qgdw1376Frame): Qgdw1376Decoded {
  const control = decodeControl(frame.control);
  const seq = decodeSeq(frame.seq);
  const way: Way = control.direction === "master->terminal" ? "down" : "up";
  const warnings: string[] = [];
  const body = frame.body;

  const pw = way === "down" && PW_AFNS.has(frame.afn) ? PW_LENGTH : 0;
  const ec = way === "up" && control.acd ? EC_LENGTH : 0;
  const tp = seq.tpv ? TP_LENGTH : 0;
  let dataEnd = body.length;
  const aux: Qgdw1376Aux = {};
  if (body.length >= pw + ec + tp) {
    dataEnd = body.length - pw - ec - tp;
    if (pw) aux.pw = decodePassword(body.subarray(dataEnd, dataEnd + pw));
    if (ec) aux.ec = { important: body[dataEnd]!, normal: body[dataEnd + 1]! };
    if (tp) aux.tp = decodeTimeTag(body.subarray(body.length - tp));
  } else {
    warnings.push(`the frame is too short for its AUX (${pw + ec + tp} bytes of PW / EC / Tp)`);
  }

  const units = decodeUnits(frame.afn, way, body.subarray(0, dataEnd), warnings);
  return {
    protocol: "qgdw1376",
    protocolId: frame.protocolId,
    control,
    address: frame.address,
    afn: frame.afn,
    afnHex: `${byteHex(frame.afn)}H`,
    afnName: afnName(frame.afn),
    seq,
    kind: kindOf(frame.afn, way, units),
    units,
    aux,
    warnings,
  };
}

function decodeUnits(afn: number, way: Way, data: Uint8Array, warnings: string[]): Qgdw1376Unit[] {
  const units: Qgdw1376Unit[] = [];
  let at = 0;
  while (at < data.length) {
    if (data.length - at < 4) {
      warnings.push(`${data.length - at} byte(s) after the last data unit: ${toHex(data.subarray(at))}`);
      break;
    }
    const id = decodeDataUnitId(data, at);
    at += 4;
    if (id.fns.length === 0) warnings.push(`data unit identifier ${id.raw} names no class (DT1 = 0)`);
    if (id.pns.length === 0 && !id.allPoints) warnings.push(`data unit identifier ${id.raw} names no point`);
    const pns: (number | "all")[] = id.allPoints ? ["all"] : id.pns;
    for (const pn of pns) {
      for (const fn of id.fns) {
        const spec = classSpec(afn, fn, way);
        const length = spec ? spec.length(data, at, data.length) : null;
        const label = unitLabel(pn, fn);
        if (!spec || length === null || at + length > data.length) {
          if (spec)
            warnings.push(`${label} is cut short: its data ends at byte ${data.length - at} of the unit`);
          units.push({
            pn,
            fn,
            label,
            name: className(afn, fn),
            id: id.raw,
            value: { type: "raw", hex: toHex(data.subarray(at)) },
          });
          return units;
        }
        units.push({
          pn,
          fn,
          label,
          name: spec.name,
          id: id.raw,
          value: spec.decode(data.subarray(at, at + length)),
        });
        at += length;
      }
    }
  }
  return units;
}

function kindOf(afn: number, way: Way, units: Qgdw1376Unit[]): Qgdw1376Kind {
  const fn = units[0]?.fn;
  if (afn === 0x02 && way === "up") {
    if (fn === 1) return "login";
    if (fn === 2) return "logout";
    if (fn === 3) return "heartbeat";
  }
  if (afn === 0x00) {
    if (fn === 1) return "confirm";
    if (fn === 2) return "deny";
    if (fn === 3) return "confirm-per-unit";
  }
  return way === "down" ? "request" : "response";
}

/** For the gateway: refuse a down frame where a terminal's frame is expected. */
export function decodeUp(frame: Qgdw1376Frame): Qgdw1376Decoded {
  if ((frame.control & 0x80) === 0)
    fail("bad-direction", "expected a terminal frame (DIR = 1), got a master's");
  return decodeFrame(frame);
}

/** For the simulated concentrator: refuse an up frame where the master's frame is expected. */
export function decodeDown(frame: Qgdw1376Frame): Qgdw1376Decoded {
  if ((frame.control & 0x80) !== 0)
    fail("bad-direction", "expected a master frame (DIR = 0), got a terminal's");
  return decodeFrame(frame);
}
