import type { Db } from "../src/db/client.ts";

/**
 * Electric meters of tenant 000000 with ids `base`…, each in a room with an owner, under one flat
 * charging scheme (0.50 元/kWh) and an alarm scheme; the first `priced` of them with an open
 * remote-control account the server prices (registers at 1000.00 kWh, priced up to `pricedUpTo`)
 * and its opening deposit in the ledger. Written by SQL: the readings sink's tests are about what
 * the sink does with many meters, not about registering them (registry tests do that through HTTP).
 */
export async function seedPricedMeters(
  db: Db,
  options: {
    base: number;
    meters: number;
    priced: number;
    /** Fen. */
    deposit: bigint;
    pricedUpTo: Date;
    /** Alarm lines in yuan: first, second, arrears. */
    alarm?: readonly [number, number, number];
  },
): Promise<void> {
  const tenant = "000000";
  const { base, deposit } = options;
  const last = base + options.meters - 1;
  const lastPriced = base + options.priced - 1;
  const [first, second, arrears] = options.alarm ?? [0, 0, 0];
  await db.query(
    `insert into pms_charging_scheme (id, tenant_id, scheme_name, energy_type, price_mode, price)
     values ($1::bigint, $2, '测试平价 ' || $1::text, 1, 1, 0.5)`,
    [base, tenant],
  );
  await db.query(
    `insert into pms_alarm_scheme (id, tenant_id, scheme_name, energy_type, first_alarm, second_alarm, arrears_limit,
                                   trip_on_arrears)
     values ($1::bigint, $2, '测试告警 ' || $1::text, 1, $3, $4, $5, 1)`,
    [base, tenant, first, second, arrears],
  );
  await db.query(
    `insert into pms_meter (id, tenant_id, product_code, protocol, control_status, account_status, online_status,
                            charging_scheme_id, alarm_scheme_id)
     select g, $1, lpad(g::text, 12, '0'), 'dlt645-2007', 1, case when g <= $4 then 1 else 0 end, 1, $2, $2
       from generate_series($2::bigint, $3) g`,
    [tenant, base, last, lastPriced],
  );
  await db.query(
    `insert into pms_room (id, tenant_id, room_name, room_code)
     select g, $1, 'R' || g, 'R' || g from generate_series($2::bigint, $3) g`,
    [tenant, base, last],
  );
  await db.query(
    `insert into pms_room_meter (id, tenant_id, room_id, energy_type, meter_id)
     select g, $1, g, 1, g from generate_series($2::bigint, $3) g`,
    [tenant, base, last],
  );
  await db.query(
    `insert into pms_owner (id, tenant_id, owner_name, owner_code, balance)
     select g, $1, '业主' || g, 'O' || g, case when g <= $4 then $5::bigint / 100.0 else 0 end
       from generate_series($2::bigint, $3) g`,
    [tenant, base, last, lastPriced, deposit.toString()],
  );
  await db.query(
    `insert into pms_owner_room (id, tenant_id, owner_id, room_id)
     select g, $1, g, g from generate_series($2::bigint, $3) g`,
    [tenant, base, last],
  );
  await db.query(
    `insert into pms_account (id, tenant_id, owner_id, room_id, energy_type, meter_id, control_status,
                              charging_scheme_id, alarm_scheme_id, balance, register_total, priced_time)
     select g, $1, g, g, 1, g, 1, $2, $2, $4, 100000, $5 from generate_series($2::bigint, $3) g`,
    [tenant, base, lastPriced, deposit.toString(), options.pricedUpTo],
  );
  await db.query(
    `insert into pms_ledger (id, tenant_id, account_id, owner_id, entry_type, amount, balance_after, cause, creator)
     select g, $1, g, g, 1, $4, $4, '开户预存', 'test' from generate_series($2::bigint, $3) g`,
    [tenant, base, lastPriced, deposit.toString()],
  );
}
