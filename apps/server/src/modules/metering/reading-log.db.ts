import type { Queryable } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";

/** One row of the electric reading log, as the gateway writes it. */
export interface ElectricRead {
  id: string;
  tenantId: string;
  meterId: string;
  roomId: string | null;
  productCode: string;
  readTime: Date;
  /** Total, tip, peak, peace, low: exact decimals as text. */
  registers: readonly [string, string | null, string | null, string | null, string | null];
  balance: string | null;
  switchStatus: number | null;
  missing: string;
}

/** One row of the water reading log. */
export interface WaterRead {
  id: string;
  tenantId: string;
  meterId: string;
  roomId: string | null;
  productCode: string;
  readTime: Date;
  totalValue: string;
  switchStatus: number | null;
  batteryLow: number | null;
  missing: string;
}

/**
 * Many reads in one statement: each column travels as one array parameter and `unnest` turns them
 * back into rows, so a batch costs one round trip and one plan whatever its size, with every value
 * bound (never spliced).
 */
export async function insertElectricReads(db: Queryable, rows: readonly ElectricRead[]): Promise<void> {
  if (rows.length === 0) return;
  const band = (i: number) => rows.map((r) => r.registers[i] ?? null);
  await db.query(
    prepared(`insert into pms_data_read (id, tenant_id, meter_id, room_id, product_code, read_time, total_value,
       tip_value, peak_value, peace_value, low_value, balance, switch_status, missing, source, voided)
     select id, tenant_id, meter_id, room_id, product_code, read_time, total_value,
            tip_value, peak_value, peace_value, low_value, balance, switch_status, missing, 'gateway', 0
       from unnest($1::bigint[], $2::varchar[], $3::bigint[], $4::bigint[], $5::varchar[], $6::timestamptz[],
                   $7::numeric[], $8::numeric[], $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[],
                   $13::int[], $14::varchar[])
         as r(id, tenant_id, meter_id, room_id, product_code, read_time, total_value,
              tip_value, peak_value, peace_value, low_value, balance, switch_status, missing)`),
    [
      rows.map((r) => r.id),
      rows.map((r) => r.tenantId),
      rows.map((r) => r.meterId),
      rows.map((r) => r.roomId),
      rows.map((r) => r.productCode),
      rows.map((r) => r.readTime.toISOString()),
      band(0),
      band(1),
      band(2),
      band(3),
      band(4),
      rows.map((r) => r.balance),
      rows.map((r) => r.switchStatus),
      rows.map((r) => r.missing),
    ],
  );
}

/** Many water reads in one statement, as `insertElectricReads`. */
export async function insertWaterReads(db: Queryable, rows: readonly WaterRead[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    prepared(`insert into pms_water_data_read (id, tenant_id, meter_id, room_id, product_code, read_time, total_value,
       switch_status, battery_low, missing, source, voided)
     select id, tenant_id, meter_id, room_id, product_code, read_time, total_value,
            switch_status, battery_low, missing, 'gateway', 0
       from unnest($1::bigint[], $2::varchar[], $3::bigint[], $4::bigint[], $5::varchar[], $6::timestamptz[],
                   $7::numeric[], $8::int[], $9::int[], $10::varchar[])
         as r(id, tenant_id, meter_id, room_id, product_code, read_time, total_value,
              switch_status, battery_low, missing)`),
    [
      rows.map((r) => r.id),
      rows.map((r) => r.tenantId),
      rows.map((r) => r.meterId),
      rows.map((r) => r.roomId),
      rows.map((r) => r.productCode),
      rows.map((r) => r.readTime.toISOString()),
      rows.map((r) => r.totalValue),
      rows.map((r) => r.switchStatus),
      rows.map((r) => r.batteryLow),
      rows.map((r) => r.missing),
    ],
  );
}
