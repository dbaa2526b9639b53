import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { test } from "node:test";
import { cjt188, dlt645 } from "@meterline/protocols";
import { commandFrame, decodeReportFrame, decodeServiceData, payloadBytes } from "./payload-frames.ts";
import { type PushRefused, verifyCtwing, verifyIotda, verifyOnenet } from "./platform-pushes.ts";
import { ctwingSignature, onenetApiToken, onenetSignature, parseOnenetToken } from "./platform-signing.ts";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();

test("a water meter's 901F frame decodes from hex or Base64, with its wake-up preamble", () => {
  const frame = cjt188.buildReadDataReply(
    "20230000000001",
    {
      currentTotal: "123.45",
      settlementDayTotal: "100.00",
      time: { year: 2026, month: 11, day: 29, hour: 8 },
      status: { valve: "closed", batteryLow: true },
    },
    { preamble: 2 },
  );
  const expected = { address: "20230000000001", volume: "123.45", valve: "closed", batteryLow: true };
  assert.deepEqual(decodeReportFrame(payloadBytes(hex(frame))!), expected);
  assert.deepEqual(decodeReportFrame(payloadBytes(Buffer.from(frame).toString("base64"))!), expected);
});

test("an electric meter's total energy reply decodes; anything else is no report", () => {
  const frame = dlt645.buildReadReply("000000000101", dlt645.DI.FORWARD_ENERGY_TOTAL, ["1234.56"]);
  assert.deepEqual(decodeReportFrame(frame), { address: "000000000101", energyTotal: "1234.56" });
  assert.equal(decodeReportFrame(Uint8Array.from([0x68, 0x01, 0x02, 0x16])), undefined);
  // A frame with a broken checksum is refused whole, never half-read.
  const broken = Uint8Array.from(frame);
  broken[broken.length - 2] = (broken[broken.length - 2]! + 1) & 0xff;
  assert.equal(decodeReportFrame(broken), undefined);
  assert.equal(payloadBytes("not base64 or hex!"), undefined);
});

test("JSON service data: registers as exact text, valve and battery by the profiles' names", () => {
  assert.deepEqual(
    decodeServiceData("20230000000001", { totalFlow: 12.3, valveStatus: "closed", batteryLow: 1 }),
    {
      address: "20230000000001",
      volume: "12.3",
      valve: "closed",
      batteryLow: true,
    },
  );
  assert.deepEqual(decodeServiceData("000000000101", { totalEnergy: "1024.50", valve_state: 0 }), {
    address: "000000000101",
    energyTotal: "1024.50",
    valve: "open",
  });
  // A negative or non-numeric register is no reading; nothing known is no report.
  assert.equal(decodeServiceData("x", { totalFlow: -1, temperature: 21 }), undefined);
});

test("supply command frames: a CJ/T 188 valve and a DL/T 645 relay with its deadline", () => {
  const valve = cjt188.decodeRequest(
    cjt188.parseFrame(
      commandFrame({ energyType: 2, address: "20230000000001", on: false, validUntil: new Date() }),
    ),
  );
  assert.equal(valve.message.kind === "valve-control-request" && valve.message.command, "close");
  const relay = dlt645.decodeRequest(
    dlt645.parseFrame(
      commandFrame({
        energyType: 1,
        address: "000000000101",
        on: true,
        validUntil: new Date("2026-11-30T04:00:00Z"),
      }),
    ),
  );
  assert.equal(relay.message.kind, "relay-control-request");
});

test("CTWing's signature is HMAC-SHA1 over application, timestamp, sorted parameters and body", () => {
  const text = 'application:key\ntimestamp:1700000000000\na:1\nb:2\n{"x":1}\n';
  assert.equal(
    ctwingSignature({
      application: "key",
      timestamp: "1700000000000",
      secret: "secret",
      params: { b: "2", a: "1" },
      body: '{"x":1}',
    }),
    createHmac("sha1", "secret").update(text).digest("base64"),
  );
});

