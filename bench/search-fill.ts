/**
 * The registry the search benchmark searches (bench/search.ts): one tenant's areas, rooms, owners,
 * meters and collectors, written set-based so that filling 10,000 rooms takes seconds.
 */
import type { Db } from "../apps/server/src/db/client.ts";

/** Sizes of one tenant: rooms (and owners, and electric meters), water meters per room, collectors. */
export const SEARCH_FLEET = { rooms: 10_000, waterShare: 5, collectors: 100 };

/**
 * One tenant's registry, written in a handful of set-based statements (the benchmark measures the
 * search, not the writes). Ids are offset per tenant; codes and phones differ per tenant too.
 */
export async function fillTenant(
  db: Db,
  tenantId: string,
  offset: number,
  fleet = SEARCH_FLEET,
): Promise<void> {
  const t = tenantId;
  // Areas: parks, buildings, units, floors; ancestors as the area tree keeps them ("0,park,…").
  await db.query(
    `insert into pms_area (id, tenant_id, parent_id, ancestors, area_name, area_type, sort)
     select $2::bigint + p, $1, 0, '0', (p + 1) || '号园区', 1, p from generate_series(0, 1) p`,
    [t, offset + 1_000_000],
  );
  await db.query(
    `insert into pms_area (id, tenant_id, parent_id, ancestors, area_name, area_type, sort)
     select $2::bigint + p * 10 + b, $1, $3::bigint + p, '0,' || ($3::bigint + p), (b + 1) || '号楼', 2, b
       from generate_series(0, 1) p, generate_series(0, 9) b`,
    [t, offset + 1_001_000, offset + 1_000_000],
  );
  await db.query(
    `insert into pms_area (id, tenant_id, parent_id, ancestors, area_name, area_type, sort)
     select $2::bigint + k * 2 + u, $1, $3::bigint + k,
            '0,' || ($4::bigint + k / 10) || ',' || ($3::bigint + k), (u + 1) || '单元', 3, u
       from generate_series(0, 19) k, generate_series(0, 1) u`,
    [t, offset + 1_002_000, offset + 1_001_000, offset + 1_000_000],
  );
  await db.query(
    `insert into pms_area (id, tenant_id, parent_id, ancestors, area_name, area_type, sort)
     select $2::bigint + u * 25 + f, $1, $3::bigint + u,
            '0,' || ($5::bigint + u / 20) || ',' || ($4::bigint + u / 2) || ',' || ($3::bigint + u), (f + 1) || '层', 4, f
       from generate_series(0, 39) u, generate_series(0, 24) f`,
    [t, offset + 1_010_000, offset + 1_002_000, offset + 1_001_000, offset + 1_000_000],
  );
  // Rooms: ten per floor, named by floor and number ("305"), as buildings number them.
  await db.query(
    `insert into pms_room (id, tenant_id, area_id, room_name, room_code, room_type)
     select $2::bigint + i, $1, $3::bigint + i / 10, ((i / 10) % 25 + 1) || lpad((i % 10 + 1)::text, 2, '0'),
            'R' || lpad(i::text, 6, '0'), 1
       from generate_series(0, $4::int - 1) i`,
    [t, offset + 2_000_000, offset + 1_010_000, fleet.rooms],
  );
  await db.query(
    `insert into pms_owner (id, tenant_id, owner_name, owner_code, owner_type, phone, id_card)
     select $2::bigint + i, $1, '业主' || i, 'YZ' || lpad(i::text, 6, '0'), 1,
            '13' || lpad(((i * 7919 + $4::int) % 1000000000)::text, 9, '0'),
            '110105' || lpad(((i::bigint * 104729 + $4::int) % 100000000000)::text, 11, '0') || 'X'
       from generate_series(0, $3::int - 1) i`,
    [t, offset + 3_000_000, fleet.rooms, offset % 9973],
  );
  await db.query(
    `insert into pms_owner_room (id, tenant_id, owner_id, room_id)
     select $2::bigint + i, $1, $3::bigint + i, $4::bigint + i from generate_series(0, $5::int - 1) i`,
    [t, offset + 7_000_000, offset + 3_000_000, offset + 2_000_000, fleet.rooms],
  );
  await db.query(
    `insert into pms_collector (id, tenant_id, collector_name, collector_code, collector_type, transport, heartbeat_seconds)
     select $2::bigint + k, $1, (k % 20 + 1) || '号楼 DTU ' || k, $3 || lpad(k::text, 4, '0'), 1, 'tcp', 60
       from generate_series(0, $4::int - 1) k`,
    [t, offset + 6_000_000, `DTU${offset}-`, fleet.collectors],
  );
  for (const [table, digits, n, idBase] of [
    ["pms_meter", 12, fleet.rooms, 4_000_000],
    ["pms_water", 14, Math.floor(fleet.rooms / fleet.waterShare), 5_000_000],
  ] as const) {
    await db.query(
      `insert into ${table} (id, tenant_id, product_code, meter_name, run_status, collector_id, channel)
       select $2::bigint + i, $1, lpad((i::bigint * 7919 + $5::bigint)::text, ${digits}, '0'),
              '表 ' || i, 3, $3::bigint + i % ${fleet.collectors}, 1
         from generate_series(0, $4::int - 1) i`,
      [t, offset + idBase, offset + 6_000_000, n, offset * 13 + digits],
    );
  }
}
