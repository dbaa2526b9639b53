import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  authorization,
  decryptResource,
  encryptResource,
  jsapiPayParams,
  parseAuthorization,
  signAnswer,
  signedMessage,
  verifyAnswer,
  verifyAuthorization,
  verifyPaySign,
  wechatpayHeaders,
} from "./wxpay-protocol.ts";

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
};
const merchant = pair();
const platform = pair();
const stranger = pair();
const creds = {
  mchid: "1900000109",
  serialNo: "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
  privateKey: merchant.privateKey,
};
const API_V3_KEY = "0123456789abcdefghijklmnopqrstuv";
const NOW = 1_700_000_000;
// Few runs: each one signs with RSA-2048.
const runs = { numRuns: 40 };
const methods = fc.constantFrom("GET", "POST", "get", "post");
const urls = fc.string({ maxLength: 80 }).map((tail) => `/v3/pay/transactions/${encodeURIComponent(tail)}`);

describe("WeChat Pay v3 request signing", () => {
  test("the signed text is each part followed by a line feed", () => {
    assert.equal(
      signedMessage("GET", "/v3/certificates", "1554208460", "593BEC0C930BF1AFEB40B4A08C8FB242", ""),
      "GET\n/v3/certificates\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n\n",
    );
  });

  test("the Authorization header names scheme, merchant, nonce, timestamp and serial", () => {
    const header = authorization(creds, {
      method: "GET",
      url: "/v3/certificates",
      body: "",
      timestamp: 1554208460,
      nonce: "593BEC0C930BF1AFEB40B4A08C8FB242",
    });
    assert.match(
      header,
      /^WECHATPAY2-SHA256-RSA2048 mchid="1900000109",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="[A-Za-z0-9+/=]{344}",timestamp="1554208460",serial_no="5157F09EFDC096DE15EBE81A47057A7232F1B8E1"$/,
    );
    const fields = parseAuthorization(header);
    assert.equal(fields?.timestamp, "1554208460");
  });

  test("any request verifies with the merchant's public key, and only as sent", () => {
    fc.assert(
      fc.property(
        methods,
        urls,
        fc.string({ maxLength: 200 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        (method, url, body, extra) => {
          const header = authorization(creds, { method, url, body, timestamp: NOW });
          assert.ok(verifyAuthorization(header, { method, url, body }, merchant.publicKey, NOW));
          assert.equal(
            verifyAuthorization(header, { method, url, body: body + extra }, merchant.publicKey, NOW),
            undefined,
          );
          assert.equal(
            verifyAuthorization(header, { method, url: url + extra, body }, merchant.publicKey, NOW),
            undefined,
          );
          assert.equal(
            verifyAuthorization(header, { method, url, body }, stranger.publicKey, NOW),
            undefined,
          );
        },
      ),
      runs,
    );
  });

  test("a request older or newer than five minutes is refused", () => {
    const header = authorization(creds, { method: "POST", url: "/v3/x", body: "{}", timestamp: NOW });
    assert.ok(
      verifyAuthorization(
        header,
        { method: "POST", url: "/v3/x", body: "{}" },
        merchant.publicKey,
        NOW + 300,
      ),
    );
    assert.equal(
      verifyAuthorization(
        header,
        { method: "POST", url: "/v3/x", body: "{}" },
        merchant.publicKey,
        NOW + 301,
      ),
      undefined,
    );
    assert.equal(
      verifyAuthorization(
        header,
        { method: "POST", url: "/v3/x", body: "{}" },
        merchant.publicKey,
        NOW - 301,
      ),
      undefined,
    );
  });

  test("malformed Authorization headers are not read", () => {
    for (const bad of [
      undefined,
      "",
      "Bearer x",
      'WECHATPAY2-SHA256-RSA2048 mchid="1"',
      'WECHATPAY2-SHA256-RSA2048mchid="1",nonce_str="a",signature="s",timestamp="1",serial_no="s"',
    ])
      assert.equal(parseAuthorization(bad), undefined, String(bad));
    fc.assert(
      fc.property(fc.string(), (text) => {
        parseAuthorization(text);
      }),
    );
  });
});

describe("WeChat Pay v3 answers and notifications", () => {
  const platformKeys = { serial: "PUB_KEY_ID_0114232134912410000000000000", privateKey: platform.privateKey };
  const check = { serial: platformKeys.serial, publicKey: platform.publicKey };
  const lower = (headers: Record<string, string>) =>
    wechatpayHeaders(Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])));

  test("a signed body verifies; any change of body, signature, nonce or timestamp does not", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 10 }),
        (body, extra) => {
          const headers = lower(signAnswer(body, platformKeys, { timestamp: NOW }));
          assert.deepEqual(verifyAnswer(headers, body, check, NOW), { ok: true });
          assert.deepEqual(verifyAnswer(headers, body + extra, check, NOW), {
            ok: false,
            reason: "signature",
          });
          assert.deepEqual(verifyAnswer({ ...headers, nonce: headers.nonce + extra }, body, check, NOW), {
            ok: false,
            reason: "signature",
          });
          assert.deepEqual(verifyAnswer({ ...headers, timestamp: String(NOW - 1) }, body, check, NOW), {
            ok: false,
            reason: "signature",
          });
        },
      ),
      runs,
    );
  });

  test("the serial must be the configured platform key's, and the key must be the platform's", () => {
    const headers = lower(signAnswer("{}", platformKeys, { timestamp: NOW }));
    assert.deepEqual(verifyAnswer({ ...headers, serial: "OTHER" }, "{}", check, NOW), {
      ok: false,
      reason: "serial",
    });
    assert.deepEqual(verifyAnswer({ ...headers, serial: "" }, "{}", { ...check, serial: "" }, NOW), {
      ok: false,
      reason: "serial",
    });
    const forged = lower(
      signAnswer("{}", { ...platformKeys, privateKey: stranger.privateKey }, { timestamp: NOW }),
    );
    assert.deepEqual(verifyAnswer(forged, "{}", check, NOW), { ok: false, reason: "signature" });
  });

  test("timestamps are fresh for five minutes either way, and numbers only", () => {
    const headers = lower(signAnswer("{}", platformKeys, { timestamp: NOW }));
    assert.deepEqual(verifyAnswer(headers, "{}", check, NOW + 300), { ok: true });
    assert.deepEqual(verifyAnswer(headers, "{}", check, NOW - 300), { ok: true });
    assert.deepEqual(verifyAnswer(headers, "{}", check, NOW + 301), { ok: false, reason: "stale" });
    assert.deepEqual(verifyAnswer({ ...headers, timestamp: "1e9" }, "{}", check, NOW), {
      ok: false,
      reason: "stale",
    });
    assert.deepEqual(verifyAnswer({ ...headers, timestamp: "" }, "{}", check, NOW), {
      ok: false,
      reason: "stale",
    });
  });
});

