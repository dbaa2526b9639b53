import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import fc from "fast-check";
import { aliyunSignature, canonicalQuery, percentEncode, stringToSign } from "./aliyun-signature.ts";

// The example of Aliyun's "RPC signature" page (ECS DescribeRegions).
const rpcExample = {
  AccessKeyId: "testid",
  Action: "DescribeRegions",
  Format: "XML",
  SignatureMethod: "HMAC-SHA1",
  SignatureNonce: "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
  SignatureVersion: "1.0",
  Timestamp: "2016-02-23T12:46:24Z",
  Version: "2014-05-26",
};

// The example of Aliyun's SMS API signature page (SendSms with a Chinese sign name).
const smsExample = {
  AccessKeyId: "testId",
  Action: "SendSms",
  Format: "XML",
  OutId: "123",
  PhoneNumbers: "15300000001",
  RegionId: "cn-hangzhou",
  SignName: "阿里云短信测试专用",
  SignatureMethod: "HMAC-SHA1",
  SignatureNonce: "45e25e9b-0a6f-4070-8c85-2956eda1b466",
  SignatureVersion: "1.0",
  TemplateCode: "SMS_71390007",
  TemplateParam: '{"customer":"test"}',
  Timestamp: "2017-07-12T02:42:19Z",
  Version: "2017-05-25",
};

describe("Aliyun RPC signature", () => {
  test("reproduces the RPC signature page's string to sign and signature", () => {
    assert.equal(
      stringToSign("GET", rpcExample),
      "GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0%26Timestamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26",
    );
    assert.equal(aliyunSignature("GET", rpcExample, "testsecret"), "OLeaidS1JvxuMvnyHOwuJ+uX5qY=");
  });

  test("reproduces the SMS page's SendSms example, UTF-8 sign name included", () => {
    assert.equal(
      canonicalQuery(smsExample),
      "AccessKeyId=testId&Action=SendSms&Format=XML&OutId=123&PhoneNumbers=15300000001&RegionId=cn-hangzhou&SignName=%E9%98%BF%E9%87%8C%E4%BA%91%E7%9F%AD%E4%BF%A1%E6%B5%8B%E8%AF%95%E4%B8%93%E7%94%A8&SignatureMethod=HMAC-SHA1&SignatureNonce=45e25e9b-0a6f-4070-8c85-2956eda1b466&SignatureVersion=1.0&TemplateCode=SMS_71390007&TemplateParam=%7B%22customer%22%3A%22test%22%7D&Timestamp=2017-07-12T02%3A42%3A19Z&Version=2017-05-25",
    );
    assert.equal(aliyunSignature("GET", smsExample, "testSecret"), "zJDF+Lrzhj/ThnlvIToysFRq6t4=");
  });

  test("POST differs from GET only in the verb that opens the string to sign", () => {
    const post = stringToSign("POST", smsExample);
    assert.equal(post, `POST${stringToSign("GET", smsExample).slice(3)}`);
    assert.notEqual(aliyunSignature("POST", smsExample, "testSecret"), "zJDF+Lrzhj/ThnlvIToysFRq6t4=");
  });

  test("a Signature parameter already present is left out of what is signed", () => {
    assert.equal(
      aliyunSignature("GET", { ...rpcExample, Signature: "anything" }, "testsecret"),
      "OLeaidS1JvxuMvnyHOwuJ+uX5qY=",
    );
  });

  test("percent-encoding follows Aliyun's rules, not the form encoding", () => {
    assert.equal(percentEncode("a b"), "a%20b");
    assert.equal(percentEncode("*"), "%2A");
    assert.equal(percentEncode("~-_."), "~-_.");
    assert.equal(percentEncode("!'()"), "%21%27%28%29");
    assert.equal(percentEncode("/=&+:"), "%2F%3D%26%2B%3A");
    assert.equal(percentEncode("派"), "%E6%B4%BE");
  });

  const params = fc.dictionary(
    fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,11}$/),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    { minKeys: 1, maxKeys: 8 },
  );

  test("encoding only ever emits unreserved characters and %XX, and decodes back", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (value) => {
        const encoded = percentEncode(value);
        assert.match(encoded, /^(?:[A-Za-z0-9\-_.~]|%[0-9A-F]{2})*$/);
        assert.equal(decodeURIComponent(encoded), value);
      }),
    );
  });

  test("any change to one parameter's value changes the signature", () => {
    fc.assert(
      fc.property(params, fc.string({ unit: "grapheme", maxLength: 20 }), (base, other) => {
        const name = Object.keys(base)[0] as string;
        fc.pre(base[name] !== other);
        assert.notEqual(
          aliyunSignature("POST", base, "secret"),
          aliyunSignature("POST", { ...base, [name]: other }, "secret"),
        );
      }),
    );
  });

  test("adding a parameter, or another secret, changes the signature", () => {
    fc.assert(
      fc.property(params, fc.string({ minLength: 1, maxLength: 20 }), (base, secret) => {
        fc.pre(!("Zz" in base) && secret !== "secret");
        const signed = aliyunSignature("POST", base, "secret");
        assert.notEqual(aliyunSignature("POST", { ...base, Zz: "" }, "secret"), signed);
        assert.notEqual(aliyunSignature("POST", base, secret), signed);
      }),
    );
  });

  test("the order parameters are given in does not matter", () => {
    fc.assert(
      fc.property(params, (base) => {
        const reversed = Object.fromEntries(Object.entries(base).reverse());
        assert.equal(aliyunSignature("GET", reversed, "k"), aliyunSignature("GET", base, "k"));
      }),
    );
  });

  test("the canonical query parses back to the same parameters", () => {
    fc.assert(
      fc.property(params, (base) => {
        const parsed = Object.fromEntries(new URLSearchParams(canonicalQuery(base)));
        assert.deepEqual(parsed, { ...base });
      }),
    );
  });

  test("agrees with an HMAC taken over the documented string to sign directly", () => {
    const documented =
      "GET&%2F&AccessKeyId%3DtestId%26Action%3DSendSms%26Format%3DXML%26OutId%3D123%26PhoneNumbers%3D15300000001%26RegionId%3Dcn-hangzhou%26SignName%3D%25E9%2598%25BF%25E9%2587%258C%25E4%25BA%2591%25E7%259F%25AD%25E4%25BF%25A1%25E6%25B5%258B%25E8%25AF%2595%25E4%25B8%2593%25E7%2594%25A8%26SignatureMethod%3DHMAC-SHA1%26SignatureNonce%3D45e25e9b-0a6f-4070-8c85-2956eda1b466%26SignatureVersion%3D1.0%26TemplateCode%3DSMS_71390007%26TemplateParam%3D%257B%2522customer%2522%253A%2522test%2522%257D%26Timestamp%3D2017-07-12T02%253A42%253A19Z%26Version%3D2017-05-25";
    assert.equal(stringToSign("GET", smsExample), documented);
    assert.equal(
      createHmac("sha1", "testSecret&").update(documented).digest("base64"),
      "zJDF+Lrzhj/ThnlvIToysFRq6t4=",
    );
  });
});
