import { randomBytes } from "node:crypto";
import { type ResourceDef, resources } from "@meterline/contracts";
import type { FieldCipher } from "../crud/field-cipher.ts";
import { readInput } from "../crud/input.ts";
import { ResourceStore } from "../crud/store.ts";
import type { Db, Queryable } from "../db/client.ts";
import { serviceUser } from "../modules/auth/current-user.ts";
import { CtwingDouble } from "../modules/iot-platform/double/ctwing-double.ts";
import { IotdaDouble } from "../modules/iot-platform/double/iotda-double.ts";
import { OnenetDouble } from "../modules/iot-platform/double/onenet-double.ts";
import { fetchTransport, type PlatformDouble } from "../modules/iot-platform/double/platform-double.ts";
import { SleepingWaterMeter } from "../modules/iot-platform/double/sleeping-meter.ts";
import { linkDevice, openConfig, saveConfig } from "../modules/iot-platform/iot-platform.repository.ts";
import type { Platform } from "../modules/iot-platform/platform-signing.ts";
import { openAccount } from "../modules/money/account-opening.ts";
import { DEMO_TENANT_ID } from "./demo-site.ts";

const AREA = "6号楼(NB-IoT)";
/** One NB-IoT water meter per platform, in rooms of their own building. */
const METERS: { platform: Platform; room: string; address: string; deviceId: string; owner: string }[] = [
  {
    platform: "ctwing",
    room: "101",
    address: "30260000000001",
    deviceId: "868000000000001",
    owner: "电信 孙丽",
  },
  {
    platform: "onenet",
    room: "102",
    address: "30260000000002",
    deviceId: "868000000000002",
    owner: "移动 周强",
  },
  {
    platform: "iotda",
    room: "103",
    address: "30260000000003",
    deviceId: "868000000000003",
    owner: "华为 吴敏",
  },
];
/** Made-up platform identities in each platform's shapes. */
const IDS = {
  ctwingProduct: "15000001",
  onenetProduct: "DemoNbW",
  iotdaProject: "0demo0000000000000000000000000nb",
};

export interface DemoNbiot {
  doubles: PlatformDouble[];
  close(): Promise<void>;
}

/**
 * The demo's NB-IoT water meters (issue 38): a building of three rooms whose meters report through
 * local doubles of CTWing, OneNET and IoTDA every `wakeMs`, drawing water between wakes. Their
 * accounts open with a small deposit under an alarm scheme without protection windows, so the
 * first start shows a valve closed for arrears through the platform's queue (delivered at the
 * meter's next wake) and reopened the same way after a recharge. Secrets are made on the first
 * start and kept encrypted; the doubles' addresses are rewritten at every start.
 */
export async function startDemoNbiot(
  db: Db,
  cipher: FieldCipher,
  serverBase: string,
  log: (message: string) => void,
  wakeMs = 3 * 60_000,
): Promise<DemoNbiot> {
  const secrets = await platformSecrets(db, cipher);
  const transport = fetchTransport(serverBase);
  const ctwing = new CtwingDouble(transport, {
    tenantId: DEMO_TENANT_ID,
    appKey: "demo-ctwing-app",
    appSecret: secrets.ctwing.appSecret,
    masterKey: secrets.ctwing.pushToken,
    productId: IDS.ctwingProduct,
  });
  const onenet = new OnenetDouble(transport, {
    tenantId: DEMO_TENANT_ID,
    productId: IDS.onenetProduct,
    accessKey: secrets.onenet.appSecret,
    pushToken: secrets.onenet.pushToken,
  });
  const iotda = new IotdaDouble(transport, {
    tenantId: DEMO_TENANT_ID,
    projectId: IDS.iotdaProject,
    user: "demo",
    domain: "demo",
    password: secrets.iotda.appSecret,
    pushToken: secrets.iotda.pushToken,
  });
  const doubles: Record<Platform, PlatformDouble> = { ctwing, onenet, iotda };
  for (const [platform, double] of Object.entries(doubles) as [Platform, PlatformDouble][]) {
    const url = await double.start();
    await saveConfig(db, DEMO_TENANT_ID, {
      platform,
      baseUrl: url,
      appId:
        platform === "ctwing"
          ? "demo-ctwing-app"
          : platform === "onenet"
            ? IDS.onenetProduct
            : IDS.iotdaProject,
      appSecret: cipher.encrypt(secrets[platform].appSecret),
      pushToken: cipher.encrypt(secrets[platform].pushToken),
      account: platform === "ctwing" ? IDS.ctwingProduct : platform === "iotda" ? "demo@demo" : null,
      authUrl: platform === "iotda" ? url : null,
    });
  }
  const meters = await demoMeters(db);
  for (const planned of METERS) {
    const meter = meters.get(planned.address);
    if (!meter) continue;
    const sleeping = new SleepingWaterMeter(planned.deviceId, planned.address, meter.volume ?? "10.00");
    // The valve as last known: a restart does not reopen a valve closed for arrears.
    if (meter.switchStatus === 1) sleeping.valve = "closed";
    doubles[planned.platform].addMeter(sleeping);
  }
  let turn = 0;
  const wakeOne = async () => {
    const planned = METERS[turn++ % METERS.length]!;
    const double = doubles[planned.platform];
    const meter = double.meters.get(planned.deviceId);
    if (!meter) return;
    // About a day's use of a flat between wakes, so that the demo moves in minutes.
    meter.draw(30 + Math.floor(Math.random() * 20));
    await double.wake(planned.deviceId);
  };
  // The three meters wake in turn, each every `wakeMs`.
  const timer = setInterval(
    () => wakeOne().catch((error: unknown) => log(`demo NB-IoT wake failed: ${(error as Error).message}`)),
    Math.max(1000, Math.floor(wakeMs / METERS.length)),
  );
  timer.unref();
  return {
    doubles: Object.values(doubles),
    async close() {
      clearInterval(timer);
      await Promise.all(Object.values(doubles).map((double) => double.stop()));
    },
  };
}

