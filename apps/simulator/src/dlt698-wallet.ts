import { dlt698, isProtocolError, parseHex, toHex } from "@meterline/protocols";
import type { ElectricMeter } from "./electric-meter.ts";
import { clear, recharge } from "./electric-protocol.ts";

/**
 * A simulated local-prepaid DL/T 698.45 meter's ESAM and wallet: it takes the ESAM wallet
 * operation (ACTION F100, 钱包操作) only inside a SECURITY-Request its ESAM double accepts, and
 * answers with a SECURITY-Response in kind plus MAC. The ESAM is the codec's FakeEsam (a double,
 * no cryptography) with the test key the gateway's "software-test-double" cipher port holds, unless
 * the meter is configured with another (a meter keyed for another utility's cipher machine).
 *
 * Money rules, as the DL/T 645 model's (electric-protocol.ts): the purchase count must be exactly
 * one more than the meter's — a repeat of the same count is refused (DAR 21 duplicate recharge), a
 * gap too (DAR 25) — so a purchase is applied exactly once; a refund (退费, account clearing) gives up
 * exactly the remaining amount. Every refusal leaves the wallet as it was.
 */
const DAR = {
  success: 0,
  undefined: 4,
  typeMismatch: 7,
  duplicateRecharge: 21,
  esamVerification: 22,
  customerMismatch: 24,
  countError: 25,
  hoarding: 26,
  addressError: 27,
  other: 255,
} as const;

/** The customer number (户号) a simulated meter's ESAM holds unless configured: 6 bytes of zero. */
export const SIMULATED_CUSTOMER_NUMBER = "000000000000";

function esamOf(meter: ElectricMeter): dlt698.FakeEsam {
  const key = meter.config.esamKey;
  return key ? new dlt698.FakeEsam(parseHex(key)) : new dlt698.FakeEsam();
}

function walletOperation(
  meter: ElectricMeter,
  esam: dlt698.FakeEsam,
  server: dlt698.ServerAddress,
  data: dlt698.Data,
  now: number,
): number {
  if (!meter.config.localPrepaid) return DAR.undefined;
  const wallet = dlt698.readWalletData(data);
  if (!wallet) return DAR.typeMismatch;
  if (!esam.walletSidMacValid(server, data)) return DAR.esamVerification;
  if (wallet.meterNumber !== meter.address) return DAR.addressError;
  if (wallet.customerNumber !== (meter.config.customerNumber ?? SIMULATED_CUSTOMER_NUMBER))
    return DAR.customerMismatch;
  if (wallet.purchaseCount <= meter.purchaseCount) return DAR.duplicateRecharge;
  if (wallet.purchaseCount !== meter.purchaseCount + 1) return DAR.countError;
  const fen = Number(wallet.amount.replace(".", ""));
  switch (wallet.operation) {
    case "open-account":
    case "recharge":
      if (wallet.operation === "open-account" && meter.purchaseCount !== 0) return DAR.countError;
      if (meter.balanceFen + fen > meter.hoardingLimitFen) return DAR.hoarding;
      return recharge(meter, fen, null, now) ? DAR.success : DAR.other;
    case "refund":
      return clear(meter, fen, null, now) ? DAR.success : DAR.other;
  }
}

/**
 * Answer a SECURITY-Request: open it through the ESAM (a wrong MAC or key is refused with DAR 22 in
 * the SECURITY-Response, nothing inside is executed), run the wallet operation, and protect the
 * ACTION-Response for the master.
 */
export function answerSecured(
  meter: ElectricMeter,
  request: Extract<dlt698.Apdu, { service: "security-request" }>,
  now: number,
): Uint8Array {
  const server = dlt698.toServerAddress(meter.address);
  const esam = esamOf(meter);
  const refuse = (dar: number) => {
    meter.counters.refused++;
    return dlt698.buildApduFrame(server, { service: "security-response", body: { dar }, mac: null });
  };
  let inner: dlt698.Apdu;
  try {
    const plain = esam.openRequestNow({
      server,
      ciphered: request.ciphered,
      data: parseHex(request.data),
      verification: request.verification,
    });
    inner = dlt698.decodeApdu(plain);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return refuse(DAR.esamVerification);
  }
  if (inner.service !== "action-request-normal" || inner.omd !== dlt698.OMD.WALLET_OPERATION)
    return refuse(DAR.other);
  const dar = walletOperation(meter, esam, server, inner.data, now);
  if (dar !== DAR.success) meter.counters.refused++;
  const answer: dlt698.Apdu = {
    service: "action-response-normal",
    piid: inner.piid,
    omd: inner.omd,
    dar,
    data: null,
    followReport: null,
    timeTag: null,
  };
  const out = esam.protectResponseNow({
    server,
    apdu: dlt698.encodeApdu(answer),
    ciphered: request.ciphered,
    request: request.verification,
  });
  return dlt698.buildApduFrame(server, {
    service: "security-response",
    body: { ciphered: out.ciphered, data: toHex(out.data, "") },
    mac: out.mac ? toHex(out.mac, "") : null,
  });
}
