import { isIP } from "node:net";
import type { ResourceDef } from "@meterline/contracts";
import { badRequest } from "../../contract/errors.ts";
import { type Column, columnByName } from "../../crud/columns.ts";
import type { HookContext } from "../../crud/hooks.ts";

/** The `transport` key of a collector that is a Modbus TCP endpoint the gateway connects out to. */
export const MODBUS_TCP_TRANSPORT = "modbus";

/** A DNS name as RFC 1123 allows it: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

const blank = (value: unknown) => value === undefined || value === null || value === "";

/** Why `host` is no address the gateway can dial, or undefined when it is one (an IP or a DNS name). */
export function hostProblem(host: string): string | undefined {
  if (isIP(host) !== 0) return undefined;
  // A name made of digits and dots alone is a mistyped IPv4 address, not a host name.
  if (HOST_NAME.test(host) && !/^[\d.]+$/.test(host)) return undefined;
  return `[${host}] 不是 IP 地址或主机名`;
}

/**
 * A Modbus TCP collector is dialled by the gateway at its host and port, so both are required and
 * the host must be an IP address or a host name; other collectors are dialled by nobody and take
 * neither. Fields not in the write keep the stored row's values.
 */
export async function checkModbusEndpoint(
  { db }: HookContext,
  def: ResourceDef,
  values: Map<Column, unknown>,
  id?: string,
): Promise<void> {
  const given = (field: string) => values.get(columnByName(def, field)!);
  const [stored] = id
    ? await db.query<{ transport: string; modbus_host: string | null; modbus_port: number | null }>(
        `select transport, modbus_host, modbus_port from ${def.table} where id = $1`,
        [id],
      )
    : [];
  const pick = (field: string, column: keyof NonNullable<typeof stored>) => {
    const value = given(field);
    return value === undefined ? stored?.[column] : value;
  };
  const host = pick("modbusHost", "modbus_host");
  const port = pick("modbusPort", "modbus_port");
  const endpoint = pick("transport", "transport") === MODBUS_TCP_TRANSPORT;
  if (!endpoint) {
    if (!blank(given("modbusHost"))) throw badRequest("modbusHost: 只用于接入方式为 Modbus TCP 直连的采集器");
    if (!blank(given("modbusPort"))) throw badRequest("modbusPort: 只用于接入方式为 Modbus TCP 直连的采集器");
    return;
  }
  if (blank(host)) throw badRequest("modbusHost: Modbus TCP 直连须填写电表或网关的 IP 地址或主机名");
  const problem = hostProblem(String(host).trim());
  if (problem) throw badRequest(`modbusHost: ${problem}`);
  if (blank(port)) throw badRequest("modbusPort: Modbus TCP 直连须填写端口 (1-65535, 通常为 502)");
}
