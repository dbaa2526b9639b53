import { dlt698, isProtocolError, type SplitFrame } from "@meterline/protocols";
import type { PreparedRequest } from "../bus/bus.ts";
import type { MeterInfo } from "../model.ts";
import type { MeterReply } from "./requests.ts";

/**
 * Money writes of local-prepaid DL/T 698.45 meters: the ESAM wallet operation (ACTION F100,
 * 钱包操作, DL/T 698.45-2017 interface class 21) under security transfer, ciphertext + SID_MAC — the
 * mode the standard asks for ESAM money on a meter in security mode (§7.2.10, see the codec's
 * security.ts). The cipher machine (a CipherPort) authorises the purchase (its SID_MAC inside the
 * parameter), protects the APDU, and later checks and opens the meter's answer: the gateway holds
 * no key. Like the DL/T 645 money writes, a recharge or clearing carries the purchase count the
 * meter must reach, and a lost answer is settled by reading the wallet (202C0200) back.
 */

/** Names of cipher ports the gateway can be configured with (GATEWAY_DLT698_CIPHER_PORT). */
export const CIPHER_PORTS = ["none", "software-test-double"] as const;
export type CipherPortName = (typeof CIPHER_PORTS)[number];

/**
 * The port a setting names. "software-test-double" is NOT a cipher machine: it is the codec's
 * FakeEsam with the test key the simulated meters' ESAM doubles share (no cryptography), for the
 * demo fleet and the tests. A real deployment names a real cipher machine's port; "none" (the
 * default) refuses 698.45 money writes before a byte is sent.
 */
export function cipherPortFor(name: CipherPortName): dlt698.WalletCipherPort | null {
  switch (name) {
    case "none":
      return null;
    case "software-test-double":
      return new dlt698.FakeEsam();
  }
}

/** The customer number (户号) a meter's ESAM expects when the model does not say: 6 bytes of zero. */
export const DEFAULT_CUSTOMER_NUMBER = "000000000000";

export class CipherRefusal extends Error {}

const sequenceOf = (piid: number) => piid & 0x3f;

function serverApdu(meter: MeterInfo, frame: SplitFrame): dlt698.Apdu | undefined {
  if (frame.protocol !== "dlt698") return undefined;
  try {
    const parsed = dlt698.parseFrame(frame.bytes, { maxFrameLength: frame.bytes.length });
    if (parsed.split || parsed.server.address !== meter.address) return undefined;
    return dlt698.decodeFromServer(parsed).apdu ?? undefined;
  } catch (error) {
    if (isProtocolError(error)) return undefined;
    throw error;
  }
}

/** The meter's answer inside the SECURITY-Response, once the cipher port has checked and opened it. */
async function openAnswer(
  port: dlt698.WalletCipherPort,
  server: dlt698.ServerAddress,
  response: dlt698.Apdu,
  request: dlt698.Apdu,
  sequence: number,
): Promise<MeterReply> {
  let inner: dlt698.Apdu;
  try {
    inner = await dlt698.openSecurityResponse(response, port, server, request);
  } catch (error) {
    // A refused request (DAR in the SECURITY-Response) or an answer whose MAC does not verify.
    return { kind: "error", detail: `security: ${(error as Error).message}` };
  }
  if (
    inner.service !== "action-response-normal" ||
    inner.omd !== dlt698.OMD.WALLET_OPERATION ||
    sequenceOf(inner.piid) !== sequence
  )
    return { kind: "error", detail: `unexpected answer inside the SECURITY-Response: ${inner.service}` };
  return inner.dar === 0
    ? { kind: "ack" }
    : { kind: "error", detail: `error reply: ${dlt698.darName(inner.dar)} (DAR ${inner.dar})` };
}

/**
 * A recharge ("recharge": 充值) or an account clearing ("refund": 退费 of exactly the remaining
 * amount) as one secured ACTION F100. Rejects with CipherRefusal when the cipher machine will not
 * authorise or protect it: nothing has been sent then.
 */
export async function dlt698MoneyWrite(
  meter: MeterInfo,
  port: dlt698.WalletCipherPort,
  operation: "recharge" | "refund",
  amount: string,
  purchaseCount: number,
  piid: number,
): Promise<PreparedRequest<MeterReply>> {
  const server = dlt698.toServerAddress(meter.address);
  const sequence = sequenceOf(piid);
  const input = {
    operation,
    amount,
    purchaseCount,
    customerNumber: meter.model.customerNumber ?? DEFAULT_CUSTOMER_NUMBER,
    meterNumber: meter.address,
  };
  // Values the codec refuses (too many decimals, out of range) fail here, before the cipher machine.
  dlt698.walletData({ ...input, sidMac: { sid: { id: 0, extra: "" }, mac: "" } });
  let request: dlt698.Apdu;
  try {
    const sidMac = await port.walletSidMac(server, input);
    const action = dlt698.walletApdu({ ...input, sidMac }, { piid: sequence });
    request = await dlt698.secureRequest(action, port, server, "cipher-sid-mac");
  } catch (error) {
    throw new CipherRefusal(
      `the cipher machine did not protect the wallet operation: ${(error as Error).message}`,
    );
  }
  const bytes = dlt698.buildApduFrame(server, request, { preamble: meter.model.preamble });
  return {
    bytes,
    address: meter.address,
    accept(frame) {
      const apdu = serverApdu(meter, frame);
      if (!apdu) return undefined;
      // A SECURITY-Response carries no PIID of its own: the one inside is checked once it is opened.
      if (apdu.service === "security-response")
        return { kind: "secured", open: () => openAnswer(port, server, apdu, request, sequence) };
      if (apdu.service === "error-response" && sequenceOf(apdu.piid) === sequence)
        return { kind: "error", detail: `error response ${apdu.errorType}` };
      return undefined;
    },
  };
}
