import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "@meterline/api-client";
import { asksForCaptcha } from "../src/pages/login/captcha-request.ts";

test("the login page switches its captcha on only when the token endpoint asks for one", () => {
  const body = (error: string) => ({ error, error_description: "…" });
  assert.equal(asksForCaptcha(new ApiError("http", 400, "…", body("captcha_required"))), true);
  assert.equal(asksForCaptcha(new ApiError("http", 400, "…", body("invalid_grant"))), false);
  assert.equal(asksForCaptcha(new ApiError("network", 0, "fetch failed")), false);
  assert.equal(asksForCaptcha(new Error("captcha_required")), false);
});
