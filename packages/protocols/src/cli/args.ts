import { fail } from "../errors.ts";

/** Minimal argv parser: positionals, `--name value`, `--name=value`, repeated options, and `--flag`. */
export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
}

const FLAGS = new Set(["help", "compact", "h", "auto-close", "direct", "off"]);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h") {
      options.set("help", ["true"]);
      continue;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    let value = inline;
    if (value === undefined) {
      if (FLAGS.has(name)) value = "true";
      else {
        value = argv[i + 1];
        if (value === undefined) fail("bad-argument", `--${name} needs a value`);
        i++;
      }
    }
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { positionals, options };
}

export function option(args: ParsedArgs, name: string): string | undefined {
  const values = args.options.get(name);
  return values?.[values.length - 1];
}

export function required(args: ParsedArgs, name: string): string {
  const value = option(args, name);
  if (value === undefined) fail("bad-argument", `--${name} is required`);
  return value;
}

/** Integer option given in decimal or as hex with 0x (bytes such as --type 0x10, --level 02). */
export function intOption(args: ParsedArgs, name: string, radix: 10 | 16 = 10): number | undefined {
  const text = option(args, name);
  if (text === undefined) return undefined;
  const hex = /^0x/i.test(text);
  const value = Number.parseInt(hex ? text.slice(2) : text, hex ? 16 : radix);
  if (!Number.isInteger(value) || !/^(0x)?[0-9a-f]+$/i.test(text))
    fail("bad-argument", `--${name} "${text}" is not a number`);
  return value;
}
