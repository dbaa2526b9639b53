import { modbusMeterId } from "@meterline/simulator";
import type { Queryable } from "../db/client.ts";
import { DEMO_TENANT_ID } from "./demo-site.ts";

/**
 * The demo's meters whose supply the database last knew as off (switch status 1: a relay tripped, a
 * valve shut), named as the simulated fleet names them: a DL/T 645, DL/T 698.45 or CJ/T 188 meter
 * by its address, a Modbus meter by its DTU and slave. The fleet starts them that way, as real
 * meters keep their relays and valves through a restart of the server: without it, a meter cut for
 * arrears came back supplied after a restart, with no command given and the account still owing.
 */
export async function demoSupplyOff(db: Queryable): Promise<string[]> {
  const rows = await db.query<{
    product_code: string;
    protocol: string | null;
    collector_code: string | null;
    modbus_slave: number | null;
  }>(
    `select m.product_code, m.protocol, c.collector_code, m.modbus_slave
       from pms_meter m left join pms_collector c on c.id = m.collector_id and c.tenant_id = m.tenant_id
      where m.tenant_id = $1 and m.is_deleted = 0 and m.switch_status = 1
     union all
     select w.product_code, w.protocol, null, null
       from pms_water w
      where w.tenant_id = $1 and w.is_deleted = 0 and w.switch_status = 1`,
    [DEMO_TENANT_ID],
  );
  return rows.flatMap((row) => {
    if (row.protocol !== "modbus_rtu") return [row.product_code];
    return row.collector_code && row.modbus_slave !== null
      ? [modbusMeterId(row.collector_code, row.modbus_slave)]
      : [];
  });
}
