import { fail } from "../errors.ts";
import { toHex } from "../hex.ts";
import type { ServerAddress } from "./address.ts";
import { type Apdu, decodeApdu, encodeApdu, type SecurityVerification } from "./apdu.ts";
import { hexBytes, type SidMac } from "./axdr.ts";
import { darName } from "./catalogue.ts";
import { crc16x25 } from "./crc.ts";
import { readWalletData, type WalletSidMacInput, walletMacInput } from "./wallet.ts";

/**
 * SECURITY-Request / SECURITY-Response (DL/T 698.45 §7.2.10, security transfer with the ESAM):
 * the master hands the APDU to a cipher machine (or a local ESAM) which returns it as plaintext
 * or ciphertext plus verification (SID, SID_MAC, RN or RN_MAC); the meter's ESAM checks it and
 * answers plaintext or ciphertext with a MAC. The codec never holds keys: the port does.
 *
 * Modes the gateway uses:
 *  - "plain-rn": reads; the request carries a random number, the meter answers plaintext + MAC.
 *  - "plain-sid-mac": plaintext + SID_MAC (e.g. parameter writes on some meters).
 *  - "cipher-sid": ciphertext + SID.
 *  - "cipher-sid-mac": ciphertext + SID_MAC — what remote control (ACTION 8000) and wallet
 *    operations (ACTION F100) require on a meter in security mode.
 */
export type SecurityMode = "plain-rn" | "plain-sid-mac" | "cipher-sid" | "cipher-sid-mac";

export interface ProtectRequest {
  server: ServerAddress;
  mode: SecurityMode;
  /** The plain client APDU. */
  apdu: Uint8Array;
}
export interface Protected {
  ciphered: boolean;
  data: Uint8Array;
  verification: SecurityVerification;
}
export interface OpenResponse {
  server: ServerAddress;
  ciphered: boolean;
  data: Uint8Array;
  mac: Uint8Array | null;
  /** What the request carried (its RN is needed to check a plaintext+MAC answer). */
  request: SecurityVerification;
}

/** The master's side: a cipher machine or an ESAM on the gateway. */
export interface CipherPort {
  protect(request: ProtectRequest): Promise<Protected>;
  /** Check the MAC and decipher; throw (or reject) when the answer does not verify. */
  open(response: OpenResponse): Promise<Uint8Array>;
}

/**
 * A cipher machine that can also authorise money: the SID_MAC inside the ESAM wallet operation
 * (F100, 钱包操作) is computed by the master's cipher machine for that meter, purchase and count, and
 * checked by the meter's ESAM before it touches the wallet.
 */
export interface WalletCipherPort extends CipherPort {
  walletSidMac(server: ServerAddress, input: WalletSidMacInput): Promise<SidMac>;
}

/** The meter's side (the simulated meter's ESAM). */
export interface MeterEsamPort {
  openRequest(request: {
    server: ServerAddress;
    ciphered: boolean;
    data: Uint8Array;
    verification: SecurityVerification;
  }): Promise<Uint8Array>;
  protectResponse(response: {
    server: ServerAddress;
    apdu: Uint8Array;
    ciphered: boolean;
    request: SecurityVerification;
  }): Promise<{ ciphered: boolean; data: Uint8Array; mac: Uint8Array | null }>;
}

/** Wrap a client APDU into a SECURITY-Request through the port. */
export async function secureRequest(
  apdu: Apdu,
  port: CipherPort,
  server: ServerAddress,
  mode: SecurityMode,
): Promise<Apdu> {
  if (apdu.service === "security-request" || apdu.service === "security-response")
    fail("bad-argument", "a SECURITY APDU cannot be wrapped again");
  const protectedApdu = await port.protect({ server, mode, apdu: encodeApdu(apdu) });
  return {
    service: "security-request",
    ciphered: protectedApdu.ciphered,
    data: toHex(protectedApdu.data, ""),
    verification: protectedApdu.verification,
  };
}

