import assert from "node:assert/strict";
import { test } from "node:test";
import { redactUrl } from "./redact.ts";

test("credentials in a query string are masked, other parameters kept", () => {
  assert.equal(
    redactUrl(
      "/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=2123abc&grant_type=password",
    ),
    "/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=***&grant_type=password",
  );
  assert.equal(
    redactUrl("/x?refresh_token=a.b.c&Blade-Auth=tok&size=10"),
    "/x?refresh_token=***&Blade-Auth=***&size=10",
  );
  assert.equal(
    redactUrl("/x?oldPassword=1&newPassword=2&newPassword1=3"),
    "/x?oldPassword=***&newPassword=***&newPassword1=***",
  );
  assert.equal(
    redactUrl("/api/blade-pms/iot/push/iotda/100001?token=1lauo-cmld57K&x=1"),
    "/api/blade-pms/iot/push/iotda/100001?token=***&x=1",
  );
  assert.equal(redactUrl("/x?id=5"), "/x?id=5");
});
