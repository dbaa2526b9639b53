import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dlt698, type SplitFrame, splitFrames, toHex } from "@meterline/protocols";
import type { MeterInfo } from "../src/model.ts";
import { type MeterReply, RequestFactory, UnsupportedRequest } from "../src/protocol/requests.ts";

const meter: MeterInfo = {
  id: "9",
  address: "202600000042",
  protocol: "dlt698",
  transport: "tcp",
  collectorId: "DTU698",
  channel: 1,
  model: { localPrepaid: true, customerNumber: "000000001234" },
  pollIntervalMs: 0,
};
const server = dlt698.toServerAddress(meter.address);

function frameOf(bytes: Uint8Array): SplitFrame {
  const [frame] = splitFrames(bytes, { protocol: "any" }).frames;
  assert.ok(frame, "a whole frame");
  return frame;
}

/** The meter's ESAM double opens the request and answers `dar`, protected in kind. */
async function meterAnswer(bytes: Uint8Array, dar: number, esam = new dlt698.FakeEsam()) {
  const request = dlt698.decodeFromClient(dlt698.parseFrame(bytes)).apdu!;
  assert.ok(request.service === "security-request");
  const inner = await dlt698.openSecurityRequest(request, esam, server);
  assert.ok(inner.service === "action-request-normal");
  const answer: dlt698.Apdu = {
    service: "action-response-normal",
    piid: inner.piid,
    omd: inner.omd,
    dar,
    data: null,
    followReport: null,
    timeTag: null,
  };
  return { request, inner, secured: await dlt698.secureResponse(answer, esam, server, request) };
}

async function opened(reply: MeterReply | undefined): Promise<MeterReply | undefined> {
  return reply?.kind === "secured" ? reply.open() : reply;
}

describe("DL/T 698.45 wallet request (gateway side)", () => {
  test("recharge: a SECURITY-Request in ciphertext + SID_MAC around ACTION F100 with the model's customer number", async () => {
    const factory = new RequestFactory(() => 5, new dlt698.FakeEsam());
    const request = await factory.recharge(meter, "12.34", 8);
    const { request: secured, inner } = await meterAnswer(request.bytes, 0);
    assert.equal(secured.service === "security-request" && secured.ciphered, true);
    assert.equal(secured.service === "security-request" && secured.verification.kind, "sid-mac");
    assert.ok(inner.service === "action-request-normal");
    assert.equal(inner.omd, dlt698.OMD.WALLET_OPERATION);
    const wallet = dlt698.readWalletData(inner.data)!;
    assert.deepEqual(
      [wallet.operation, wallet.amount, wallet.purchaseCount, wallet.customerNumber, wallet.meterNumber],
      ["recharge", "12.34", 8, "000000001234", "202600000042"],
    );
    assert.ok(new dlt698.FakeEsam().walletSidMacValid(server, inner.data));
    assert.ok(!toHex(request.bytes, "").includes("000004D2"), "the amount does not travel in the clear");
    const clearing = await factory.clearing(meter, "3.00", 9);
    const { inner: refund } = await meterAnswer(clearing.bytes, 0);
    assert.ok(refund.service === "action-request-normal");
    assert.equal(dlt698.readWalletData(refund.data)?.operation, "refund");
  });

  test("the answer: DAR 0 is an ack, a DAR an error naming it, a forged MAC or another meter's frame never an ack", async () => {
    const factory = new RequestFactory(() => 6, new dlt698.FakeEsam());
    const request = await factory.recharge(meter, "12.34", 8);
    const ok = await meterAnswer(request.bytes, 0);
    assert.deepEqual(await opened(request.accept(frameOf(dlt698.buildApduFrame(server, ok.secured)))), {
      kind: "ack",
    });
    const dup = await meterAnswer(request.bytes, 21);
    assert.deepEqual(await opened(request.accept(frameOf(dlt698.buildApduFrame(server, dup.secured)))), {
      kind: "error",
      detail: "error reply: duplicate recharge (DAR 21)",
    });
    assert.ok(ok.secured.service === "security-response");
    const forged = { ...ok.secured, mac: "00000000" };
    const forgedReply = await opened(request.accept(frameOf(dlt698.buildApduFrame(server, forged))));
    assert.equal(forgedReply?.kind, "error");
    assert.match((forgedReply as { detail: string }).detail, /security: the response MAC does not verify/);
    const refused = dlt698.buildApduFrame(server, {
      service: "security-response",
      body: { dar: 22 },
      mac: null,
    });
    const refusedReply = await opened(request.accept(frameOf(refused)));
    assert.match((refusedReply as { detail: string }).detail, /ESAM verification failed \(DAR 22\)/);
    const otherMeter = dlt698.buildApduFrame("202600000043", ok.secured);
    assert.equal(request.accept(frameOf(otherMeter)), undefined);
  });

  test("without a cipher port, or for a meter that is not local prepaid: refused synchronously, nothing built", () => {
    const factory = new RequestFactory(() => 1);
    assert.throws(() => factory.recharge(meter, "1.00", 1), UnsupportedRequest);
    assert.throws(() => factory.clearing(meter, "1.00", 1), /cipher machine/);
    const withPort = new RequestFactory(() => 1, new dlt698.FakeEsam());
    assert.throws(
      () => withPort.recharge({ ...meter, model: {} }, "1.00", 1),
      /needs a local-prepaid DL\/T 645-2007 or DL\/T 698.45 meter/,
    );
  });

  test("a cipher machine that refuses, or an amount the codec refuses, is not sent", async () => {
    const broken: dlt698.WalletCipherPort = {
      protect: () => Promise.reject(new Error("cipher machine offline")),
      open: () => Promise.reject(new Error("unused")),
      walletSidMac: () => Promise.reject(new Error("cipher machine offline")),
    };
    await assert.rejects(
      Promise.resolve(new RequestFactory(() => 1, broken).recharge(meter, "1.00", 1)),
      (e) => e instanceof UnsupportedRequest && /cipher machine offline/.test(e.message),
    );
    await assert.rejects(
      Promise.resolve(new RequestFactory(() => 1, new dlt698.FakeEsam()).recharge(meter, "1.005", 1)),
      /more than 2 decimal/,
    );
  });
});
