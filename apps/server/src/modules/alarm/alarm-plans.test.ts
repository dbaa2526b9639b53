import assert from "node:assert/strict";
import { test } from "node:test";
import type { Queryable } from "../../db/client.ts";
import { preparedName } from "../../db/prepared.ts";
import { openRecords, silencedRules } from "./alarm.repository.ts";

/** Every statement a repository call sends, answered with no rows. */
function recording(): { db: Queryable; sent: string[] } {
  const sent: string[] = [];
  const db: Queryable = {
    query: async <T>(sql: string) => {
      sent.push(sql);
      return [] as T[];
    },
  };
  return { sent, db };
}

test("the open records and silences of a wave's meters are planned at each call, never from a kept plan", async () => {
  // A plan kept (prepared) from when a site's alarm tables were empty may probe each meter through
  // the tenant's time index and read every record of the tenant for every meter of every wave once
  // they grow (bench:fleet: polls an interval late at 15,000 open records); planned afresh, the
  // lookup sees the table as it is.
  const { db, sent } = recording();
  const wave = [
    { energyType: 1 as const, meterId: "1001" },
    { energyType: 2 as const, meterId: "2002" },
  ];
  await openRecords(db, "000000", wave);
  await silencedRules(db, "000000", new Date(), wave);
  assert.equal(sent.length, 2);
  assert.match(sent[0]!, /pms_check_record/);
  assert.match(sent[1]!, /pms_check_ignore/);
  for (const sql of sent) assert.equal(preparedName(sql), undefined, sql);
});
