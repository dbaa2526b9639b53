import assert from "node:assert/strict";
import { test } from "node:test";
import type { FormInstance } from "antd";
import { isValidationFailure, validatedValues } from "../src/crud/validated.ts";

/** A stand-in form whose validateFields answers as antd's does. */
const formThat = (answer: () => Promise<unknown>) => ({ validateFields: answer }) as unknown as FormInstance;

test("a form whose fields fail their rules yields null, not a rejection for the error log", async () => {
  const failure = {
    errorFields: [{ name: ["phone"], errors: ["手机号码长度不为11位"] }],
    values: {},
    outOfDate: false,
  };
  assert.equal(isValidationFailure(failure), true);
  assert.equal(await validatedValues(formThat(() => Promise.reject(failure))), null);
  assert.deepEqual(await validatedValues(formThat(() => Promise.resolve({ phone: "13800000000" }))), {
    phone: "13800000000",
  });
});

test("real errors are not mistaken for validation failures and still reach the caller", async () => {
  assert.equal(isValidationFailure(new Error("boom")), false);
  assert.equal(isValidationFailure({ message: "x" }), false);
  assert.equal(isValidationFailure(null), false);
  await assert.rejects(validatedValues(formThat(() => Promise.reject(new Error("boom")))), /boom/);
});
