/**
 * Alarm rule evaluation benchmark: a tenant of electric meters, each with an open account, a
 * current reading and its last two reads; a tenth of the accounts low, a fiftieth severely low, a
 * hundredth in arrears, a hundredth of the meters silent for hours, a hundredth with a register
 * that ran backwards. Measures the periodic pass over all of them (the first raises every alarm,
 * the second finds nothing new), then the extra cost per reading of evaluating one meter as its
 * reading arrives (what the readings sink adds to each poll).
 *   tsx bench/alarms.ts [--meters 100000] [--samples 2000] [--database postgres|pglite]
 */
import { evaluateAll, evaluateTenant } from "../apps/server/src/modules/alarm/alarm.service.ts";
import {
  count,
  type DatabaseKind,
  fail,
  freshDatabase,
  line,
  machine,
  percentile,
  settings,
  timed,
} from "./money-common.ts";

const options = settings({ meters: "100000", samples: "2000", database: "postgres" });
const METERS = count(options.meters, "meters");
const SAMPLES = Math.min(count(options.samples, "samples"), METERS);
const KIND = options.database as DatabaseKind;
if (KIND !== "postgres" && KIND !== "pglite") throw new Error("database: postgres or pglite");
const TENANT = "000000";
const NOW = new Date("2026-06-10T12:00:00+08:00");

async function main() {
  console.log(machine());
  const bench = await freshDatabase(KIND);
  try {
    console.log(`database: ${bench.where}`);
    const { db } = bench;
    const fill = await timed(async () => {
      await db.query(
        `insert into pms_meter (id, tenant_id, product_code, protocol)
         select i, $1, lpad(i::text, 12, '0'), 'dlt645_2007' from generate_series(1, $2) i`,
        [TENANT, METERS],
      );
      await db.query(
        `insert into pms_account (id, tenant_id, owner_id, energy_type, meter_id, control_status, balance, alarm_level)
         select i, $1, i, 1, i, 1, 10000,
                case when i % 100 = 3 then 3 when i % 50 = 2 then 2 when i % 10 = 1 then 1 else 0 end
           from generate_series(1, $2) i`,
        [TENANT, METERS],
      );
      await db.query(
        `insert into pms_meter_current_data (id, tenant_id, energy_type, meter_id, product_code, read_time, total_value)
         select i, $1, 1, i, lpad(i::text, 12, '0'),
                $3::timestamptz - case when i % 100 = 5 then interval '5 hours' else interval '10 minutes' end, 1000
           from generate_series(1, $2) i`,
        [TENANT, METERS, NOW],
      );
      await db.query(
        `insert into pms_data_read (id, tenant_id, meter_id, product_code, read_time, total_value)
         select i * 2 + k, $1, i, lpad(i::text, 12, '0'),
                $3::timestamptz - case when k = 0 then interval '25 minutes' else interval '10 minutes' end,
                case when k = 1 and i % 100 = 7 then 999 else 1000 + k end
           from generate_series(1, $2) i, generate_series(0, 1) k`,
        [TENANT, METERS, NOW],
      );
      await db.query("analyze");
    });
    line(`fill ${METERS} meters, accounts, current data, 2 reads each`, fill.ms, METERS);

    const first = await timed(() => evaluateAll(db, NOW));
    line(`first pass (raises ${first.value.raised})`, first.ms, METERS);
    const expected = Math.floor(METERS / 10) + Math.floor(METERS / 50) + Math.floor(METERS / 100) * 3;
    if (Math.abs(first.value.raised - expected) > METERS / 100 + 5)
      fail(`raised ${first.value.raised}, expected about ${expected}`);
    const second = await timed(() => evaluateAll(db, NOW));
    line(`quiet pass (raises ${second.value.raised}, restores ${second.value.restored})`, second.ms, METERS);
    if (second.value.raised !== 0 || second.value.restored !== 0) fail("a second pass changed records");

    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const meterId = String(1 + Math.floor((i * METERS) / SAMPLES));
      const one = await timed(() => evaluateTenant(db, TENANT, NOW, { energyType: 1, meterId }));
      samples.push(one.ms);
    }
    samples.sort((a, b) => a - b);
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    console.log(
      `per reading (one meter evaluated, ${SAMPLES} samples): mean ${mean.toFixed(2)} ms, p50 ${percentile(samples, 0.5).toFixed(2)} ms, p95 ${percentile(samples, 0.95).toFixed(2)} ms`,
    );
  } finally {
    await bench.drop();
  }
}

await main();
