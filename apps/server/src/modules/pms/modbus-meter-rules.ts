import type { ResourceDef } from "@meterline/contracts";
import { modbusCatalogue } from "@meterline/gateway";
import { badRequest } from "../../contract/errors.ts";
import { type Column, columnByName } from "../../crud/columns.ts";
import type { HookContext } from "../../crud/hooks.ts";
import { MODBUS_TCP_TRANSPORT } from "./modbus-endpoint-rules.ts";

/** The meter_protocol key of Modbus-RTU meters behind DTUs. */
export const MODBUS_RTU = "modbus_rtu";
/** The meter_protocol key of Modbus TCP meters behind a Modbus TCP endpoint (a collector of transport "modbus"). */
export const MODBUS_TCP = "modbus_tcp";
/** Protocols read by a catalogue model, which need a model and a slave address (or unit id). */
export const MODBUS_PROTOCOLS: readonly unknown[] = [MODBUS_RTU, MODBUS_TCP];

const blank = (value: unknown) => value === undefined || value === null || value === "";

/**
 * A Modbus meter is read by its model's register map, so its model must be one of the gateway's
 * catalogue (not only a dictionary entry: the catalogue is what the gateway loads), and it needs a
 * slave address on its bus. Fields not in the write keep the stored row's values.
 */
export async function checkModbusMeter(
  { db }: HookContext,
  def: ResourceDef,
  values: Map<Column, unknown>,
  id?: string,
): Promise<void> {
  const value = (field: string) => values.get(columnByName(def, field)!);
  const [stored] = id
    ? await db.query<{
        protocol: string;
        modbus_model: string | null;
        modbus_slave: number | null;
        collector_id: string | null;
      }>(`select protocol, modbus_model, modbus_slave, collector_id::text from ${def.table} where id = $1`, [
        id,
      ])
    : [];
  const pick = (field: string, column: keyof NonNullable<typeof stored>) => {
    const given = value(field);
    return given === undefined ? stored?.[column] : given;
  };
  const model = pick("modbusModel", "modbus_model");
  const catalogue = modbusCatalogue();
  if (!blank(model) && !catalogue.has(String(model)))
    throw badRequest(
      `modbusModel: [${String(model)}] 不在 Modbus 型号目录中 (${[...catalogue.keys()].join(", ")})`,
    );
  const protocol = pick("protocol", "protocol");
  await checkEndpointMatches(db, protocol, pick("collectorId", "collector_id"));
  if (!MODBUS_PROTOCOLS.includes(protocol)) return;
  if (blank(model)) throw badRequest("modbusModel: Modbus 电表须选择型号");
  if (blank(pick("modbusSlave", "modbus_slave")))
    throw badRequest("modbusSlave: Modbus 电表须填写从站地址 (1-247)");
}

/**
 * The gateway frames a meter by its collector: MBAP over a Modbus TCP endpoint's own connection,
 * the meter's protocol over a DTU. So a Modbus TCP meter sits on a Modbus TCP collector and such a
 * collector holds Modbus TCP meters only.
 */
async function checkEndpointMatches(db: HookContext["db"], protocol: unknown, collectorId: unknown) {
  if (blank(collectorId)) {
    if (protocol === MODBUS_TCP)
      throw badRequest("collectorId: Modbus TCP 电表须接在 Modbus TCP 直连的采集器下");
    return;
  }
  const [collector] = await db.query<{ transport: string }>(
    "select transport from pms_collector where id = $1 and is_deleted = 0",
    [collectorId],
  );
  const endpoint = collector?.transport === MODBUS_TCP_TRANSPORT;
  if (protocol === MODBUS_TCP && !endpoint)
    throw badRequest("collectorId: Modbus TCP 电表须接在 Modbus TCP 直连的采集器下");
  if (protocol !== MODBUS_TCP && endpoint)
    throw badRequest("protocol: Modbus TCP 直连的采集器下只能接 Modbus TCP 电表");
}
