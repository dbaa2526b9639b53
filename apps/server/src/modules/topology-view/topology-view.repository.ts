import type { Queryable } from "../../db/client.ts";
import type { EnergyType } from "../line-loss/line-loss.repository.ts";

export interface MeterRoomRow {
  meter_id: string;
  room_id: string;
  room_name: string;
  area_name: string | null;
}

/**
 * The rooms of the meters a tenant's topology of one energy type names (as a master or as a
 * sub-meter): one statement, bounded by the topology rather than by every room of the tenant.
 */
export async function roomsOfTopologyMeters(
  db: Queryable,
  tenantId: string,
  energyType: EnergyType,
): Promise<MeterRoomRow[]> {
  return db.query<MeterRoomRow>(
    `select rm.meter_id::text as meter_id, r.id::text as room_id, r.room_name, a.area_name
       from pms_room_meter rm
       join pms_room r on r.id = rm.room_id and r.tenant_id = rm.tenant_id and r.is_deleted = 0
       left join pms_area a on a.id = r.area_id and a.tenant_id = r.tenant_id and a.is_deleted = 0
      where rm.tenant_id = $1 and rm.energy_type = $2 and rm.is_deleted = 0
        and (exists (select 1 from pms_metering_node_meter l
                      where l.tenant_id = $1 and l.energy_type = $2 and l.is_deleted = 0
                        and l.meter_id = rm.meter_id)
             or exists (select 1 from pms_metering_node n
                         where n.tenant_id = $1 and n.energy_type = $2 and n.is_deleted = 0
                           and n.master_meter_id = rm.meter_id))`,
    [tenantId, energyType],
  );
}
