import type { PlatformState } from "./platform-pushes.ts";
import { ctwingSignature, onenetApiToken, type Platform } from "./platform-signing.ts";

/** A tenant's platform configuration with its secrets opened (never returned to a caller). */
export interface PlatformConfig {
  platform: Platform;
  baseUrl: string;
  appId: string;
  appSecret: string;
  pushToken: string;
  account: string | null;
  authUrl: string | null;
}

/** A command the platform accepted: its id there and the state it reported. */
export interface AcceptedCommand {
  commandId: string;
  state: PlatformState;
}

export interface CommandRequest {
  deviceId: string;
  frame: Uint8Array;
  /** How long the platform holds the command for a sleeping meter. */
  ttlSeconds: number;
}

const TIMEOUT_MS = 10_000;

async function postJson(url: string, headers: Record<string, string>, body: unknown) {
  const text = JSON.stringify(body);
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: text,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const answer = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${answer.slice(0, 200)}`);
  return { answer: JSON.parse(answer) as Record<string, unknown>, headers: response.headers };
}

/**
 * CTWing AEP "create command" (aep_device_command, version 20190712): signed with the application's
 * key and secret (ctwingSignature over the body), the product's MasterKey, the frame as hex
 * (dataType 2) held ttl seconds for the device.
 */
async function ctwingCommand(config: PlatformConfig, request: CommandRequest): Promise<AcceptedCommand> {
  const body = {
    content: { payload: Buffer.from(request.frame).toString("hex").toUpperCase(), dataType: 2 },
    deviceId: request.deviceId,
    operator: "meterline",
    productId: Number(config.account),
    ttl: request.ttlSeconds,
    level: 1,
  };
  const timestamp = String(Date.now());
  const { answer } = await postJson(
    `${config.baseUrl}/aep_device_command/command`,
    {
      application: config.appId,
      timestamp,
      version: "20190712",
      MasterKey: config.pushToken,
      signature: ctwingSignature({
        application: config.appId,
        timestamp,
        secret: config.appSecret,
        body: JSON.stringify(body),
      }),
    },
    body,
  );
  const result = answer.result as { commandId?: unknown } | undefined;
  if (answer.code !== 0 || result?.commandId === undefined)
    throw new Error(`CTWing refused the command: ${String(answer.msg)}`);
  return { commandId: String(result.commandId), state: "queued" };
}

/**
 * OneNET NB-IoT cached command (nb-iot/execute/cache): the frame as hex in args, written to the
 * transparent resource when the device next wakes, held until expired_time; authorised by the
 * product's access-key token.
 */
async function onenetCommand(config: PlatformConfig, request: CommandRequest): Promise<AcceptedCommand> {
  const expired = new Date(Date.now() + request.ttlSeconds * 1000).toISOString().slice(0, 19);
  const query = new URLSearchParams({
    product_id: config.appId,
    device_name: request.deviceId,
    obj_id: "3200",
    obj_inst_id: "0",
    res_id: "5750",
    expired_time: expired,
  });
  const { answer } = await postJson(
    `${config.baseUrl}/nb-iot/execute/cache?${query}`,
    {
      authorization: onenetApiToken({
        res: `products/${config.appId}`,
        accessKey: config.appSecret,
        expiresAt: Date.now() + 3600_000,
      }),
    },
    { args: Buffer.from(request.frame).toString("hex").toUpperCase() },
  );
  const data = answer.data as { uuid?: unknown } | undefined;
  if (answer.code !== 0 || typeof data?.uuid !== "string")
    throw new Error(`OneNET refused the command: ${String(answer.msg)}`);
  return { commandId: data.uuid, state: "queued" };
}

/** IAM tokens by user and project, reused until an hour before they lapse (they live 24 hours). */
const iamTokens = new Map<string, { token: string; until: number }>();

/** An IAM token (POST /v3/auth/tokens, password method, project scope): X-Subject-Token. */
async function iamToken(config: PlatformConfig): Promise<string> {
  const [user = "", domain = user] = (config.account ?? "").split("@");
  const key = `${config.authUrl}|${config.account}|${config.appId}`;
  const cached = iamTokens.get(key);
  if (cached && cached.until > Date.now()) return cached.token;
  const { headers } = await postJson(
    `${config.authUrl}/v3/auth/tokens`,
    {},
    {
      auth: {
        identity: {
          methods: ["password"],
          password: { user: { name: user, password: config.appSecret, domain: { name: domain } } },
        },
        scope: { project: { id: config.appId } },
      },
    },
  );
  const token = headers.get("x-subject-token");
  if (!token) throw new Error("IAM answered without X-Subject-Token");
  iamTokens.set(key, { token, until: Date.now() + 23 * 3600_000 });
  return token;
}

/**
 * IoTDA asynchronous command (v5 async-commands, send_strategy delay): held for the NB-IoT device
 * until it wakes, for expire_time seconds; the frame Base64 as the raw parameter.
 */
async function iotdaCommand(config: PlatformConfig, request: CommandRequest): Promise<AcceptedCommand> {
  const token = await iamToken(config);
  const { answer } = await postJson(
    `${config.baseUrl}/v5/iot/${encodeURIComponent(config.appId)}/devices/${encodeURIComponent(request.deviceId)}/async-commands`,
    { "x-auth-token": token },
    {
      paras: { rawData: Buffer.from(request.frame).toString("base64") },
      expire_time: request.ttlSeconds,
      send_strategy: "delay",
    },
  );
  if (typeof answer.command_id !== "string") throw new Error("IoTDA answered without command_id");
  return { commandId: answer.command_id, state: "queued" };
}

export function sendPlatformCommand(
  config: PlatformConfig,
  request: CommandRequest,
): Promise<AcceptedCommand> {
  if (config.platform === "ctwing") return ctwingCommand(config, request);
  if (config.platform === "onenet") return onenetCommand(config, request);
  return iotdaCommand(config, request);
}