/** Open a SECURITY-Response into the APDU it carries; a DAR or a failed check is a ProtocolError. */
export async function openSecurityResponse(
  response: Apdu,
  port: CipherPort,
  server: ServerAddress,
  request: Apdu,
): Promise<Apdu> {
  if (response.service !== "security-response")
    fail("bad-apdu", `expected a SECURITY-Response, got ${response.service}`);
  if (request.service !== "security-request")
    fail("bad-argument", "the request must be the SECURITY-Request sent");
  if ("dar" in response.body)
    fail(
      "security",
      `the meter refused the secured request: ${darName(response.body.dar)} (DAR ${response.body.dar})`,
    );
  const plain = await port.open({
    server,
    ciphered: response.body.ciphered,
    data: hexBytes(response.body.data, "protected APDU"),
    mac: response.mac === null ? null : hexBytes(response.mac, "MAC"),
    request: request.verification,
  });
  return decodeApdu(plain);
}

/** Meter side: the client APDU inside a SECURITY-Request, once the ESAM accepts it. */
export async function openSecurityRequest(
  request: Apdu,
  esam: MeterEsamPort,
  server: ServerAddress,
): Promise<Apdu> {
  if (request.service !== "security-request")
    fail("bad-apdu", `expected a SECURITY-Request, got ${request.service}`);
  const plain = await esam.openRequest({
    server,
    ciphered: request.ciphered,
    data: hexBytes(request.data, "protected APDU"),
    verification: request.verification,
  });
  return decodeApdu(plain);
}

/** Meter side: answer in kind (ciphertext for ciphertext, plaintext + MAC otherwise). */
export async function secureResponse(
  response: Apdu,
  esam: MeterEsamPort,
  server: ServerAddress,
  request: Apdu,
): Promise<Apdu> {
  if (request.service !== "security-request") fail("bad-argument", "the request must be a SECURITY-Request");
  const out = await esam.protectResponse({
    server,
    apdu: encodeApdu(response),
    ciphered: request.ciphered,
    request: request.verification,
  });
  return {
    service: "security-response",
    body: { ciphered: out.ciphered, data: toHex(out.data, "") },
    mac: out.mac ? toHex(out.mac, "") : null,
  };
}

/**
 * A test double for both ends: NOT cryptography. "Encryption" is a XOR key stream and the
 * "MAC" two CRCs over key and data, so tests can check that the codec carries and checks
 * what a real ESAM would, and that tampering is caught.
 */
export class FakeEsam implements WalletCipherPort, MeterEsamPort {
  private counter = 0;
  constructor(private readonly key: Uint8Array = Uint8Array.of(0x69, 0x8d, 0x45, 0x17, 0x20, 0x17)) {}

  private stream(data: Uint8Array, server: ServerAddress): Uint8Array {
    const seed = hexBytes(server.address, "address");
    return data.map(
      (byte, i) => byte ^ this.key[i % this.key.length]! ^ (seed[i % seed.length] ?? 0) ^ (i & 0xff),
    );
  }
  mac(data: Uint8Array, salt: string): Uint8Array {
    const input = new Uint8Array([...this.key, ...hexBytes(salt, "salt"), ...data]);
    const a = crc16x25(input);
    const b = crc16x25(input.reverse());
    return Uint8Array.of(a >> 8, a & 0xff, b >> 8, b & 0xff);
  }
  private sid(): { id: number; extra: string } {
    this.counter = (this.counter + 1) >>> 0;
    return { id: 0x81_00_00_00 + this.counter, extra: "0000" };
  }

