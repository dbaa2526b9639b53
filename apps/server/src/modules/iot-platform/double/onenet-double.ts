import { createHmac, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { PlatformState } from "../platform-pushes.ts";
import { onenetSignature, parseOnenetToken, sameText } from "../platform-signing.ts";
import {
  type HeldCommand,
  type HttpAnswer,
  type OutgoingPush,
  PlatformDouble,
  type PushTransport,
} from "./platform-double.ts";
import type { SleepingWaterMeter } from "./sleeping-meter.ts";

/** The product on OneNET: its id and access key (Base64), and the push token of its HTTP push. */
export interface OnenetProduct {
  tenantId: string;
  productId: string;
  accessKey: string;
  pushToken: string;
}

const STATUS_CODES: Record<PlatformState, number> = {
  queued: 1,
  sent: 2,
  delivered: 3,
  executed: 4,
  failed: 5,
  expired: 6,
};

/**
 * A local OneNET: the NB-IoT cached-command API (nb-iot/execute/cache, authorised by the access
 * key's token), and HTTP pushes {msg, nonce, msg_signature} signed Base64(MD5(token + nonce +
 * msg)): type 1 data points (the meter's frame as hex) and type 7 cached-command states.
 */
export class OnenetDouble extends PlatformDouble {
  readonly platform = "onenet" as const;

  constructor(
    transport: PushTransport,
    private readonly product: OnenetProduct,
  ) {
    super(transport);
  }

  private authorised(headers: IncomingMessage["headers"]): boolean {
    const token = parseOnenetToken(String(headers.authorization ?? ""));
    if (!token || token.res !== `products/${this.product.productId}` || token.method !== "sha1") return false;
    if (Number(token.et) * 1000 < Date.now()) return false;
    const sign = createHmac("sha1", Buffer.from(this.product.accessKey, "base64"))
      .update(`${token.et}\n${token.method}\n${token.res}\n${token.version}`, "utf8")
      .digest("base64");
    return sameText(sign, token.sign ?? "");
  }

  protected handle(method: string, url: URL, headers: IncomingMessage["headers"], body: string): HttpAnswer {
    if (method !== "POST" || url.pathname !== "/nb-iot/execute/cache")
      return { status: 404, body: { code: 404, msg: "no such API" } };
    if (!this.authorised(headers)) return { status: 401, body: { code: 10403, msg: "auth failed" } };
    const deviceId = url.searchParams.get("device_name") ?? "";
    if (url.searchParams.get("product_id") !== this.product.productId || !this.meters.has(deviceId))
      return { status: 200, body: { code: 10410, msg: "device not exist" } };
    const args = (JSON.parse(body) as { args?: string }).args ?? "";
    if (!/^[0-9A-Fa-f]+$/.test(args)) return { status: 200, body: { code: 10001, msg: "args must be hex" } };
    const expired = Date.parse(`${url.searchParams.get("expired_time") ?? ""}Z`);
    const ttl = Number.isNaN(expired) ? 7200 : Math.max(1, Math.round((expired - Date.now()) / 1000));
    const held = this.hold(deviceId, Uint8Array.from(Buffer.from(args, "hex")), ttl);
    return { status: 200, body: { code: 0, msg: "succ", data: { uuid: held.id } } };
  }

  private signed(msg: Record<string, unknown>): OutgoingPush {
    const text = JSON.stringify(msg);
    const nonce = randomBytes(6).toString("base64url").slice(0, 8);
    return {
      path: `/api/blade-pms/iot/push/onenet/${this.product.tenantId}`,
      headers: {},
      body: JSON.stringify({
        msg,
        nonce,
        msg_signature: onenetSignature(this.product.pushToken, nonce, text),
      }),
    };
  }

  /** The URL verification OneNET makes before its first push: the query it sends. */
  handshakeQuery(msg = randomBytes(9).toString("hex")): string {
    const nonce = randomBytes(6).toString("hex");
    const signature = onenetSignature(this.product.pushToken, nonce, msg);
    return new URLSearchParams({ msg, nonce, signature }).toString();
  }

  protected reportPush(meter: SleepingWaterMeter, frame: Uint8Array, at: Date): OutgoingPush {
    return this.signed({
      at: at.getTime(),
      imei: meter.deviceId,
      type: 1,
      ds_id: "3200_0_5505",
      value: Buffer.from(frame).toString("hex").toUpperCase(),
      dev_id: meter.deviceId,
    });
  }

  protected statePush(command: HeldCommand, at: Date): OutgoingPush {
    return this.signed({
      at: at.getTime(),
      imei: command.deviceId,
      type: 7,
      uuid: command.id,
      status: STATUS_CODES[command.state],
    });
  }
}
