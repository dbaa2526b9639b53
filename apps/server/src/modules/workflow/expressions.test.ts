// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template literals
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { ExpressionError, evaluate, holds, isExpression } from "./expressions.ts";

describe("workflow expressions", () => {
  it("reads the conditions Flowable models write", () => {
    assert.equal(holds("${days > 3}", { days: 5 }), true);
    assert.equal(holds("${days > 3}", { days: "3" }), false);
    assert.equal(holds("${pass}", { pass: true }), true);
    assert.equal(holds("${!pass}", { pass: true }), false);
    assert.equal(holds("${!pass}", {}), true);
    assert.equal(holds("${type == 'sick' && days <= 2}", { type: "sick", days: 2 }), true);
    assert.equal(holds("${type eq 'sick' or days gt 10}", { type: "annual", days: 11 }), true);
    assert.equal(holds("${(a || b) && !c}", { a: false, b: true, c: false }), true);
    assert.equal(holds("${environment.variables.days >= 4}", { days: 4 }), true);
  });

  it("gives a variable's value and leaves plain text alone", () => {
    assert.equal(evaluate("${taskUser}", { taskUser: "taskUser_12" }), "taskUser_12");
    assert.equal(evaluate("hr", {}), "hr");
    assert.equal(isExpression("${x}"), true);
    assert.equal(isExpression("x"), false);
  });

  it("refuses what it cannot read instead of guessing", () => {
    for (const bad of ["${days >> 3}", "${(a}", "${a b}", "${'open}", "${}", "${a ; b}"]) {
      assert.throws(() => evaluate(bad, {}), ExpressionError, bad);
    }
  });

  it("compares numbers given as text as numbers, both ways round", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (a, b) => {
        assert.equal(holds("${a > b}", { a: String(a), b }), a > b);
        assert.equal(holds("${a <= b}", { a, b: String(b) }), a <= b);
        assert.equal(holds("${a == b}", { a, b }), a === b);
        assert.equal(holds("${a != b}", { a, b }), a !== b);
      }),
    );
  });

  it("never reaches beyond the variables it is given", () => {
    assert.equal(evaluate("${constructor}", {}), undefined);
    assert.equal(evaluate("${toString}", {}), undefined);
  });
});