describe("AEAD_AES_256_GCM resources", () => {
  test("what is encrypted decrypts with the same key and associated data, and only so", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 500 }),
        fc.string({ maxLength: 20 }),
        fc.string({ minLength: 1, maxLength: 5 }),
        (plain, ad, extra) => {
          const resource = encryptResource(plain, API_V3_KEY, ad);
          assert.equal(decryptResource(resource, API_V3_KEY), plain);
          assert.equal(decryptResource({ ...resource, associated_data: ad + extra }, API_V3_KEY), undefined);
          assert.equal(decryptResource(resource, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"), undefined);
          assert.equal(decryptResource({ ...resource, nonce: `${resource.nonce}x` }, API_V3_KEY), undefined);
        },
      ),
    );
  });

  test("any flipped bit of ciphertext or tag is refused", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 100 }),
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        (plain, at, bit) => {
          const resource = encryptResource(plain, API_V3_KEY, "transaction");
          const bytes = Buffer.from(resource.ciphertext, "base64");
          const index = at % bytes.length;
          bytes[index] = (bytes[index] as number) ^ (1 << bit);
          assert.equal(
            decryptResource({ ...resource, ciphertext: bytes.toString("base64") }, API_V3_KEY),
            undefined,
          );
        },
      ),
    );
  });

  test("a fixed key, nonce and associated data give the same ciphertext (the layout is bytes then tag)", () => {
    const resource = encryptResource("{}", API_V3_KEY, "transaction", "fdasflkja484");
    const bytes = Buffer.from(resource.ciphertext, "base64");
    assert.equal(bytes.length, 2 + 16);
    assert.deepEqual(encryptResource("{}", API_V3_KEY, "transaction", "fdasflkja484"), resource);
    assert.equal(decryptResource({ ...resource, ciphertext: "AAAA" }, API_V3_KEY), undefined);
    assert.equal(
      decryptResource({ ...resource, algorithm: "AES" as "AEAD_AES_256_GCM" }, API_V3_KEY),
      undefined,
    );
    assert.throws(() => encryptResource("{}", "short", ""), /32 bytes/);
  });
});

describe("JSAPI pay-sign", () => {
  test("signs appId, timeStamp, nonceStr and package, verifiable with the merchant key", () => {
    const params = jsapiPayParams(
      "wxd678efh567hg6787",
      "wx201410272009395522657a690389285100",
      merchant.privateKey,
      { timestamp: 1414561699, nonce: "5K8264ILTKCH16CQ2502SI8ZNMTM67VS" },
    );
    assert.equal(params.package, "prepay_id=wx201410272009395522657a690389285100");
    assert.equal(params.signType, "RSA");
    assert.equal(params.timeStamp, "1414561699");
    assert.ok(verifyPaySign(params, merchant.publicKey));
    assert.equal(verifyPaySign({ ...params, package: "prepay_id=other" }, merchant.publicKey), false);
    assert.equal(verifyPaySign(params, stranger.publicKey), false);
  });
});
