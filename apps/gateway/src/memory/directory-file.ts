import { readFile } from "node:fs/promises";
import type { MeterInfo, MeterProtocol } from "../model.ts";

/**
 * A meter directory as a JSON file (an array of MeterInfo): lets the stand-alone gateway serve real
 * DTUs or the simulated fleet (`npm run simulate -- --write-directory fleet.json`) without the
 * server. Every entry is checked; the error names the entry and the field.
 */
export class DirectoryFileError extends Error {}

const PROTOCOLS: readonly MeterProtocol[] = ["dlt645-2007", "dlt645-1997", "cjt188"];

function fail(index: number, field: string, problem: string): never {
  throw new DirectoryFileError(`meter #${index}: ${field} ${problem}`);
}

export function parseDirectory(json: unknown): MeterInfo[] {
  if (!Array.isArray(json)) throw new DirectoryFileError("the directory must be a JSON array of meters");
  const ids = new Set<string>();
  return json.map((entry: unknown, index): MeterInfo => {
    if (typeof entry !== "object" || entry === null) fail(index, "entry", "is not an object");
    const meter = entry as Record<string, unknown>;
    const text = (field: string) => {
      const value = meter[field];
      if (typeof value !== "string" || value.length === 0 || value.length > 64)
        fail(index, field, "must be a text of 1..64 characters");
      return value;
    };
    const id = text("id");
    if (ids.has(id)) fail(index, "id", `"${id}" is used twice`);
    ids.add(id);
    const protocol = text("protocol") as MeterProtocol;
    if (!PROTOCOLS.includes(protocol)) fail(index, "protocol", `must be one of ${PROTOCOLS.join(", ")}`);
    const address = text("address");
    const digits = protocol === "cjt188" ? 14 : 12;
    if (!new RegExp(`^\\d{1,${digits}}$`).test(address))
      fail(index, "address", `must be up to ${digits} digits`);
    const transport = meter.transport ?? "tcp";
    if (transport !== "tcp" && transport !== "mqtt") fail(index, "transport", 'must be "tcp" or "mqtt"');
    const pollIntervalMs = meter.pollIntervalMs ?? 900_000;
    if (typeof pollIntervalMs !== "number" || !Number.isInteger(pollIntervalMs) || pollIntervalMs < 0)
      fail(index, "pollIntervalMs", "must be a whole number ≥ 0");
    const channel = meter.channel ?? 1;
    if (typeof channel !== "number" || !Number.isInteger(channel) || channel < 0)
      fail(index, "channel", "must be a whole number");
    const model = meter.model ?? {};
    if (typeof model !== "object" || model === null || Array.isArray(model))
      fail(index, "model", "must be an object");
    return {
      id,
      address: address.padStart(digits, "0"),
      protocol,
      transport,
      collectorId: text("collectorId"),
      channel,
      model: model as MeterInfo["model"],
      pollIntervalMs,
    };
  });
}

export async function loadDirectoryFile(path: string): Promise<MeterInfo[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new DirectoryFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseDirectory(json);
}
