import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import { dataColumns } from "../src/crud/columns.tsx";
import { toFormValues, toSubmitBody } from "../src/crud/fields.ts";
import { rulesOf } from "../src/crud/rules.ts";
import { serverFieldError } from "../src/crud/server-field-error.ts";

test("an encrypted field keeps its stored value unless retyped", () => {
  const values = toFormValues(resources.wxConfig, { id: "9", appId: "wx1", apiKey: "****abcd" });
  assert.equal(values.apiKey, "****abcd", "the form shows the mask");
  assert.equal("apiKey" in toSubmitBody(resources.wxConfig, values), false, "the mask is not sent back");
  assert.equal("apiKey" in toSubmitBody(resources.wxConfig, { ...values, apiKey: "" }), false);
  assert.equal(toSubmitBody(resources.wxConfig, { ...values, apiKey: "new-key" }).apiKey, "new-key");
});

test("the pattern of an encrypted field accepts the mask", async () => {
  const rule = rulesOf(resources.meter.fields.relayPassword, "表计密码", (key) => key).find(
    (r) => typeof r === "object" && "validator" in r,
  ) as { validator: (r: unknown, v: unknown) => Promise<void> };
  const validate = (value: string) => rule.validator({}, value);
  await validate("****1A2B");
  await validate("12345678");
  await assert.rejects(validate("1234"));
});

test("an owner's phone of the wrong length is told so before its format (spec §5)", async () => {
  const rule = rulesOf(resources.owner.fields.phone, "手机号码", (key) => key).find(
    (r) => typeof r === "object" && "validator" in r,
  ) as { validator: (r: unknown, v: unknown) => Promise<void> };
  const validate = (value: string) => rule.validator({}, value);
  await assert.rejects(validate("1380013"), /info\.phoneLength/);
  await assert.rejects(validate("12800138000"), /crud\.pattern\.phone/);
  await validate("13800138000");
  await validate("");
});

test("fields a form hides are sent cleared", () => {
  const body = toSubmitBody(resources.chargingScheme, { id: "1", priceMode: "2", price: 0.5 }, [
    "price",
    "tipPrice",
  ]);
  assert.equal(body.price, null);
  assert.equal(body.tipPrice, null);
  assert.equal(body.priceMode, 2);
});

test("links depending on another field show the label the server joined in", () => {
  const column = dataColumns(resources.roomMeter, "zh").find((c) => c.key === "meterId") as {
    render: (v: unknown, row: Record<string, unknown>) => string;
  };
  assert.equal(
    column.render(undefined, { id: "1", meterId: "42", meterName: "000000000001" }),
    "000000000001",
  );
  assert.equal(toFormValues(resources.roomMeter, { id: "1", meterId: 42, energyType: 1 }).meterId, "42");
});

test("a refusal naming a field is put under that field", () => {
  const refusal = new ApiError("http", 400, "touPeriods: 相邻时段 08:00 与 11:00 费率相同,请合并");
  assert.deepEqual(serverFieldError(refusal, resources.chargingScheme.fields), {
    name: "touPeriods",
    reason: "相邻时段 08:00 与 11:00 费率相同,请合并",
  });
  assert.equal(serverFieldError(new ApiError("http", 400, "nope: x"), resources.chargingScheme.fields), null);
  assert.equal(
    serverFieldError(new ApiError("network", 0, "touPeriods: x"), resources.chargingScheme.fields),
    null,
  );
});
