/**
 * The registry of the fleet-scale bench, written set-based (one statement per table and chunk, every
 * value bound through unnest): a tenant, its DTUs with their registration secrets encrypted as the
 * collector form stores them, its electricity meters (remote-control, DL/T 645-2007) behind them,
 * and for a share of the meters a room, an owner and an open priced account (flat price, opening
 * deposit booked) so their readings are priced and booked as in service.
 */
import type { FleetPlan } from "@meterline/simulator";
import { plannedSecret } from "@meterline/simulator";
import type { FieldCipher } from "../apps/server/src/crud/field-cipher.ts";
import type { Db } from "../apps/server/src/db/client.ts";

export const FLEET_TENANT = "100100";
/** Row ids of the bench's own rows: far below the gateway's minted ids, apart per table. */
const COLLECTOR_BASE = 7_100_000_000;
const METER_BASE = 7_200_000_000;
const SCHEME_ID = 7_300_000_001;
/** Fen: far above what minutes of usage cost, so no account reaches arrears and trips. */
export const DEPOSIT_FEN = 1_000_000n;
export const PRICE = "0.5883";
const CHUNK = 20_000;

export interface Provisioned {
  dtus: number;
  meters: number;
  priced: number;
}

/** Every `1/share`-th meter is priced (share 0.5: every other one), spread over the DTUs. */
export const isPriced = (index: number, share: number) =>
  Math.floor((index + 1) * share) > Math.floor(index * share);

export async function provision(
  db: Db,
  plan: FleetPlan,
  cipher: FieldCipher,
  pricedShare: number,
): Promise<Provisioned> {
  await db.query(
    `insert into sys_tenant (id, tenant_id, tenant_name) values ($1, $2, 'Fleet scale bench')
     on conflict do nothing`,
    [COLLECTOR_BASE - 1, FLEET_TENANT],
  );
  await db.query(
    `insert into pms_charging_scheme (id, tenant_id, scheme_name, energy_type, price_mode, price)
     values ($1, $2, '居民电价', 1, 1, ${PRICE})`,
    [SCHEME_ID, FLEET_TENANT],
  );
  const collectorIds = new Map(plan.dtuIds.map((code, i) => [code, COLLECTOR_BASE + i]));
  // Each secret encrypted by the field cipher, as the registry's collector form writes it.
  await db.query(
    `insert into pms_collector (id, tenant_id, collector_name, collector_code, collector_type, transport,
                                online_status, heartbeat_seconds, registration_secret)
     select id, $1, code, code, 1, 'tcp', 0, 60, secret
       from unnest($2::bigint[], $3::varchar[], $4::text[]) as c(id, code, secret)`,
    [
      FLEET_TENANT,
      plan.dtuIds.map((code) => collectorIds.get(code)),
      plan.dtuIds,
      plan.dtuIds.map((code) => cipher.encrypt(plannedSecret(plan, code))),
    ],
  );
  const meters = plan.meters;
  for (let start = 0; start < meters.length; start += CHUNK) {
    const chunk = meters.slice(start, start + CHUNK);
    await db.query(
      `insert into pms_meter (id, tenant_id, product_code, protocol, meter_type, control_status, account_status,
                              online_status, collector_id, channel, charging_scheme_id)
       select id, $1, code, 'dlt645_2007', 2, 1, case when priced then 1 else 0 end, 0, collector, 1, $5
         from unnest($2::bigint[], $3::varchar[], $4::bigint[], $6::boolean[]) as m(id, code, collector, priced)`,
      [
        FLEET_TENANT,
        chunk.map((m) => METER_BASE + m.index),
        chunk.map((m) => m.address),
        chunk.map((m) => collectorIds.get(m.collectorId)),
        SCHEME_ID,
        chunk.map((m) => isPriced(m.index, pricedShare)),
      ],
    );
  }
  // The priced meters: a room and an owner each, the room's meter link, the account and its deposit.
  const priced = meters.filter((m) => isPriced(m.index, pricedShare)).map((m) => METER_BASE + m.index);
  for (let start = 0; start < priced.length; start += CHUNK) {
    const ids = priced.slice(start, start + CHUNK);
    const params = [FLEET_TENANT, ids];
    await db.query(
      `insert into pms_room (id, tenant_id, room_name, room_code) select id, $1, 'R' || id, 'R' || id
         from unnest($2::bigint[]) as r(id)`,
      params,
    );
    await db.query(
      `insert into pms_room_meter (id, tenant_id, room_id, energy_type, meter_id) select id, $1, id, 1, id
         from unnest($2::bigint[]) as r(id)`,
      params,
    );
    await db.query(
      `insert into pms_owner (id, tenant_id, owner_name, owner_code, balance)
       select id, $1, '业主' || id, 'O' || id, ${DEPOSIT_FEN} / 100.0 from unnest($2::bigint[]) as o(id)`,
      params,
    );
    // No registers yet: the meter's first reading is the account's starting point, as at a real opening.
    await db.query(
      `insert into pms_account (id, tenant_id, owner_id, room_id, energy_type, meter_id, control_status,
                                charging_scheme_id, balance)
       select id, $1, id, id, 1, id, 1, $3, ${DEPOSIT_FEN} from unnest($2::bigint[]) as a(id)`,
      [...params, SCHEME_ID],
    );
    await db.query(
      `insert into pms_ledger (id, tenant_id, account_id, owner_id, entry_type, amount, balance_after, cause, creator)
       select id, $1, id, id, 1, ${DEPOSIT_FEN}, ${DEPOSIT_FEN}, '开户预存', 'bench' from unnest($2::bigint[]) as l(id)`,
      params,
    );
  }
  for (const table of [
    "pms_collector",
    "pms_meter",
    "pms_room_meter",
    "pms_account",
    "pms_ledger",
    "pms_owner",
  ])
    await db.query(`analyze ${table}`);
  return { dtus: plan.dtuIds.length, meters: meters.length, priced: priced.length };
}