  async protect(request: ProtectRequest): Promise<Protected> {
    const { apdu, mode, server } = request;
    if (mode === "plain-rn") {
      const rn =
        toHex(this.mac(apdu, "52").subarray(0, 4), "") + toHex(Uint8Array.of(this.counter++ & 0xff), "");
      return { ciphered: false, data: apdu, verification: { kind: "rn", rn } };
    }
    const ciphered = mode !== "plain-sid-mac";
    const data = ciphered ? this.stream(apdu, server) : apdu;
    const sid = this.sid();
    if (mode === "cipher-sid") return { ciphered, data, verification: { kind: "sid", sid } };
    return {
      ciphered,
      data,
      verification: { kind: "sid-mac", sid, mac: toHex(this.mac(data, sid.extra), "") },
    };
  }

  async open(response: OpenResponse): Promise<Uint8Array> {
    const salt =
      response.request.kind === "rn" || response.request.kind === "rn-mac" ? response.request.rn : "";
    if (response.mac) {
      const expected = toHex(this.mac(response.data, salt), "");
      if (expected !== toHex(response.mac, "")) fail("security", "the response MAC does not verify");
    } else if (!response.ciphered) fail("security", "a plaintext response without MAC cannot be trusted");
    return response.ciphered ? this.stream(response.data, response.server) : response.data;
  }

  /** The SID_MAC a cipher machine holding this key gives a wallet operation for `server`. */
  walletSidMacNow(server: ServerAddress, input: WalletSidMacInput): SidMac {
    const sid = { id: (0x81_10_00_00 + input.purchaseCount) >>> 0, extra: "0000" };
    return { sid, mac: toHex(this.mac(this.walletBytes(server, input), sid.extra), "") };
  }
  async walletSidMac(server: ServerAddress, input: WalletSidMacInput): Promise<SidMac> {
    return this.walletSidMacNow(server, input);
  }
  /** Meter side: does the wallet parameter's SID_MAC verify for this meter (and this key)? */
  walletSidMacValid(server: ServerAddress, data: Parameters<typeof readWalletData>[0]): boolean {
    const wallet = readWalletData(data);
    if (!wallet) return false;
    const expected = this.mac(this.walletBytes(server, wallet), wallet.sidMac.sid.extra);
    return toHex(expected, "") === wallet.sidMac.mac.toUpperCase();
  }
  private walletBytes(server: ServerAddress, input: WalletSidMacInput): Uint8Array {
    return new Uint8Array([...hexBytes(server.address, "address"), ...walletMacInput(input)]);
  }

  async openRequest(request: {
    server: ServerAddress;
    ciphered: boolean;
    data: Uint8Array;
    verification: SecurityVerification;
  }): Promise<Uint8Array> {
    return this.openRequestNow(request);
  }

  /** openRequest without the promise, for a meter that answers synchronously (the simulator). */
  openRequestNow(request: {
    server: ServerAddress;
    ciphered: boolean;
    data: Uint8Array;
    verification: SecurityVerification;
  }): Uint8Array {
    const v = request.verification;
    if (v.kind === "sid-mac" && toHex(this.mac(request.data, v.sid.extra), "") !== v.mac)
      fail("security", "the request MAC does not verify");
    return request.ciphered ? this.stream(request.data, request.server) : request.data;
  }

  async protectResponse(response: {
    server: ServerAddress;
    apdu: Uint8Array;
    ciphered: boolean;
    request: SecurityVerification;
  }): Promise<{ ciphered: boolean; data: Uint8Array; mac: Uint8Array | null }> {
    return this.protectResponseNow(response);
  }

  /** protectResponse without the promise (the simulator). */
  protectResponseNow(response: {
    server: ServerAddress;
    apdu: Uint8Array;
    ciphered: boolean;
    request: SecurityVerification;
  }): { ciphered: boolean; data: Uint8Array; mac: Uint8Array | null } {
    const salt =
      response.request.kind === "rn" || response.request.kind === "rn-mac" ? response.request.rn : "";
    const data = response.ciphered ? this.stream(response.apdu, response.server) : response.apdu;
    return { ciphered: response.ciphered, data, mac: this.mac(data, salt) };
  }
}
