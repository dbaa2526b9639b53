import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { ApiError } from "../../contract/errors.ts";
import { MAX_PHONES, phoneProblem, readPhones, readTemplateParams } from "./phone.ts";

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    return error.message;
  }
  assert.fail("expected a 400");
};

describe("phone rules of spec §5", () => {
  test("empty, then length, then format, in the helper's words", () => {
    assert.equal(phoneProblem(""), "手机号码不能为空");
    assert.equal(phoneProblem("1380013800"), "手机号码长度不为11位");
    assert.equal(phoneProblem("138001380001"), "手机号码长度不为11位");
    assert.equal(phoneProblem("12800138000"), "手机号码格式不正确");
    assert.equal(phoneProblem("1380013800x"), "手机号码格式不正确");
    assert.equal(phoneProblem("13800138000"), undefined);
    assert.equal(phoneProblem("19912345678"), undefined);
  });

  test("every 11-digit number from 13 to 19 passes; any other length fails on length", () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 9 }), fc.stringMatching(/^\d{9}$/), (second, rest) => {
        assert.equal(phoneProblem(`1${second}${rest}`), undefined);
      }),
    );
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.length !== 11),
        (text) => {
          assert.equal(phoneProblem(text), "手机号码长度不为11位");
        },
      ),
    );
  });

  test("a list names the field, trims, drops repeats and is bounded", () => {
    assert.deepEqual(readPhones(" 13800138000, 13900139000 ,13800138000"), ["13800138000", "13900139000"]);
    assert.deepEqual(readPhones(["13800138000"]), ["13800138000"]);
    assert.equal(
      refusal(() => readPhones(undefined)),
      "phones: 手机号码不能为空",
    );
    assert.equal(
      refusal(() => readPhones("13800138000,")),
      "phones: 手机号码不能为空",
    );
    assert.match(
      refusal(() => readPhones("13800138000,2380013800")),
      /^phones: 手机号码长度不为11位/,
    );
    const many = Array.from({ length: MAX_PHONES + 1 }, (_, i) => `138${String(i).padStart(8, "0")}`);
    assert.match(
      refusal(() => readPhones(many.join(","))),
      /^phones: 一次最多/,
    );
  });

  test("template values: a JSON object of strings or numbers, as text or as an object", () => {
    assert.deepEqual(readTemplateParams('{"code":"1234","amount":12.5}'), { code: "1234", amount: "12.5" });
    assert.deepEqual(readTemplateParams({ name: "张三" }), { name: "张三" });
    assert.deepEqual(readTemplateParams(""), {});
    assert.match(
      refusal(() => readTemplateParams("[1,2]")),
      /^params:/,
    );
    assert.match(
      refusal(() => readTemplateParams("{oops")),
      /^params:/,
    );
    assert.match(
      refusal(() => readTemplateParams('{"a":{"b":1}}')),
      /^params: a /,
    );
  });
});
