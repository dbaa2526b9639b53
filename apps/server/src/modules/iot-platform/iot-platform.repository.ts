import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { PlatformConfig } from "./platform-clients.ts";
import type { PlatformState } from "./platform-pushes.ts";
import type { Platform } from "./platform-signing.ts";

interface ConfigRow {
  platform: Platform;
  base_url: string;
  app_id: string;
  app_secret: string;
  push_token: string;
  account: string | null;
  auth_url: string | null;
}

/** The tenant's configuration of a platform, secrets still encrypted; undefined when none. */
export async function storedConfig(db: Queryable, tenantId: string, platform: Platform) {
  const [row] = await db.query<ConfigRow>(
    `select platform, base_url, app_id, app_secret, push_token, account, auth_url
       from pms_iot_platform where tenant_id = $1 and platform = $2`,
    [tenantId, platform],
  );
  return row;
}

/** The configuration with its secrets opened; undefined when none, or no key here opens them. */
export async function openConfig(
  db: Queryable,
  cipher: FieldCipher,
  tenantId: string,
  platform: Platform,
): Promise<PlatformConfig | undefined> {
  const row = await storedConfig(db, tenantId, platform);
  if (!row) return undefined;
  const appSecret = cipher.decrypt(row.app_secret);
  const pushToken = cipher.decrypt(row.push_token);
  if (appSecret === undefined || pushToken === undefined) return undefined;
  return {
    platform,
    baseUrl: row.base_url,
    appId: row.app_id,
    appSecret,
    pushToken,
    account: row.account,
    authUrl: row.auth_url,
  };
}

/** Saves a tenant's configuration; a secret left undefined keeps its stored value. */
export async function saveConfig(
  db: Queryable,
  tenantId: string,
  values: {
    platform: Platform;
    baseUrl: string;
    appId: string;
    appSecret?: string;
    pushToken?: string;
    account: string | null;
    authUrl: string | null;
  },
) {
  await db.query(
    `insert into pms_iot_platform (id, tenant_id, platform, base_url, app_id, app_secret, push_token, account, auth_url)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (tenant_id, platform) do update set
       base_url = excluded.base_url, app_id = excluded.app_id,
       app_secret = coalesce($10, pms_iot_platform.app_secret),
       push_token = coalesce($11, pms_iot_platform.push_token),
       account = excluded.account, auth_url = excluded.auth_url, update_time = now()`,
    [
      nextId(),
      tenantId,
      values.platform,
      values.baseUrl,
      values.appId,
      values.appSecret ?? "",
      values.pushToken ?? "",
      values.account,
      values.authUrl,
      values.appSecret ?? null,
      values.pushToken ?? null,
    ],
  );
}

export interface LinkedMeter {
  tenant_id: string;
  energy_type: 1 | 2;
  meter_id: string;
  product_code: string;
  platform: Platform;
  device_id: string;
}

const LINKED = `select d.tenant_id, d.energy_type, d.meter_id::text as meter_id, d.platform, d.device_id,
       coalesce(e.product_code, w.product_code) as product_code
  from pms_iot_device d
  left join pms_meter e on d.energy_type = 1 and e.id = d.meter_id and e.is_deleted = 0
  left join pms_water w on d.energy_type = 2 and w.id = d.meter_id and w.is_deleted = 0
 where coalesce(e.id, w.id) is not null`;

/** The meter a platform's device id names in a tenant. */
export async function meterOfDevice(db: Queryable, tenantId: string, platform: Platform, deviceId: string) {
  const [row] = await db.query<LinkedMeter>(
    `${LINKED} and d.tenant_id = $1 and d.platform = $2 and d.device_id = $3`,
    [tenantId, platform, deviceId],
  );
  return row;
}

/**
 * Links a tenant's meter to its platform device (replacing its earlier link). Another device starts
 * its report history afresh; the same link saved again keeps it, and with it the expected wake.
 */
export async function linkDevice(
  db: Queryable,
  link: { tenantId: string; energyType: 1 | 2; meterId: string; platform: Platform; deviceId: string },
) {
  const same =
    "pms_iot_device.platform = excluded.platform and pms_iot_device.device_id = excluded.device_id";
  await db.query(
    `insert into pms_iot_device (id, tenant_id, energy_type, meter_id, platform, device_id)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (tenant_id, energy_type, meter_id) do update set platform = excluded.platform,
       device_id = excluded.device_id,
       last_report_time = case when ${same} then pms_iot_device.last_report_time end,
       report_interval_seconds = case when ${same} then pms_iot_device.report_interval_seconds end`,
    [nextId(), link.tenantId, link.energyType, link.meterId, link.platform, link.deviceId],
  );
}

/** A tenant's meter's link to its platform device, with its last report; undefined when it has none. */
export async function deviceOfMeter(db: Queryable, tenantId: string, energyType: 1 | 2, meterId: string) {
  const [row] = await db.query<{
    platform: Platform;
    device_id: string;
    last_report_time: Date | null;
    report_interval_seconds: number | null;
  }>(
    `select platform, device_id, last_report_time, report_interval_seconds
       from pms_iot_device where tenant_id = $1 and energy_type = $2 and meter_id = $3`,
    [tenantId, energyType, meterId],
  );
  return row;
}

