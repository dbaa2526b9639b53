import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  canTransition,
  IllegalTransition,
  isFinal,
  mayRetry,
  msgResult,
  transition,
} from "@meterline/gateway";

describe("command lifecycle", () => {
  test("the allowed paths: queued → sent → success | fail | timeout, timeout → success | fail", () => {
    assert.equal(transition("queued", "sent"), "sent");
    for (const end of ["success", "fail", "timeout"] as const) assert.equal(transition("sent", end), end);
    assert.equal(transition("timeout", "success"), "success");
    assert.equal(transition("timeout", "fail"), "fail");
    assert.equal(transition("queued", "fail"), "fail", "rejected before sending (expired, unsupported)");
  });

  test("everything else is refused", () => {
    const refused = [
      ["queued", "success"],
      ["queued", "timeout"],
      ["sent", "queued"],
      ["sent", "sent"],
      ["success", "fail"],
      ["fail", "success"],
      ["timeout", "timeout"],
      ["timeout", "sent"],
    ] as const;
    for (const [from, to] of refused) {
      assert.equal(canTransition(from, to), false, `${from} → ${to}`);
      assert.throws(() => transition(from, to), IllegalTransition);
    }
  });

  test("MSG_RESULT codes and final states", () => {
    assert.equal(msgResult("success"), 1);
    assert.equal(msgResult("fail"), 0);
    assert.equal(msgResult("timeout"), 2);
    assert.equal(msgResult("sent"), null);
    assert.equal(isFinal("success"), true);
    assert.equal(isFinal("timeout"), false, "a timeout may still be confirmed");
  });

  test("only reads may be retried", () => {
    assert.equal(mayRetry({ kind: "read", di: "00010000" }), true);
    assert.equal(mayRetry({ kind: "relay", action: "trip" }), false);
    assert.equal(mayRetry({ kind: "valve", action: "close" }), false);
    assert.equal(mayRetry({ kind: "recharge", amount: "10.00", purchaseCount: 3 }), false);
    assert.equal(mayRetry({ kind: "write", di: "04001001", value: "5.00" }), false);
  });
});