test("OneNET's push signature and API token", () => {
  assert.equal(
    onenetSignature("tok", "abcdefgh", '{"a":1}'),
    createHash("md5")
      .update("tok" + "abcdefgh" + '{"a":1}')
      .digest("base64"),
  );
  const key = Buffer.from("k".repeat(32)).toString("base64");
  const token = parseOnenetToken(
    onenetApiToken({ res: "products/P1", accessKey: key, expiresAt: 1_900_000_000_000 }),
  )!;
  assert.deepEqual(
    [token.version, token.res, token.et, token.method],
    ["2018-10-31", "products/P1", "1900000000", "sha1"],
  );
  assert.equal(
    token.sign,
    createHmac("sha1", Buffer.from(key, "base64"))
      .update("1900000000\nsha1\nproducts/P1\n2018-10-31")
      .digest("base64"),
  );
});

test("pushes: each platform's events, and refusals by status", () => {
  const secrets = { appId: "app", appSecret: "s3cret", pushToken: "t0ken" };
  const now = new Date("2026-11-29T08:00:00Z");
  const body = JSON.stringify({
    messageType: "commandResponse",
    deviceId: "d1",
    taskId: 7,
    timestamp: now.getTime(),
    result: { resultCode: "DELIVERED" },
  });
  const timestamp = String(now.getTime());
  const headers = {
    application: "app",
    timestamp,
    signature: ctwingSignature({ application: "app", timestamp, secret: "s3cret", body }),
  };
  assert.deepEqual(verifyCtwing({ body, headers, query: {} }, secrets, now).events, [
    { kind: "command", deviceId: "d1", commandId: "7", state: "delivered", at: now },
  ]);
  // An hour-old signature is a replay.
  const stale = new Date(now.getTime() + 3600_000);
  assert.throws(
    () => verifyCtwing({ body, headers, query: {} }, secrets, stale),
    (e: PushRefused) => e.status === 401,
  );
  assert.throws(
    () => verifyCtwing({ body, headers: { ...headers, application: "other" }, query: {} }, secrets, now),
    (e: PushRefused) => e.status === 403,
  );

  const msg = { type: 7, imei: "d2", uuid: "u1", status: 4, at: now.getTime() };
  const onenet = JSON.stringify({
    msg,
    nonce: "abcdefgh",
    msg_signature: onenetSignature("t0ken", "abcdefgh", JSON.stringify(msg)),
  });
  assert.deepEqual(verifyOnenet({ body: onenet, headers: {}, query: {} }, secrets).events, [
    { kind: "command", deviceId: "d2", commandId: "u1", state: "executed", at: now },
  ]);
  assert.throws(
    () => verifyOnenet({ body: "[1]", headers: {}, query: {} }, secrets),
    (e: PushRefused) => e.status === 400,
  );

  const iotda = JSON.stringify({
    resource: "device.message",
    event: "report",
    event_time: "20261129T080000Z",
    notify_data: { header: { device_id: "d3" }, body: { content: "aGk=" } },
  });
  assert.deepEqual(verifyIotda({ body: iotda, headers: {}, query: { token: "t0ken" } }, secrets).events, [
    { kind: "report", deviceId: "d3", at: now, payload: "aGk=" },
  ]);
  assert.throws(
    () => verifyIotda({ body: iotda, headers: {}, query: {} }, secrets),
    (e: PushRefused) => e.status === 401,
  );
  // A product with a profile: its services' properties, merged.
  const property = JSON.stringify({
    resource: "device.property",
    event: "report",
    event_time: "20261129T080000Z",
    notify_data: {
      header: { device_id: "d3" },
      body: {
        services: [
          { service_id: "Meter", properties: { totalFlow: 5 } },
          { service_id: "Valve", properties: { valveStatus: 0 } },
        ],
      },
    },
  });
  assert.deepEqual(verifyIotda({ body: property, headers: {}, query: { token: "t0ken" } }, secrets).events, [
    { kind: "report", deviceId: "d3", at: now, payload: { totalFlow: 5, valveStatus: 0 } },
  ]);
});