type Secrets = Record<Platform, { appSecret: string; pushToken: string }>;

/** The platforms' secrets as stored on an earlier start, else new ones. */
async function platformSecrets(db: Db, cipher: FieldCipher): Promise<Secrets> {
  const made = (platform: Platform) => ({
    // OneNET's access key is Base64 of its bytes.
    appSecret:
      platform === "onenet" ? randomBytes(32).toString("base64") : randomBytes(18).toString("base64url"),
    pushToken: randomBytes(18).toString("base64url"),
  });
  const secrets = {} as Secrets;
  for (const platform of ["ctwing", "onenet", "iotda"] as const) {
    const stored = await openConfig(db, cipher, DEMO_TENANT_ID, platform);
    secrets[platform] = stored
      ? { appSecret: stored.appSecret, pushToken: stored.pushToken }
      : made(platform);
  }
  return secrets;
}

/** The demo's NB-IoT meters by address, registered (with rooms, owners and accounts) on the first start. */
async function demoMeters(db: Db) {
  const existing = await db.query(
    "select 1 from pms_area where tenant_id = $1 and area_name = $2 and is_deleted = 0",
    [DEMO_TENANT_ID, AREA],
  );
  if (existing.length === 0) await db.transaction((tx) => registerMeters(tx));
  const rows = await db.query<{
    product_code: string;
    switch_status: number | null;
    total_value: string | null;
  }>(
    `select w.product_code, w.switch_status, c.total_value::text as total_value
       from pms_water w
       left join pms_meter_current_data c on c.tenant_id = w.tenant_id and c.meter_id = w.id and c.energy_type = 2
      where w.tenant_id = $1 and w.product_code = any($2::text[]) and w.is_deleted = 0`,
    [DEMO_TENANT_ID, METERS.map((m) => m.address)],
  );
  return new Map(
    rows.map((r) => [r.product_code, { switchStatus: r.switch_status, volume: r.total_value ?? undefined }]),
  );
}

async function registerMeters(tx: Queryable) {
  const user = serviceUser(DEMO_TENANT_ID, "demo", { realName: "演示数据" });
  const insert = (def: ResourceDef, body: Record<string, unknown>) =>
    new ResourceStore(tx, def).insert(readInput(def, body, "create", "Asia/Shanghai"), user, DEMO_TENANT_ID);
  const [park] = await tx.query<{ id: string }>(
    "select id::text as id from pms_area where tenant_id = $1 and parent_id = 0 and is_deleted = 0 order by id limit 1",
    [DEMO_TENANT_ID],
  );
  const [price] = await tx.query<{ id: string }>(
    "select id::text as id from pms_charging_scheme where tenant_id = $1 and energy_type = 2 and is_deleted = 0 order by id limit 1",
    [DEMO_TENANT_ID],
  );
  // Cut at once, at any hour: the demo shows the queue's delay, not a protection window's.
  const alarm = await insert(resources.alarmScheme, {
    schemeName: "NB-IoT 用水告警",
    energyType: 2,
    firstAlarm: "3.00",
    secondAlarm: "1.00",
    arrearsLimit: "0.00",
    mergeAlarmFlag: 0,
    tripOnArrears: 1,
    notifyChannels: "console",
  });
  const area = await insert(resources.area, {
    parentId: park?.id ?? "0",
    areaName: AREA,
    areaType: 2,
    sort: 6,
  });
  await tx.query("update pms_area set ancestors = $2 where id = $1", [area, park ? `0,${park.id}` : "0"]);
  for (const [i, planned] of METERS.entries()) {
    const room = await insert(resources.room, {
      areaId: area,
      roomName: planned.room,
      roomCode: `6-${planned.room}`,
      roomType: 1,
    });
    const owner = await insert(resources.owner, { ownerName: planned.owner, ownerCode: `NB${i + 1}` });
    await insert(resources.ownerRoom, { ownerId: owner, roomId: room, checkInTime: "2026-01-01 09:00:00" });
    const meterId = await insert(resources.water, {
      productCode: planned.address,
      meterName: `NB-IoT 水表 ${planned.room}`,
      runStatus: 3,
      protocol: "cjt188_2004",
      installTime: "2026-01-01 08:00:00",
      chargingSchemeId: price?.id,
      alarmSchemeId: alarm,
    });
    await insert(resources.roomMeter, { roomId: room, energyType: 2, meterId });
    await linkDevice(tx, {
      tenantId: DEMO_TENANT_ID,
      energyType: 2,
      meterId,
      platform: planned.platform,
      deviceId: planned.deviceId,
    });
    // Five yuan: a few wakes of use before the valve closes for arrears.
    await openAccount(
      tx,
      DEMO_TENANT_ID,
      { energyType: 2, meterId, deposit: 500n },
      { name: "演示数据" },
      "Asia/Shanghai",
    );
  }
}