/** Stores a push once; false when the same push was stored before (a platform's retry). */
export async function storePushOnce(
  db: Queryable,
  push: {
    tenantId: string;
    platform: Platform;
    key: string;
    kind: string;
    deviceId: string | null;
    body: string;
  },
): Promise<boolean> {
  const rows = await db.query(
    `insert into pms_iot_push (id, tenant_id, platform, push_key, kind, device_id, body)
     values ($1, $2, $3, $4, $5, $6, $7) on conflict (tenant_id, platform, push_key) do nothing returning id`,
    [nextId(), push.tenantId, push.platform, push.key, push.kind, push.deviceId, push.body],
  );
  return rows.length === 1;
}

/** Removes a stored push that could not be applied. */
export async function forgetPush(db: Queryable, tenantId: string, platform: Platform, key: string) {
  await db.query("delete from pms_iot_push where tenant_id = $1 and platform = $2 and push_key = $3", [
    tenantId,
    platform,
    key,
  ]);
}

/** A report's time: the device's last report and, from the one before, how often it wakes. */
export async function noteReport(
  db: Queryable,
  tenantId: string,
  meterId: string,
  energyType: number,
  at: Date,
) {
  await db.query(
    `update pms_iot_device set
       report_interval_seconds = case when last_report_time is not null and $4 > last_report_time
         then extract(epoch from ($4 - last_report_time))::int else report_interval_seconds end,
       last_report_time = greatest(last_report_time, $4)
     where tenant_id = $1 and meter_id = $2 and energy_type = $3`,
    [tenantId, meterId, energyType, at],
  );
}

export interface WaitingCommand {
  id: string;
  tenant_id: string;
  meter_id: string;
  energy_type: 1 | 2;
  command_type: string;
  payload: string;
  platform_state: PlatformState | null;
}

/** Supply commands queued for meters that reach Meterline through a platform, oldest first. */
export async function queuedPlatformCommands(db: Queryable, limit: number) {
  return db.query<WaitingCommand & LinkedMeter>(
    `select c.id::text as id, c.command_type, c.payload, c.platform_state, l.*
       from pms_meter_command c
       join (${LINKED}) l on l.tenant_id = c.tenant_id and l.energy_type = c.energy_type
                         and l.meter_id = c.meter_id::text
      where c.state = 'queued'
      order by c.create_time, c.id limit $1`,
    [limit],
  );
}

/** Marks a queued command as being handed to its platform; false when another process took it. */
export async function takeForPlatform(db: Queryable, id: string, platform: Platform) {
  const rows = await db.query(
    `update pms_meter_command set platform = $2, claimed_by = 'iot-platform', claimed_until = now()
      where id = $1 and state = 'queued' and platform is null returning id`,
    [id, platform],
  );
  return rows.length === 1;
}

/** Records what the platform answered: its command id, state and the expiry it holds the command to. */
export async function notePlatformCommand(
  db: Queryable,
  id: string,
  accepted: { commandId: string; state: PlatformState; expiresAt: Date },
) {
  await db.query(
    `update pms_meter_command set platform_command_id = $2, platform_state = $3, expires_at = $4 where id = $1`,
    [id, accepted.commandId, accepted.state, accepted.expiresAt],
  );
}

/** The unsettled command a platform knows by its id, in the tenant. */
export async function commandByPlatformId(
  db: Queryable,
  tenantId: string,
  platform: Platform,
  commandId: string,
) {
  const [row] = await db.query<WaitingCommand & { state: string }>(
    `select id::text as id, tenant_id, meter_id::text as meter_id, energy_type, command_type, payload,
            platform_state, state
       from pms_meter_command where tenant_id = $1 and platform = $2 and platform_command_id = $3`,
    [tenantId, platform, commandId],
  );
  return row;
}

/** Order of the platform's states: a late callback never moves a command back. */
const RANK: Record<PlatformState, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  executed: 3,
  failed: 3,
  expired: 3,
};

export async function setPlatformState(
  db: Queryable,
  id: string,
  from: PlatformState | null,
  to: PlatformState,
) {
  if (from && RANK[from] >= RANK[to]) return false;
  const rows = await db.query(
    "update pms_meter_command set platform_state = $2 where id = $1 and platform_state is not distinct from $3 returning id",
    [id, to, from],
  );
  return rows.length === 1;
}

/** A meter's supply commands still waiting at its platform. */
export async function waitingSupplyCommands(
  db: Queryable,
  tenantId: string,
  energyType: number,
  meterId: string,
) {
  return db.query<WaitingCommand>(
    `select id::text as id, tenant_id, meter_id::text as meter_id, energy_type, command_type, payload, platform_state
       from pms_meter_command
      where tenant_id = $1 and energy_type = $2 and meter_id = $3 and platform is not null and state = 'sent'
        and command_type in ('valve', 'switch') order by id`,
    [tenantId, energyType, meterId],
  );
}

/** Commands whose platform expiry has passed without an outcome. */
export async function lapsedCommands(db: Queryable, now: Date) {
  return db.query<WaitingCommand>(
    `select id::text as id, tenant_id, meter_id::text as meter_id, energy_type, command_type, payload, platform_state
       from pms_meter_command where platform is not null and state = 'sent' and expires_at < $1 limit 500`,
    [now],
  );
}
