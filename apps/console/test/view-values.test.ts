import assert from "node:assert/strict";
import { test } from "node:test";
import { resources } from "@meterline/contracts";
import { decimalText, EMPTY_VALUE, plainText, viewFields, viewText } from "../src/crud/view-values.ts";

test("money keeps two places and prices their four, on the text so no digit is lost", () => {
  assert.equal(decimalText("5", 2), "5.00");
  assert.equal(decimalText("5.0000", 2), "5.00");
  assert.equal(decimalText("-12.5", 2), "-12.50");
  assert.equal(decimalText("0.48830", 4), "0.4883");
  assert.equal(decimalText("1.005", 2), "1.01", "extra places round half away from zero, exactly");
  assert.equal(decimalText("-0.994", 2), "-0.99");
  assert.equal(decimalText("-0.001", 2), "0.00");
  assert.equal(decimalText("9.999", 2), "10.00");
  assert.equal(decimalText("2.5", 0), "3");
  assert.equal(decimalText("12345678901234567.10", 2), "12345678901234567.10");
  assert.equal(decimalText("7", 0), "7");
  assert.equal(decimalText("n/a", 2), "n/a");
});

test("a view shows labels as the table does: dictionaries in the user's language, links by name", () => {
  const { user, room } = resources;
  const row = {
    sex: 1,
    sexName: "男",
    sexNameEn: "Male",
    roleId: "1,2",
    roleName: "管理员,值班员",
    birthday: "1990-05-06",
    phone: "",
    email: null,
  };
  assert.equal(viewText(row, "sex", user.fields.sex!, "zh"), "男");
  assert.equal(viewText(row, "sex", user.fields.sex!, "en"), "Male");
  assert.equal(viewText({ sex: 2 }, "sex", user.fields.sex!, "zh"), "2", "an unknown key shows as stored");
  assert.equal(viewText(row, "roleId", user.fields.roleId!, "zh"), "管理员, 值班员");
  assert.equal(viewText(row, "birthday", user.fields.birthday!, "zh"), "1990-05-06");
  assert.equal(viewText(row, "phone", user.fields.phone!, "zh"), EMPTY_VALUE);
  assert.equal(viewText(row, "email", user.fields.email!, "zh"), EMPTY_VALUE);
  // A room's area link comes with its label; a room is named with its building by the engine.
  const areaId = room.fields.areaId!;
  assert.equal(viewText({ areaId: "9", areaName: "2号楼" }, "areaId", areaId, "zh"), "2号楼");
  assert.equal(viewText({ areaId: "0", areaName: "" }, "areaId", areaId, "zh"), EMPTY_VALUE);
});

test("money fields of a scheme read with two places, prices with four", () => {
  const { chargingScheme } = resources;
  const row = { monthlyFee: "5.0000", price: "0.5" };
  assert.equal(viewText(row, "monthlyFee", chargingScheme.fields.monthlyFee!, "zh"), "5.00");
  assert.equal(viewText(row, "price", chargingScheme.fields.price!, "zh"), "0.5000");
});

test("rich text is read as plain text with its line breaks", () => {
  assert.equal(plainText("<p>停电&nbsp;通知</p><p>明日 <b>8:00</b></p>"), "停电 通知\n明日 8:00");
});

test("a view lists the form's and the table's fields, never a secret", () => {
  const { user, owner } = resources;
  const userFields = viewFields(user).map(([name]) => name);
  assert.ok(userFields.includes("avatar") && userFields.includes("roleId"));
  assert.equal(userFields.includes("password"), false, "secret");
  assert.equal(userFields.includes("userExt"), false, "neither in the form nor in the table");
  assert.ok(
    viewFields(owner).some(([name]) => name === "balance"),
    "read-only balance is shown",
  );
});
