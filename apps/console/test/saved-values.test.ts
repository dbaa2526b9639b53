import assert from "node:assert/strict";
import { test } from "node:test";
import { type FieldDef, resources } from "@meterline/contracts";
import { toFormValues, toSubmitBody } from "../src/crud/fields.ts";
import { rulesOf } from "../src/crud/rules.ts";
import { type Translate, translate } from "../src/i18n/index.tsx";

const zh: Translate = (key, vars) => translate("zh", key, vars);

/** What the field's rules say of a value: null when every rule passes, else the first message. */
async function problem(field: FieldDef, label: string, value: unknown): Promise<string | null> {
  for (const rule of rulesOf(field, label, zh)) {
    const validator = typeof rule === "object" ? rule.validator : undefined;
    if (!validator) continue;
    try {
      await validator({}, value, () => undefined);
    } catch (error) {
      return (error as Error).message;
    }
  }
  return null;
}

test("a saved decimal goes into the form as the server's text and comes back exactly", () => {
  const row = { id: "9", areaId: "3", roomName: "101", roomType: 1, floorArea: "55.00" };
  const values = toFormValues(resources.room, row);
  assert.equal(values.floorArea, "55.00");
  assert.equal(toSubmitBody(resources.room, values).floorArea, "55.00");
  // Money past a float's exact digits stays as typed.
  const money = toSubmitBody(resources.alarmScheme, { firstAlarm: "999999.99", secondAlarm: "0.10" });
  assert.deepEqual([money.firstAlarm, money.secondAlarm], ["999999.99", "0.10"]);
});

test("range rules take a decimal's text as well as a number, and keep their bounds", async () => {
  const { floorArea } = resources.room.fields;
  for (const value of ["55.00", 55, "0", "1000000.00", "", null, undefined])
    assert.equal(await problem(floorArea, "面积(㎡)", value), null, String(value));
  for (const value of ["1000000.01", "-0.01", -1, "1e3", "abc"])
    assert.equal(
      await problem(floorArea, "面积(㎡)", value),
      "面积(㎡)必须在 0 到 1000000 之间",
      String(value),
    );
  const { ctRatio } = resources.meter.fields;
  assert.equal(await problem(ctRatio, "CT变比", 40), null);
  assert.equal(await problem(ctRatio, "CT变比", 0), "CT变比必须在 1 到 10000 之间");
});

test("a bound on one side only is worded as such, not against the largest safe integer", async () => {
  const { totalValue } = resources.meterOrigValue.fields;
  assert.equal(await problem(totalValue, "总示数", "123456789012.34"), null);
  assert.equal(await problem(totalValue, "总示数", "-1.00"), "总示数不能小于 0");
  const atMost: FieldDef = { type: "int", max: 9 };
  assert.equal(await problem(atMost, "档位", 10), "档位不能大于 9");
});
