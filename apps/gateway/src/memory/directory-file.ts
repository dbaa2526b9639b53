import { readFile } from "node:fs/promises";
import { NetworkListError, parseNetworks } from "../dtu/authenticate.ts";
import { isValidSecret } from "../dtu/packet-format.ts";
import type { MeterInfo, MeterProtocol } from "../model.ts";
import { ModbusModelError, modelOf } from "../protocol/modbus-requests.ts";
import type { DirectoryCollector } from "./meter-directory.ts";

/**
 * A meter directory as a JSON file: lets the stand-alone gateway serve real DTUs or the simulated
 * fleet (`npm run simulate -- --write-directory fleet.json`) without the server. The file is
 *   { "collectors": [{ "id", "secret", "allowedNetworks"? }], "meters": [MeterInfo, …] }
 * (a bare array of meters is read too, but its DTUs have no secret and are refused). Every entry is
 * checked; the error names the entry and the field.
 */
export class DirectoryFileError extends Error {}

const PROTOCOLS: readonly MeterProtocol[] = ["dlt645-2007", "dlt645-1997", "dlt698", "cjt188", "modbus"];

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
    const digits = protocol === "cjt188" ? 14 : protocol === "modbus" ? 0 : 12;
    if (
      protocol === "modbus" &&
      !(/^\d{1,3}$/.test(address) && Number(address) >= 1 && Number(address) <= 247)
    )
      fail(index, "address", "must be a Modbus slave address 1..247");
    else if (digits && !new RegExp(`^\\d{1,${digits}}$`).test(address))
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
    if (protocol === "modbus") {
      const name = (model as Record<string, unknown>).modbusModel;
      try {
        modelOf({ model: { modbusModel: typeof name === "string" ? name : "" } } as MeterInfo);
      } catch (error) {
        if (!(error instanceof ModbusModelError)) throw error;
        fail(index, "model.modbusModel", error.message);
      }
    }
    return {
      id,
      address: digits ? address.padStart(digits, "0") : address,
      protocol,
      transport,
      collectorId: text("collectorId"),
      channel,
      model: model as MeterInfo["model"],
      pollIntervalMs,
    };
  });
}

export interface DirectoryFile {
  collectors: DirectoryCollector[];
  meters: MeterInfo[];
}

/** Collectors' secrets: 1..64 of A-Z a-z 0-9 . _ ~ - (what a registration packet can carry). */
export function parseCollectors(json: unknown): DirectoryCollector[] {
  if (!Array.isArray(json)) throw new DirectoryFileError("collectors must be a JSON array");
  const ids = new Set<string>();
  return json.map((entry: unknown, index): DirectoryCollector => {
    const bad = (field: string, problem: string): never => {
      throw new DirectoryFileError(`collector #${index}: ${field} ${problem}`);
    };
    if (typeof entry !== "object" || entry === null) return bad("entry", "is not an object");
    const { id, secret, allowedNetworks } = entry as Record<string, unknown>;
    if (typeof id !== "string" || id.length === 0 || id.length > 64)
      bad("id", "must be a text of 1..64 characters");
    if (ids.has(id as string)) bad("id", `"${String(id)}" is used twice`);
    ids.add(id as string);
    if (typeof secret !== "string" || !isValidSecret(secret))
      bad("secret", "must be 1..64 of A-Z a-z 0-9 . _ ~ -");
    const networks = allowedNetworks ?? [];
    if (!Array.isArray(networks) || networks.some((n) => typeof n !== "string"))
      bad("allowedNetworks", "must be an array of networks");
    try {
      parseNetworks(networks as string[]);
    } catch (error) {
      if (error instanceof NetworkListError) bad("allowedNetworks", error.message);
      throw error;
    }
    return {
      id: id as string,
      secret: secret as string,
      ...((networks as string[]).length ? { allowedNetworks: networks as string[] } : {}),
    };
  });
}

export function parseDirectoryFile(json: unknown): DirectoryFile {
  if (Array.isArray(json)) return { collectors: [], meters: parseDirectory(json) };
  if (typeof json !== "object" || json === null)
    throw new DirectoryFileError('the directory must be {"collectors": [...], "meters": [...]}');
  const { collectors, meters } = json as Record<string, unknown>;
  return { collectors: parseCollectors(collectors ?? []), meters: parseDirectory(meters) };
}

export async function loadDirectoryFile(path: string): Promise<DirectoryFile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new DirectoryFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseDirectoryFile(json);
}
