import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { formatScaled } from "../decimal.ts";
import { toHex } from "../hex.ts";
import * as dlt698 from "./index.ts";

const METER = { type: "single", logical: 0, address: "202600000042" } as const;
const OTHER = { type: "single", logical: 0, address: "202600000043" } as const;

const walletArb = fc.record({
  operation: fc.constantFrom<dlt698.WalletOperation>("open-account", "recharge", "refund"),
  fen: fc.bigInt({ min: 0n, max: 0xffffffffn }),
  purchaseCount: fc.integer({ min: 0, max: 0xffffffff }),
  customerNumber: fc.uint8Array({ minLength: 6, maxLength: 6 }).map((b) => toHex(b, "")),
  meterNumber: fc.uint8Array({ minLength: 6, maxLength: 6 }).map((b) => toHex(b, "")),
});

describe("DL/T 698.45 ESAM wallet operation (F100)", () => {
  test("12.34 元 recharge: the ACTION parameter on the wire and read back by the meter", () => {
    const esam = new dlt698.FakeEsam();
    const input = {
      operation: "recharge" as const,
      amount: "12.34",
      purchaseCount: 3,
      customerNumber: "000000001234",
      meterNumber: "202600000042",
    };
    const sidMac = esam.walletSidMacNow(METER, input);
    const apdu = dlt698.walletApdu({ ...input, sidMac }, { piid: 9 });
    assert.ok(apdu.service === "action-request-normal");
    assert.equal(apdu.omd, `F100${dlt698.WALLET_METHOD.toString(16).padStart(2, "0").toUpperCase()}00`);
    // operation integer 1, amount 1234 fen as double-long-unsigned (tag 06), purchase count 3
    const bytes = dlt698.encodeApdu(apdu);
    assert.ok(toHex(bytes, "").includes("02060F0106000004D206000000030906000000001234"));
    const back = dlt698.decodeApdu(bytes);
    assert.ok(back.service === "action-request-normal");
    assert.deepEqual(dlt698.readWalletData(back.data), { ...input, sidMac });
    assert.equal(esam.walletSidMacValid(METER, back.data), true);
  });

  test("the SID_MAC binds meter, key, amount and count", () => {
    const esam = new dlt698.FakeEsam();
    const input = {
      operation: "recharge" as const,
      amount: "12.34",
      purchaseCount: 3,
      customerNumber: "000000001234",
      meterNumber: "202600000042",
    };
    const data = dlt698.walletData({ ...input, sidMac: esam.walletSidMacNow(METER, input) });
    assert.equal(esam.walletSidMacValid(OTHER, data), false, "another meter");
    assert.equal(
      new dlt698.FakeEsam(Uint8Array.of(1, 2, 3)).walletSidMacValid(METER, data),
      false,
      "another key",
    );
    const forged = dlt698.walletData({
      ...input,
      amount: "99.99",
      sidMac: esam.walletSidMacNow(METER, input),
    });
    assert.equal(esam.walletSidMacValid(METER, forged), false, "amount changed after the MAC");
    assert.equal(dlt698.readWalletData({ type: "structure", items: [] }), null);
    assert.ok(data.type === "structure");
    assert.equal(
      dlt698.readWalletData({
        type: "structure",
        items: [{ type: "integer", value: 5 }, ...data.items.slice(1)],
      }),
      null,
      "operation 5 is not in the standard's list",
    );
  });

  test("property: every wallet parameter survives encode → decode → read, and its MAC verifies", () => {
    const esam = new dlt698.FakeEsam();
    fc.assert(
      fc.property(walletArb, fc.integer({ min: 0, max: 63 }), (w, piid) => {
        const input = {
          operation: w.operation,
          amount: formatScaled(w.fen, 2),
          purchaseCount: w.purchaseCount,
          customerNumber: w.customerNumber,
          meterNumber: w.meterNumber,
        };
        const sidMac = esam.walletSidMacNow(METER, input);
        const apdu = dlt698.walletApdu({ ...input, sidMac }, { piid });
        const back = dlt698.decodeApdu(dlt698.encodeApdu(apdu));
        assert.deepEqual(back, apdu);
        assert.ok(back.service === "action-request-normal");
        assert.deepEqual(dlt698.readWalletData(back.data), { ...input, sidMac });
        assert.ok(esam.walletSidMacValid(METER, back.data));
      }),
      { numRuns: 300 },
    );
  });
});
