import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { PlatformState } from "../platform-pushes.ts";
import { sameText } from "../platform-signing.ts";
import {
  type HeldCommand,
  type HttpAnswer,
  type OutgoingPush,
  PlatformDouble,
  type PushTransport,
} from "./platform-double.ts";
import type { SleepingWaterMeter } from "./sleeping-meter.ts";

/** The IAM user and project of the application, and the token its forwarding rule's URL carries. */
export interface IotdaProject {
  tenantId: string;
  projectId: string;
  user: string;
  domain: string;
  password: string;
  pushToken: string;
}

const STATUSES: Record<PlatformState, string> = {
  queued: "PENDING",
  sent: "SENT",
  delivered: "DELIVERED",
  executed: "SUCCESSFUL",
  failed: "FAILED",
  expired: "EXPIRED",
};

/** IoTDA's compact UTC time. */
const compact = (at: Date) => `${at.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/**
 * A local Huawei IoTDA with its IAM: tokens (POST /v3/auth/tokens, password method, the token in
 * X-Subject-Token), asynchronous commands (v5 async-commands, X-Auth-Token) held for the NB-IoT
 * device, and HTTP forwarding of device.message reports and device.command.status updates.
 */
export class IotdaDouble extends PlatformDouble {
  readonly platform = "iotda" as const;
  private readonly tokens = new Set<string>();

  constructor(
    transport: PushTransport,
    private readonly project: IotdaProject,
  ) {
    super(transport);
  }

  protected handle(method: string, url: URL, headers: IncomingMessage["headers"], body: string): HttpAnswer {
    if (method === "POST" && url.pathname === "/v3/auth/tokens") return this.issueToken(body);
    const match = /^\/v5\/iot\/([^/]+)\/devices\/([^/]+)\/async-commands$/.exec(url.pathname);
    if (method !== "POST" || !match) return { status: 404, body: { error_code: "IOTDA.000404" } };
    if (!this.tokens.has(String(headers["x-auth-token"] ?? "")))
      return { status: 401, body: { error_code: "IOTDA.000002", error_msg: "token invalid" } };
    const deviceId = decodeURIComponent(match[2] ?? "");
    if (decodeURIComponent(match[1] ?? "") !== this.project.projectId || !this.meters.has(deviceId))
      return { status: 404, body: { error_code: "IOTDA.014000", error_msg: "device not found" } };
    const request = JSON.parse(body) as {
      paras?: { rawData?: string };
      expire_time?: number;
      send_strategy?: string;
    };
    if (request.send_strategy !== "delay" || typeof request.paras?.rawData !== "string")
      return { status: 400, body: { error_code: "IOTDA.000006", error_msg: "invalid command" } };
    const held = this.hold(
      deviceId,
      Uint8Array.from(Buffer.from(request.paras.rawData, "base64")),
      request.expire_time ?? 86400,
    );
    return {
      status: 201,
      body: {
        device_id: deviceId,
        command_id: held.id,
        status: "PENDING",
        created_time: compact(new Date()),
      },
    };
  }

  private issueToken(body: string): HttpAnswer {
    const auth = (
      JSON.parse(body) as {
        auth?: {
          identity?: {
            password?: { user?: { name?: string; password?: string; domain?: { name?: string } } };
          };
          scope?: { project?: { id?: string } };
        };
      }
    ).auth;
    const user = auth?.identity?.password?.user;
    if (
      user?.name !== this.project.user ||
      user.domain?.name !== this.project.domain ||
      !sameText(user.password ?? "", this.project.password) ||
      auth?.scope?.project?.id !== this.project.projectId
    )
      return { status: 401, body: { error: { code: 401, message: "The username or password is wrong." } } };
    const token = randomBytes(24).toString("base64url");
    this.tokens.add(token);
    return {
      status: 201,
      body: { token: { expires_at: new Date(Date.now() + 86400_000).toISOString() } },
      headers: { "x-subject-token": token },
    };
  }

  private forwarded(
    resource: string,
    event: string,
    deviceId: string,
    at: Date,
    body: Record<string, unknown>,
  ): OutgoingPush {
    return {
      path: `/api/blade-pms/iot/push/iotda/${this.project.tenantId}?token=${encodeURIComponent(this.project.pushToken)}`,
      headers: {},
      body: JSON.stringify({
        resource,
        event,
        event_time: compact(at),
        notify_data: {
          header: { device_id: deviceId, product_id: "nb-water", app_id: this.project.projectId },
          body,
        },
      }),
    };
  }

  protected reportPush(meter: SleepingWaterMeter, frame: Uint8Array, at: Date): OutgoingPush {
    return this.forwarded("device.message", "report", meter.deviceId, at, {
      topic: "",
      content: Buffer.from(frame).toString("base64"),
    });
  }

  protected statePush(command: HeldCommand, at: Date): OutgoingPush {
    return this.forwarded("device.command.status", "update", command.deviceId, at, {
      command_id: command.id,
      status: STATUSES[command.state],
      created_time: compact(at),
    });
  }
}
