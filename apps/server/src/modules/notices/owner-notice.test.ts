import assert from "node:assert/strict";
import { test } from "node:test";
import { endpointAllowed } from "../sms/sms-provider.ts";
import { retryDelaySeconds } from "./owner-notice.service.ts";

test("retries wait twice as long each time, up to the cap", () => {
  const backoff = { baseSeconds: 30, maxSeconds: 3600 };
  assert.deepEqual(
    [1, 2, 3, 4, 7, 8, 50].map((attempt) => retryDelaySeconds(attempt, backoff)),
    [30, 60, 120, 240, 1920, 3600, 3600],
  );
  assert.equal(retryDelaySeconds(0, backoff), 30);
});

test("in production a provider address must be https; elsewhere any address serves (local doubles)", () => {
  assert.equal(endpointAllowed("http://127.0.0.1:9000/", "production"), false);
  assert.equal(endpointAllowed("HTTPS://dysmsapi.aliyuncs.com/", "production"), true);
  assert.equal(endpointAllowed(undefined, "production"), true, "blank: the provider's public https address");
  assert.equal(endpointAllowed("", "production"), true);
  assert.equal(endpointAllowed("http://127.0.0.1:9000/", "development"), true);
  assert.equal(endpointAllowed("http://127.0.0.1:9000/", undefined), true);
});
