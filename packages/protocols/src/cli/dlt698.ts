import { parseDateTimeText, weekdayOf } from "../datetime.ts";
import * as dlt698 from "../dlt698/index.ts";
import { fail } from "../errors.ts";
import { byteHex, parseHex } from "../hex.ts";
import { intOption, option, type ParsedArgs, required } from "./args.ts";

/**
 * The field tool's DL/T 698.45 half: `decode --protocol dlt698 <hex>` names the service, PIID,
 * each OAD with its name and each value with its type and unit; `encode --protocol dlt698
 * <request>` builds what the gateway sends.
 */
export function summarizeDlt698(frame: dlt698.Dlt698Frame): Record<string, unknown> {
  const d = dlt698.decodeFrame(frame);
  const apdu = d.apdu;
  return {
    protocol: "DL/T 698.45",
    server: d.server,
    client: d.client,
    control: `0x${byteHex(d.control.raw)}`,
    direction: d.control.direction,
    initiator: d.control.initiator,
    function: d.control.functionName,
    scrambled: d.control.scrambled,
    split: d.split,
    service: d.service,
    piid: d.piid,
    attributes: d.attributes.map((a) => ({
      oad: a.oad,
      name: a.name,
      ...(a.dar ? { dar: a.dar } : {}),
      values: a.values.map((v) => ({
        name: v.name,
        type: v.type,
        value: v.value,
        ...(v.unit !== undefined ? { unit: v.unit } : {}),
        ...(v.scaled !== undefined ? { scaled: v.scaled, scale: v.scale } : {}),
      })),
    })),
    ...(apdu && "timeTag" in apdu && apdu.timeTag ? { timeTag: apdu.timeTag } : {}),
    error: d.apduError,
    warnings: d.warnings,
    frame: { offset: frame.start, length: frame.end - frame.start },
    details: { apdu },
  };
}

export function decodeDlt698(hex: string): Record<string, unknown>[] {
  return dlt698.parseFrames(parseHex(hex)).map(summarizeDlt698);
}

function dateTimeFrom(text: string | undefined, now: Date): dlt698.DateTime {
  if (text === undefined) return dlt698.dateTimeOf(now);
  const t = parseDateTimeText(text);
  return {
    year: t.year,
    month: t.month,
    day: t.day,
    weekday: weekdayOf(t.year, t.month, t.day),
    hour: t.hour ?? 0,
    minute: t.minute ?? 0,
    second: t.second ?? 0,
    milliseconds: 0,
  };
}

function options(args: ParsedArgs): dlt698.Dlt698BuildOptions {
  return {
    client: intOption(args, "client"),
    piid: intOption(args, "piid"),
    preamble: intOption(args, "preamble"),
  };
}

interface Spec {
  usage: string;
  build: (args: ParsedArgs, now: Date) => Uint8Array;
}

const COMMON = "--address A [--piid 0..63] [--client CA] [--preamble N]";

export const DLT698_REQUESTS: Record<string, Spec> = {
  get: {
    usage: `${COMMON} --oad OAD [--oad OAD …]   GET-Request Normal (one OAD) or NormalList`,
    build: (args) => {
      const oads = args.options.get("oad") ?? [];
      if (oads.length === 0) fail("bad-argument", "--oad is required (8 hex digits, e.g. 00100200)");
      return dlt698.buildGet(
        required(args, "address"),
        oads.map((o) => o.toUpperCase()),
        options(args),
      );
    },
  },
  "get-next": {
    usage: `${COMMON} --block N   GET-Request-Next after block N`,
    build: (args) =>
      dlt698.buildGetNext(required(args, "address"), intOption(args, "block") ?? 0, options(args)),
  },
  trip: {
    usage: `${COMMON} [--relay F2050201] [--alarm-minutes 0] [--minutes 0] [--auto-close]   ACTION 80008100`,
    build: (args) =>
      dlt698.buildTrip(
        required(args, "address"),
        {
          relay: option(args, "relay")?.toUpperCase(),
          alarmDelayMinutes: intOption(args, "alarm-minutes"),
          durationMinutes: intOption(args, "minutes"),
          autoClose: option(args, "auto-close") === "true",
        },
        options(args),
      ),
  },
  close: {
    usage: `${COMMON} [--direct]   ACTION 80008200 (close allowed; --direct closes at once)`,
    build: (args) =>
      dlt698.buildClose(
        required(args, "address"),
        option(args, "direct") === "true" ? "direct" : "allowed",
        options(args),
      ),
  },
  "power-hold": {
    usage: `${COMMON} [--off]   ACTION 80017F00 (on) or 80018000 (off)`,
    build: (args) =>
      dlt698.buildPowerHold(required(args, "address"), option(args, "off") !== "true", options(args)),
  },
  "link-response": {
    usage: "--request <hex of the meter's login/heartbeat> [--time 'YYYY-MM-DD hh:mm:ss']   LINK-Response",
    build: (args, now) => {
      const frame = dlt698.parseFrame(parseHex(required(args, "request")));
      const decoded = dlt698.decodeFromServer(frame);
      if (decoded.apdu?.service !== "link-request")
        fail("bad-argument", `--request is a ${decoded.service}, not a LINK-Request`);
      return dlt698.buildLinkResponse(
        frame.server,
        { request: decoded.apdu, receivedAt: dateTimeFrom(option(args, "time"), now) },
        { client: frame.client, preamble: intOption(args, "preamble") },
      );
    },
  },
};
