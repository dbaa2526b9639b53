import { decodeAll, type ProtocolName } from "../detect.ts";
import { isProtocolError } from "../errors.ts";
import { parseHex, toHex } from "../hex.ts";
import { toJson } from "../json.ts";
import { option, parseArgs } from "./args.ts";
import { DLT698_REQUESTS, decodeDlt698 } from "./dlt698.ts";
import { REQUESTS } from "./encode.ts";
import { decodeModbus, encodeModbus, MODBUS_REQUESTS } from "./modbus.ts";
import { decodeQgdw1376Text, QGDW1376_REQUESTS } from "./qgdw1376.ts";
import { summarize } from "./summary.ts";

/**
 * The frame tool without the process: argv in, text out. `npm run frame -- decode <hex>`
 * prints the decoded frame(s) as JSON; `npm run frame -- encode <request> …` prints hex.
 */
export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const PROTOCOLS = new Set([
  "auto",
  "dlt645",
  "dlt645-2007",
  "dlt645-1997",
  "cjt188",
  "dlt698",
  "qgdw1376",
  "modbus",
]);

export function usage(): string {
  const requests = Object.entries(REQUESTS)
    .map(([name, spec]) => `  ${name.padEnd(26)}${spec.usage}`)
    .join("\n");
  const qgdw = Object.entries(QGDW1376_REQUESTS)
    .map(([name, spec]) => `  ${name.padEnd(26)}${spec.usage}`)
    .join("\n");
  const requests698 = Object.entries(DLT698_REQUESTS)
    .map(([name, spec]) => `  ${name.padEnd(26)}${spec.usage}`)
    .join("\n");
  const modbusRequests = Object.entries(MODBUS_REQUESTS)
    .map(([name, spec]) => `  ${name.padEnd(26)}${spec.usage}`)
    .join("\n");
  return `Usage:
  npm run frame -- decode <hex…> [--protocol auto|dlt645|dlt645-2007|dlt645-1997|cjt188|dlt698|qgdw1376|modbus] [--compact]
      Hex with or without spaces, 0x prefixes or leading FE; several frames in one paste are all decoded.
      DL/T 698.45 frames are decoded with --protocol dlt698.
  npm run frame -- decode --protocol modbus <hex…> [--transport rtu|tcp] [--direction request|reply]
      [--model <name> --start <address>]   values by name from a register reply (models: packages/protocols/src/modbus/models)
  npm run frame -- encode --protocol modbus <request> [options] [--slave 1] [--transport tcp --transaction 1]
  npm run frame -- encode <request> [options] [--preamble N] [--version 1997]
  npm run frame -- encode --protocol dlt698 <request> [options]

Requests:
${requests}

DL/T 698.45 requests (--protocol dlt698):
${requests698}

Requests with --protocol qgdw1376 (concentrators, Q/GDW 1376.1):
${qgdw}

Requests with --protocol modbus (Modbus-RTU by default, MBAP with --transport tcp):
${modbusRequests}

Addresses are written as printed on the meter (most significant digit first).`;
}

export function runFrameCli(argv: readonly string[], now: Date = new Date()): CliResult {
  try {
    const args = parseArgs(argv);
    const [command, ...rest] = args.positionals;
    if (option(args, "help") || command === undefined || command === "help") return ok(usage());
    if (command === "decode") {
      const protocol = option(args, "protocol") ?? "auto";
      if (!PROTOCOLS.has(protocol)) return failure(`unknown --protocol "${protocol}"`);
      if (rest.length === 0) return failure("decode needs hex input");
      const indent = option(args, "compact") ? 0 : 2;
      const text = rest.join(" ");
      if (protocol === "dlt698") {
        const summaries = decodeDlt698(text);
        return ok(toJson(summaries.length === 1 ? summaries[0] : summaries, indent));
      }
      if (protocol === "qgdw1376") return ok(toJson(single(decodeQgdw1376Text(text)), indent));
      if (protocol === "modbus") return ok(toJson(decodeModbus(text, args), indent));
      const decoded = decodeAllOrQgdw1376(text, protocol as ProtocolName | "auto");
      if (!Array.isArray(decoded)) return ok(toJson(single(decoded.qgdw1376), indent));
      const summaries = decoded.map(summarize);
      return ok(toJson(summaries.length === 1 ? summaries[0] : summaries, indent));
    }
    if (command === "encode") {
      const name = rest[0];
      const asked = option(args, "protocol");
      if (asked === "modbus") return ok(toHex(encodeModbus(name ?? "", args)));
      const table =
        asked === "dlt698" ? DLT698_REQUESTS : asked === "qgdw1376" ? QGDW1376_REQUESTS : REQUESTS;
      const spec = name === undefined ? undefined : table[name];
      if (!spec) return failure(`unknown request "${name ?? ""}"; see --help`);
      return ok(toHex(spec.build(args, now)));
    }
    return failure(`unknown command "${command}"; see --help`);
  } catch (error) {
    if (isProtocolError(error))
      return failure(toJson({ error: { code: error.code, message: error.message, offset: error.offset } }));
    throw error;
  }
}

const single = <T>(list: T[]): T | T[] => (list.length === 1 ? list[0]! : list);

/** Auto detection tries 645 and 188 first; a 1376.1 frame (68 L L L L 68) is the fallback. */
function decodeAllOrQgdw1376(text: string, protocol: ProtocolName | "auto") {
  const bytes = parseHex(text);
  try {
    return decodeAll(bytes, { protocol });
  } catch (error) {
    if (protocol !== "auto" || !isProtocolError(error)) throw error;
    try {
      return { qgdw1376: decodeQgdw1376Text(text) };
    } catch (inner) {
      if (!isProtocolError(inner)) throw inner;
      throw error;
    }
  }
}

const ok = (stdout: string): CliResult => ({ exitCode: 0, stdout, stderr: "" });
const failure = (stderr: string): CliResult => ({ exitCode: 1, stdout: "", stderr });
