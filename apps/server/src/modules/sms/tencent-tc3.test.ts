import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  canonicalRequest,
  credentialScope,
  type Tc3Request,
  tc3Authorization,
  tc3Signature,
  tc3StringToSign,
} from "./tencent-tc3.ts";

// The example of Tencent Cloud's "Signature v3" page: CVM DescribeInstances, with its placeholder keys.
const example: Tc3Request = {
  service: "cvm",
  host: "cvm.tencentcloudapi.com",
  timestamp: 1551113065,
  payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
};
const secretId = "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE";
const secretKey = "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE";

describe("Tencent Cloud TC3-HMAC-SHA256", () => {
  // The payload's hash is sha256sum of the literal payload; the final signature below is the page's.
  test("builds the canonical request, scope and string to sign of the documented example", () => {
    assert.equal(
      canonicalRequest(example),
      "POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064",
    );
    assert.equal(credentialScope(example.timestamp, "cvm"), "2019-02-25/cvm/tc3_request");
    assert.equal(
      tc3StringToSign(example),
      "TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031",
    );
  });

  test("reproduces the documented Authorization header", () => {
    assert.equal(
      tc3Authorization(example, secretId, secretKey),
      "TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168",
    );
  });

  test("the credential date is the UTC date, also just before and after midnight", () => {
    assert.equal(credentialScope(1551139199, "sms"), "2019-02-25/sms/tc3_request");
    assert.equal(credentialScope(1551139200, "sms"), "2019-02-26/sms/tc3_request");
  });

  const request = fc.record({
    service: fc.constantFrom("sms", "cvm"),
    host: fc.constantFrom("sms.tencentcloudapi.com", "127.0.0.1:9000"),
    timestamp: fc.integer({ min: 1_500_000_000, max: 2_000_000_000 }),
    payload: fc.string({ unit: "grapheme", maxLength: 60 }),
  });

  test("any change to the payload, time, host, service or key changes the signature", () => {
    fc.assert(
      fc.property(request, fc.string({ unit: "grapheme", maxLength: 60 }), (base, payload) => {
        fc.pre(payload !== base.payload);
        const signed = tc3Signature(base, "key");
        assert.notEqual(tc3Signature({ ...base, payload }, "key"), signed);
        assert.notEqual(tc3Signature({ ...base, timestamp: base.timestamp + 1 }, "key"), signed);
        assert.notEqual(tc3Signature({ ...base, host: `x${base.host}` }, "key"), signed);
        assert.notEqual(tc3Signature({ ...base, service: `${base.service}x` }, "key"), signed);
        assert.notEqual(tc3Signature(base, "key2"), signed);
      }),
    );
  });

  test("the signature is 64 hex digits and deterministic", () => {
    fc.assert(
      fc.property(request, (base) => {
        const signed = tc3Signature(base, "k");
        assert.match(signed, /^[0-9a-f]{64}$/);
        assert.equal(tc3Signature({ ...base }, "k"), signed);
      }),
    );
  });
});
