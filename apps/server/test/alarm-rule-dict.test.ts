import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ALARM_RULE_CODES, ALARM_RULE_NAMES } from "@meterline/contracts";
import { startTestServer, type TestServer } from "./helpers.ts";

describe("the alarm_rule dictionary", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test("names every rule the server runs, in the order and with the names of the contracts", async () => {
    const rows = await server.db.query<{ dict_key: string; dict_value: string; dict_value_en: string }>(
      `select dict_key, dict_value, dict_value_en from sys_dict
        where code = 'alarm_rule' and parent_id <> 0 and is_deleted = 0 order by sort`,
    );
    // After the rules, what an owner message may be about that no rule raises: the operator's
    // balance reminder (待关注账户). The alarm rule form refuses it (alarm-rule.hooks.ts).
    assert.deepEqual(
      rows.map((r) => r.dict_key),
      [...ALARM_RULE_CODES, "reminder"],
    );
    for (const row of rows.filter((r) => r.dict_key !== "reminder")) {
      const names = ALARM_RULE_NAMES[row.dict_key as keyof typeof ALARM_RULE_NAMES];
      assert.deepEqual([row.dict_value, row.dict_value_en], [names.zh, names.en], row.dict_key);
    }
  });
});
