import * as cjt188 from "../cjt188/index.ts";
import { type DateTimeInput, parseDateTimeText } from "../datetime.ts";
import * as dlt645 from "../dlt645/index.ts";
import { fail } from "../errors.ts";
import { intOption, option, type ParsedArgs, required } from "./args.ts";

/** The common requests field engineers build by hand (issue 4). */
interface RequestSpec {
  usage: string;
  build: (args: ParsedArgs, now: Date) => Uint8Array;
}

const localFields = (date: Date): DateTimeInput => ({
  year: date.getFullYear(),
  month: date.getMonth() + 1,
  day: date.getDate(),
  hour: date.getHours(),
  minute: date.getMinutes(),
  second: date.getSeconds(),
});

function is1997(args: ParsedArgs): boolean {
  return option(args, "version") === "1997" || option(args, "protocol") === "dlt645-1997";
}

function dltOptions(args: ParsedArgs): dlt645.BuildOptions {
  return { preamble: intOption(args, "preamble"), version: is1997(args) ? "1997" : "2007" };
}

function only2007(args: ParsedArgs, what: string): void {
  if (is1997(args)) fail("bad-argument", `${what} does not exist in DL/T 645-1997`);
}

function relay(command: dlt645.RelayCommandName) {
  return (args: ParsedArgs, now: Date) => {
    only2007(args, "relay control (0x1C)");
    const until = option(args, "valid-until");
    const minutes = intOption(args, "valid-minutes") ?? 10;
    const validUntil = until
      ? parseDateTimeText(until)
      : localFields(new Date(now.getTime() + minutes * 60_000));
    return dlt645.buildRelayControl(
      required(args, "address"),
      {
        command,
        validUntil,
        password: option(args, "password"),
        passwordLevel: intOption(args, "level", 16),
        operator: option(args, "operator"),
      },
      dltOptions(args),
    );
  };
}

function cjtOptions(args: ParsedArgs): cjt188.Cjt188BuildOptions {
  const order = option(args, "di-order");
  if (order !== undefined && order !== "big-endian" && order !== "little-endian") {
    fail("bad-argument", "--di-order is big-endian (90 1F) or little-endian (1F 90)");
  }
  return {
    meterType: intOption(args, "type", 16),
    ser: intOption(args, "ser"),
    diOrder: order,
    preamble: intOption(args, "preamble"),
  };
}

const RELAY_USAGE =
  "--address A [--password 000000] [--level 02] [--operator 00000000] [--valid-until 'YYYY-MM-DD hh:mm:ss' | --valid-minutes 10]";

export const REQUESTS: Record<string, RequestSpec> = {
  read: {
    usage: "--address A --di DI   read any identifier (8 hex digits 2007, 4 hex digits 1997)",
    build: (args) =>
      dlt645.buildRead(required(args, "address"), required(args, "di"), {
        ...dltOptions(args),
        version: undefined,
      }),
  },
  "read-energy": {
    usage: "--address A [--tariff 0..4] [--version 1997]   forward active energy (0 = total)",
    build: (args) => {
      const tariff = intOption(args, "tariff") ?? 0;
      const di = is1997(args) ? dlt645.forwardEnergyDi1997(tariff) : dlt645.forwardEnergyDi(tariff);
      return dlt645.buildRead(required(args, "address"), di, dltOptions(args));
    },
  },
  "read-balance": {
    usage: "--address A   remaining amount 00900200 (2007 prepaid meters)",
    build: (args) => {
      only2007(args, "the balance DI");
      return dlt645.buildRead(required(args, "address"), dlt645.DI.BALANCE, dltOptions(args));
    },
  },
  "read-status": {
    usage: "--address A   meter run status word 3, 04000503 (relay state)",
    build: (args) => {
      only2007(args, "status word 3");
      return dlt645.buildRead(required(args, "address"), dlt645.DI.STATUS_WORD_3, dltOptions(args));
    },
  },
  "read-address": {
    usage: "[--address AAAAAAAAAAAA]   2007: C=0x13; 1997: read meter number C032 at 999999999999",
    build: (args) =>
      is1997(args)
        ? dlt645.buildRead(
            option(args, "address") ?? dlt645.BROADCAST_ADDRESS,
            dlt645.DI1997.METER_NUMBER,
            dltOptions(args),
          )
        : dlt645.buildReadAddress({ ...dltOptions(args), address: option(args, "address") }),
  },
  "relay-trip": { usage: RELAY_USAGE, build: relay("trip") },
  "relay-close": {
    usage: `${RELAY_USAGE}   close allowed (user presses the button)`,
    build: relay("close-allowed"),
  },
  "relay-close-direct": { usage: RELAY_USAGE, build: relay("close-direct") },
  "relay-power-hold": { usage: RELAY_USAGE, build: relay("power-hold") },
  "relay-power-hold-release": { usage: RELAY_USAGE, build: relay("power-hold-release") },
  "broadcast-time": {
    usage: "[--time 'YYYY-MM-DD hh:mm:ss']   defaults to this computer's local time",
    build: (args, now) => {
      const time = option(args, "time");
      return dlt645.buildBroadcastTime(time ? parseDateTimeText(time) : localFields(now), dltOptions(args));
    },
  },
  "water-read": {
    usage: "--address A [--type 10] [--ser 0] [--di-order big-endian|little-endian]   CJ/T 188 read 901F",
    build: (args) => cjt188.buildReadData(required(args, "address"), cjtOptions(args)),
  },
  "valve-open": {
    usage: "--address A [--type 10] [--ser 0] [--di-order ...]   CJ/T 188 A017 open (0x55)",
    build: (args) => cjt188.buildValveControl(required(args, "address"), "open", cjtOptions(args)),
  },
  "valve-close": {
    usage: "--address A [--type 10] [--ser 0] [--di-order ...]   CJ/T 188 A017 close (0x99)",
    build: (args) => cjt188.buildValveControl(required(args, "address"), "close", cjtOptions(args)),
  },
  "water-read-address": {
    usage: "[--type AA] [--ser 0] [--di-order ...]   CJ/T 188 read address 810A (point-to-point)",
    build: (args) => cjt188.buildReadAddress(cjtOptions(args)),
  },
};
