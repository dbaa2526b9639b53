import type { CommandState, MeterReading } from "@meterline/gateway";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { DbCommandSource } from "../metering/command-source.db.ts";
import { DbReadingsSink } from "../metering/readings-sink.db.ts";
import { paramValue } from "../param/param-values.ts";
import {
  commandByPlatformId,
  forgetPush,
  lapsedCommands,
  meterOfDevice,
  notePlatformCommand,
  noteReport,
  openConfig,
  queuedPlatformCommands,
  setPlatformState,
  storePushOnce,
  takeForPlatform,
  waitingSupplyCommands,
} from "./iot-platform.repository.ts";
import {
  commandFrame,
  decodeReportFrame,
  decodeServiceData,
  type MeterReport,
  payloadBytes,
} from "./payload-frames.ts";
import { sendPlatformCommand } from "./platform-clients.ts";
import { type PushEvent, PushRefused, type ReceivedPush, verifyPush } from "./platform-pushes.ts";
import type { Platform } from "./platform-signing.ts";

/** The tenant parameter (sys_param) of how many hours a platform holds a command for a sleeping meter. */
export const EXPIRY_PARAM = "iot.commandExpiryHours";
const DEFAULT_EXPIRY_HOURS = 48;

export interface IotDeps {
  db: Db;
  cipher: FieldCipher;
  timeZone: string;
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** Hours the tenant's commands wait at the platform: its parameter, 1 to 720, else 48. */
export async function expiryHours(deps: IotDeps, tenantId: string): Promise<number> {
  const value = Number(await paramValue(deps.db, EXPIRY_PARAM, tenantId));
  return Number.isInteger(value) && value >= 1 && value <= 720 ? value : DEFAULT_EXPIRY_HOURS;
}

/** Whether a report's valve or relay is what a supply command asked for. */
function supplyMatches(command: { command_type: string; payload: string }, on: boolean | undefined) {
  if (on === undefined) return false;
  const payload = JSON.parse(command.payload) as { open?: boolean; switchType?: number };
  if (command.command_type === "valve") return payload.open === on;
  return (payload.switchType === 1 && on) || (payload.switchType === 2 && !on);
}

const settle = (deps: IotDeps, id: string, state: CommandState, at: Date, detail: string) =>
  new DbCommandSource(deps.db).update({ commandId: id, state, at, evidence: { detail } });

/**
 * A platform's push (design: modules/iot-platform): refused unless its signature or token holds
 * (nothing stored then), stored once by its key (a retried push changes nothing), then each event
 * applied: a report goes through the gateway's readings sink and settles a waiting supply command
 * whose outcome it reads back; a command callback moves the command's platform state, and
 * executed, failed and expired settle it.
 */
export async function handlePush(
  deps: IotDeps,
  platform: Platform,
  tenantId: string,
  push: ReceivedPush,
  now = new Date(),
) {
  const config = await openConfig(deps.db, deps.cipher, tenantId, platform);
  if (!config) throw new PushRefused(403, "no configuration of this platform");
  const verified = verifyPush(platform, push, config, now);
  const first = verified.events[0];
  const stored = await storePushOnce(deps.db, {
    tenantId,
    platform,
    key: verified.key,
    kind: first?.kind ?? "other",
    deviceId: first?.deviceId ?? null,
    body: push.body,
  });
  if (!stored) return { duplicate: true, applied: 0 };
  let applied = 0;
  try {
    for (const event of verified.events) if (await applyEvent(deps, platform, tenantId, event)) applied++;
  } catch (error) {
    // Not applied: forget the push so that the platform's retry (it retries what we fail) applies it.
    await forgetPush(deps.db, tenantId, platform, verified.key);
    throw error;
  }
  return { duplicate: false, applied };
}

async function applyEvent(deps: IotDeps, platform: Platform, tenantId: string, event: PushEvent) {
  if (event.kind === "command") return applyCommandState(deps, platform, tenantId, event);
  const meter = await meterOfDevice(deps.db, tenantId, platform, event.deviceId);
  let report: MeterReport | undefined;
  if (meter && typeof event.payload === "string") {
    const bytes = payloadBytes(event.payload);
    report = bytes && decodeReportFrame(bytes);
  } else if (meter && typeof event.payload === "object")
    report = decodeServiceData(meter.product_code, event.payload);
  // A frame names its meter: one from another meter (a device moved without its link) is not this one's.
  if (report && typeof event.payload === "string" && report.address !== meter?.product_code) {
    deps.log("iot platform frame of another meter", {
      platform,
      tenantId,
      deviceId: event.deviceId,
      address: report.address,
    });
    return false;
  }
  if (!meter || !report) {
    deps.log("iot platform report not applied", {
      platform,
      tenantId,
      deviceId: event.deviceId,
      known: !!meter,
    });
    return false;
  }
  const reading: MeterReading = {
    meterId: meter.meter_id,
    address: meter.product_code,
    at: event.at,
    missing: [],
    ...(report.volume !== undefined ? { volume: report.volume } : {}),
    ...(report.valve !== undefined ? { valve: report.valve } : {}),
    ...(report.batteryLow !== undefined ? { batteryLow: report.batteryLow } : {}),
    ...(report.energyTotal !== undefined ? { energy: { total: report.energyTotal, tariffs: [] } } : {}),
  };
  await new DbReadingsSink(deps.db, deps.timeZone).record(reading);
  await noteReport(deps.db, tenantId, meter.meter_id, meter.energy_type, event.at);
  // A lost callback costs nothing: the report shows the valve as the command left it.
  const on = report.valve === "open" ? true : report.valve === "closed" ? false : undefined;
  for (const command of await waitingSupplyCommands(deps.db, tenantId, meter.energy_type, meter.meter_id)) {
    if (!supplyMatches(command, on)) continue;
    await settle(
      deps,
      command.id,
      "success",
      event.at,
      `read back from the report of ${event.at.toISOString()}`,
    );
    await setPlatformState(deps.db, command.id, command.platform_state, "executed");
  }
  return true;
}

async function applyCommandState(
  deps: IotDeps,
  platform: Platform,
  tenantId: string,
  event: Extract<PushEvent, { kind: "command" }>,
) {
  const command = await commandByPlatformId(deps.db, tenantId, platform, event.commandId);
  if (!command) return false;
  if (!(await setPlatformState(deps.db, command.id, command.platform_state, event.state))) return false;
  if (command.state !== "sent") return true;
  if (event.state === "executed")
    await settle(deps, command.id, "success", event.at, `${platform}: executed`);
  if (event.state === "failed" || event.state === "expired")
    await settle(deps, command.id, "fail", event.at, `${platform}: ${event.state}`);
  return true;
}

/**
 * Hands queued supply commands of platform meters to their platform. The command is "sent" (so
 * no second supply command is queued while it waits) before the call; a platform that refuses it
 * fails it. Other commands cannot travel through a platform and fail at once.
 */
export async function dispatchQueued(deps: IotDeps, limit = 50): Promise<number> {
  let handed = 0;
  for (const row of await queuedPlatformCommands(deps.db, limit)) {
    if (!(await takeForPlatform(deps.db, row.id, row.platform))) continue;
    const now = new Date();
    if (row.command_type !== "valve" && row.command_type !== "switch") {
      await settle(deps, row.id, "fail", now, `${row.command_type} cannot be sent through ${row.platform}`);
      continue;
    }
    const config = await openConfig(deps.db, deps.cipher, row.tenant_id, row.platform);
    if (!config) {
      await settle(deps, row.id, "fail", now, `no ${row.platform} configuration`);
      continue;
    }
    const payload = JSON.parse(row.payload) as { open?: boolean; switchType?: number };
    const on = row.command_type === "valve" ? payload.open === true : payload.switchType !== 2;
    const hours = await expiryHours(deps, row.tenant_id);
    const expiresAt = new Date(now.getTime() + hours * 3600_000);
    const frame = commandFrame({
      energyType: row.energy_type,
      address: row.product_code,
      on,
      validUntil: expiresAt,
    });
    const request = Buffer.from(frame).toString("hex").toUpperCase();
    await new DbCommandSource(deps.db).update({
      commandId: row.id,
      state: "sent",
      at: now,
      evidence: { request, detail: `handed to ${row.platform}, held until the meter wakes` },
    });
    try {
      const accepted = await sendPlatformCommand(config, {
        deviceId: row.device_id,
        frame,
        ttlSeconds: hours * 3600,
      });
      await notePlatformCommand(deps.db, row.id, { ...accepted, expiresAt });
      handed++;
    } catch (error) {
      await settle(deps, row.id, "fail", new Date(), `${row.platform} refused: ${(error as Error).message}`);
    }
  }
  return handed;
}

/** Commands the platform held past their expiry with no outcome heard: expired, failed here. */
export async function expireLapsed(deps: IotDeps, now = new Date()): Promise<number> {
  let expired = 0;
  for (const command of await lapsedCommands(deps.db, now)) {
    await setPlatformState(deps.db, command.id, command.platform_state, "expired");
    await settle(deps, command.id, "fail", now, "expired at the platform before the meter woke");
    expired++;
  }
  return expired;
}
