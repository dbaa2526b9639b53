import type { IncomingMessage } from "node:http";
import type { PlatformState } from "../platform-pushes.ts";
import { ctwingSignature, sameText } from "../platform-signing.ts";
import {
  type HeldCommand,
  type HttpAnswer,
  type OutgoingPush,
  PlatformDouble,
  type PushTransport,
} from "./platform-double.ts";
import type { SleepingWaterMeter } from "./sleeping-meter.ts";

/** The application on CTWing: its key and secret, the product's MasterKey and id. */
export interface CtwingApplication {
  tenantId: string;
  appKey: string;
  appSecret: string;
  masterKey: string;
  productId: string;
}

const RESULT_CODES: Record<PlatformState, string> = {
  queued: "SAVED",
  sent: "SENT",
  delivered: "DELIVERED",
  executed: "SUCCESSFUL",
  failed: "FAILED",
  expired: "EXPIRED",
};

const header = (headers: IncomingMessage["headers"], name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * A local CTWing (AEP): the create-command API (aep_device_command/command, AEP-signed with the
 * application's key and secret and the product's MasterKey), and subscription pushes of
 * dataReport (APPdata Base64) and commandResponse (taskId, result.resultCode), signed the same way.
 */
export class CtwingDouble extends PlatformDouble {
  readonly platform = "ctwing" as const;
  private sequence = 0;

  constructor(
    transport: PushTransport,
    private readonly app: CtwingApplication,
  ) {
    super(transport);
  }

  protected handle(method: string, url: URL, headers: IncomingMessage["headers"], body: string): HttpAnswer {
    if (method !== "POST" || url.pathname !== "/aep_device_command/command")
      return { status: 404, body: { code: 404, msg: "no such API" } };
    const application = header(headers, "application") ?? "";
    const timestamp = header(headers, "timestamp") ?? "";
    const signature = header(headers, "signature") ?? "";
    const expected = ctwingSignature({ application, timestamp, secret: this.app.appSecret, body });
    if (
      !sameText(application, this.app.appKey) ||
      !sameText(signature, expected) ||
      !sameText(header(headers, "masterkey") ?? "", this.app.masterKey)
    )
      return { status: 403, body: { code: 1005, msg: "signature or MasterKey invalid" } };
    const request = JSON.parse(body) as {
      deviceId?: string;
      ttl?: number;
      productId?: number;
      content?: { payload?: string; dataType?: number };
    };
    if (
      !request.deviceId ||
      !this.meters.has(request.deviceId) ||
      String(request.productId) !== this.app.productId
    )
      return { status: 200, body: { code: 2001, msg: "device not found" } };
    if (request.content?.dataType !== 2 || !/^[0-9A-Fa-f]+$/.test(request.content.payload ?? ""))
      return { status: 200, body: { code: 2002, msg: "payload must be hex (dataType 2)" } };
    const held = this.hold(
      request.deviceId,
      Uint8Array.from(Buffer.from(request.content.payload ?? "", "hex")),
      request.ttl ?? 7200,
    );
    return {
      status: 200,
      body: { code: 0, msg: "ok", result: { commandId: held.id, commandStatus: "指令已保存" } },
    };
  }

  private signed(body: Record<string, unknown>): OutgoingPush {
    const text = JSON.stringify(body);
    const timestamp = String(Date.now());
    return {
      path: `/api/blade-pms/iot/push/ctwing/${this.app.tenantId}`,
      headers: {
        application: this.app.appKey,
        timestamp,
        signature: ctwingSignature({
          application: this.app.appKey,
          timestamp,
          secret: this.app.appSecret,
          body: text,
        }),
      },
      body: text,
    };
  }

  protected reportPush(meter: SleepingWaterMeter, frame: Uint8Array, at: Date): OutgoingPush {
    this.sequence++;
    return this.signed({
      upPacketSN: this.sequence,
      upDataSN: this.sequence,
      topic: "v1/up/ad",
      timestamp: at.getTime(),
      tenantId: "2000000001",
      serviceId: "",
      protocol: "lwm2m",
      productId: this.app.productId,
      messageType: "dataReport",
      deviceId: meter.deviceId,
      payload: { APPdata: Buffer.from(frame).toString("base64") },
      IMEI: meter.deviceId,
    });
  }

  protected statePush(command: HeldCommand, at: Date): OutgoingPush {
    return this.signed({
      taskId: command.id,
      result: { resultCode: RESULT_CODES[command.state], resultDetail: {} },
      messageType: "commandResponse",
      deviceId: command.deviceId,
      productId: this.app.productId,
      tenantId: "2000000001",
      protocol: "lwm2m",
      timestamp: at.getTime(),
      IMEI: command.deviceId,
    });
  }
}
