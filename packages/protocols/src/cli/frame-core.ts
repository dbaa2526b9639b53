import { decodeAll, type ProtocolName } from "../detect.ts";
import { isProtocolError } from "../errors.ts";
import { parseHex, toHex } from "../hex.ts";
import { toJson } from "../json.ts";
import { option, parseArgs } from "./args.ts";
import { REQUESTS } from "./encode.ts";
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

const PROTOCOLS = new Set(["auto", "dlt645", "dlt645-2007", "dlt645-1997", "cjt188"]);

export function usage(): string {
  const requests = Object.entries(REQUESTS)
    .map(([name, spec]) => `  ${name.padEnd(26)}${spec.usage}`)
    .join("\n");
  return `Usage:
  npm run frame -- decode <hex…> [--protocol auto|dlt645|dlt645-2007|dlt645-1997|cjt188] [--compact]
      Hex with or without spaces, 0x prefixes or leading FE; several frames in one paste are all decoded.
  npm run frame -- encode <request> [options] [--preamble N] [--version 1997]

Requests:
${requests}

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
      const decoded = decodeAll(parseHex(rest.join(" ")), { protocol: protocol as ProtocolName | "auto" });
      const summaries = decoded.map(summarize);
      const indent = option(args, "compact") ? 0 : 2;
      return ok(toJson(summaries.length === 1 ? summaries[0] : summaries, indent));
    }
    if (command === "encode") {
      const name = rest[0];
      const spec = name === undefined ? undefined : REQUESTS[name];
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

const ok = (stdout: string): CliResult => ({ exitCode: 0, stdout, stderr: "" });
const failure = (stderr: string): CliResult => ({ exitCode: 1, stdout: "", stderr });
