import type { ResourceDef } from "@meterline/contracts";
import { modbusCatalogue } from "@meterline/gateway";
import { badRequest } from "../../contract/errors.ts";
import { type Column, columnByName } from "../../crud/columns.ts";
import type { HookContext } from "../../crud/hooks.ts";

/** The meter_protocol key of Modbus-RTU meters behind DTUs. */
export const MODBUS_RTU = "modbus_rtu";

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
    ? await db.query<{ protocol: string; modbus_model: string | null; modbus_slave: number | null }>(
        `select protocol, modbus_model, modbus_slave from ${def.table} where id = $1`,
        [id],
      )
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
  if (pick("protocol", "protocol") !== MODBUS_RTU) return;
  if (blank(model)) throw badRequest("modbusModel: Modbus 电表须选择型号");
  if (blank(pick("modbusSlave", "modbus_slave")))
    throw badRequest("modbusSlave: Modbus 电表须填写从站地址 (1-247)");
}
