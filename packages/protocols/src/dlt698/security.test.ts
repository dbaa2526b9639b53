import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { ProtocolError } from "../errors.ts";
import * as dlt698 from "./index.ts";

const METER = { type: "single", logical: 0, address: "202600000042" } as const;
const wallet: dlt698.WalletInput = {
  operation: "recharge",
  amount: "100.00",
  purchaseCount: 7,
  customerNumber: "000000001234",
  sidMac: { sid: { id: 0x80_3e_00_01, extra: "00120034" }, mac: "A1B2C3D4" },
  meterNumber: "000000000042",
};

/** Master and meter each hold a FakeEsam with the same key: what a cipher machine and an ESAM share. */
async function exchange(apdu: dlt698.Apdu, mode: dlt698.SecurityMode, tamper?: (frame: Uint8Array) => void) {
  const master = new dlt698.FakeEsam();
  const meter = new dlt698.FakeEsam();
  const wire = await dlt698.buildSecuredRequest(METER, apdu, master, mode, { piid: 3 });
  tamper?.(wire);
  const request = dlt698.decodeFromClient(dlt698.parseFrame(wire));
  assert.equal(request.service, "SECURITY-Request");
  const inner = await dlt698.openSecurityRequest(request.apdu!, meter, METER);
  return { master, meter, request: request.apdu!, inner };
}

describe("DL/T 698.45 security transfer through a cipher port", () => {
  test("wallet recharge: the ACTION F100 parameter, sent as ciphertext + SID_MAC", async () => {
    const apdu = dlt698.walletApdu(wallet, { piid: 3 });
    assert.ok(apdu.service === "action-request-normal");
    assert.equal(apdu.omd, dlt698.OMD.WALLET_OPERATION);
    assert.equal(dlt698.omdName(apdu.omd), "ESAM: wallet operation");
    assert.deepEqual(apdu.data, {
      type: "structure",
      items: [
        { type: "integer", value: 1 },
        { type: "double-long-unsigned", value: 10000 },
        { type: "double-long-unsigned", value: 7 },
        { type: "octet-string", hex: "000000001234" },
        { type: "sid-mac", value: wallet.sidMac },
        { type: "octet-string", hex: "000000000042" },
      ],
    });
    const { request, inner } = await exchange(apdu, "cipher-sid-mac");
    assert.ok(request.service === "security-request");
    assert.equal(request.ciphered, true);
    assert.equal(request.verification.kind, "sid-mac");
    // The ciphertext does not show the amount in the clear.
    assert.ok(!request.data.includes("00002710"));
    assert.deepEqual(inner, apdu);
    assert.throws(() => dlt698.walletData({ ...wallet, amount: "1.005" }), /more than 2 decimal/);
    assert.throws(
      () => dlt698.walletData({ ...wallet, operation: "gift" as dlt698.WalletOperation }),
      /unknown wallet/,
    );
  });

  test("trip through security: a changed ciphertext byte fails the meter's MAC check", async () => {
    const trip = dlt698.actionApdu(dlt698.OMD.TRIP, dlt698.tripData(), { piid: 4 });
    const ok = await exchange(trip, "cipher-sid-mac");
    assert.deepEqual(ok.inner, trip);
    await assert.rejects(
      exchange(trip, "cipher-sid-mac", (wire) => {
        // flip a byte inside the protected data and fix up the frame's CRCs: only the MAC can notice
        const frame = dlt698.parseFrame(wire);
        const apdu = frame.apdu.slice();
        apdu[4] = apdu[4]! ^ 0xff;
        wire.set(
          dlt698.buildFrame({ control: frame.control, server: frame.server, client: frame.client, apdu }),
        );
      }),
      (e) => e instanceof ProtocolError && e.code === "security" && /MAC/.test(e.message),
    );
  });

  test("a read as plaintext + RN: the meter answers plaintext + MAC, the master checks it", async () => {
    const get = dlt698.getApdu([dlt698.OAD.WALLET], { piid: 5 });
    const { master, meter, request, inner } = await exchange(get, "plain-rn");
    assert.ok(request.service === "security-request" && request.verification.kind === "rn");
    assert.deepEqual(inner, get);
    const answer: dlt698.Apdu = {
      service: "get-response-normal",
      piid: 5,
      result: {
        oad: dlt698.OAD.WALLET,
        result: {
          data: {
            type: "structure",
            items: [
              { type: "double-long-unsigned", value: 12345 },
              { type: "double-long-unsigned", value: 7 },
            ],
          },
        },
      },
      followReport: null,
      timeTag: null,
    };
    const secured = await dlt698.secureResponse(answer, meter, METER, request);
    const wire = dlt698.buildApduFrame(METER, secured);
    const received = dlt698.decodeFromServer(dlt698.parseFrame(wire));
    assert.equal(received.service, "SECURITY-Response");
    const opened = await dlt698.openSecurityResponse(received.apdu!, master, METER, request);
    assert.deepEqual(opened, answer);
    assert.deepEqual(
      dlt698.attributeViews(opened)[0]?.values.map((v) => [v.name, v.value, v.unit]),
      [
        ["current wallet file, remaining amount", "123.45", "yuan"],
        ["current wallet file, purchase count", "7", "count"],
      ],
    );
    // a forged MAC is refused
    assert.ok(secured.service === "security-response");
    await assert.rejects(
      dlt698.openSecurityResponse({ ...secured, mac: "00000000" }, master, METER, request),
      (e) => e instanceof ProtocolError && e.code === "security",
    );
  });

  test("a refused secured request (DAR) becomes a ProtocolError naming the DAR", async () => {
    const master = new dlt698.FakeEsam();
    const request = await dlt698.secureRequest(dlt698.walletApdu(wallet), master, METER, "cipher-sid-mac");
    await assert.rejects(
      dlt698.openSecurityResponse(
        { service: "security-response", body: { dar: 21 }, mac: null },
        master,
        METER,
        request,
      ),
      /duplicate recharge \(DAR 21\)/,
    );
    await assert.rejects(
      dlt698.secureRequest(request, master, METER, "cipher-sid"),
      /cannot be wrapped again/,
    );
  });

  test("property: every client APDU survives every security mode", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<dlt698.SecurityMode>("plain-rn", "plain-sid-mac", "cipher-sid", "cipher-sid-mac"),
        fc.array(fc.constantFrom(...Object.values(dlt698.OAD)), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 63 }),
        async (mode, oads, piid) => {
          const get = dlt698.getApdu(oads, { piid });
          const { inner, request } = await exchange(get, mode);
          assert.deepEqual(inner, get);
          assert.ok(request.service === "security-request");
          assert.equal(request.ciphered, mode.startsWith("cipher"));
        },
      ),
      { numRuns: 200 },
    );
  });
});
