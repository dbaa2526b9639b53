import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "./errors.ts";
import { idList, optionalId, paging, requiredString } from "./params.ts";

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error.message;
  }
  assert.fail("expected an ApiError");
};

test("CSV id lists parse and name the field when malformed", () => {
  assert.deepEqual(idList({ ids: "1, 2,3" }, "ids"), ["1", "2", "3"]);
  assert.equal(
    message(() => idList({ ids: "1,x" }, "ids")),
    "请求参数格式错误: ids",
  );
  assert.equal(
    message(() => idList({}, "ids")),
    "缺少必要的请求参数: ids",
  );
});

test("64-bit ids survive as strings", () => {
  assert.equal(optionalId({ id: "1234567890123456789" }, "id"), "1234567890123456789");
  assert.equal(optionalId({ id: 12 }, "id"), "12");
  assert.equal(optionalId({}, "id"), undefined);
  assert.equal(
    message(() => optionalId({ id: "1e3" }, "id")),
    "请求参数格式错误: id",
  );
});

test("ids beyond a signed 64-bit integer are format errors, not database faults", () => {
  assert.equal(optionalId({ id: "9223372036854775807" }, "id"), "9223372036854775807");
  assert.equal(
    message(() => optionalId({ id: "9999999999999999999" }, "id")),
    "请求参数格式错误: id",
  );
  assert.equal(
    message(() => idList({ ids: "1,9223372036854775808" }, "ids")),
    "请求参数格式错误: ids",
  );
});

test("paging defaults to page 1 of 10 and is bounded", () => {
  assert.deepEqual(paging({}), { current: 1, size: 10, offset: 0 });
  assert.deepEqual(paging({ current: "3", size: "30" }), { current: 3, size: 30, offset: 60 });
  assert.equal(
    message(() => paging({ size: "100000" })),
    "请求参数格式错误: size",
  );
  assert.equal(
    message(() => paging({ current: "0" })),
    "请求参数格式错误: current",
  );
  for (const current of ["1e300", "Infinity", "0x10", "1.5", "99999999999"]) {
    assert.equal(
      message(() => paging({ current })),
      "请求参数格式错误: current",
    );
  }
});

test("required strings name the missing parameter", () => {
  assert.equal(requiredString({ a: "x" }, "a"), "x");
  assert.equal(
    message(() => requiredString({ a: "" }, "a")),
    "缺少必要的请求参数: a",
  );
});
