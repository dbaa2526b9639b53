import { randomBytes } from "node:crypto";
import { type ResourceDef, resources } from "@meterline/contracts";
import {
  CARRIER_PORT,
  type MeterAnomaly,
  type MeterConditions,
  type PlannedMeter,
  planFleet,
} from "@meterline/simulator";
import type { FieldCipher } from "../crud/field-cipher.ts";
import { readInput } from "../crud/input.ts";
import { ResourceStore } from "../crud/store.ts";
import type { Db, Queryable } from "../db/client.ts";
import { serviceUser } from "../modules/auth/current-user.ts";
import { hashPassword, md5Hex } from "../modules/auth/password.ts";
import { sweep } from "../modules/suspects/suspects.service.ts";
import { provisionTenant } from "../modules/tenant/tenant.service.ts";
import type { DemoMeter } from "./demo-history.ts";
import { seedDemoPast } from "./demo-past.ts";
import { casesByAddress, type DemoCases, type DemoNode, demoCases } from "./demo-topology.ts";

/** The demo tenant's code, named in the README so people can sign in to it. */
export const DEMO_TENANT_ID = "100001";
/** The demo's zone: its days, nights and months are Beijing time. */
const DEMO_ZONE = "Asia/Shanghai";
/**
 * The simulated fleet the embedded demo runs: the registry's meters are exactly these. Beside the
 * rooms' meters, four Modbus-RTU DIN-rail meters of two catalogue models (an Acrel DDSY1352 with a
 * relay and an Eastron SDM120) meter the shop circuits on the first four DTUs' buses, slave 1.
 */
export const DEMO_FLEET = {
  meters: 200,
  dtus: 10,
  modbusMeters: 4,
  modbusModels: ["ddsy1352", "sdm120"],
} as const;
/**
 * The demo's building on DL/T 698.45 meters behind one Q/GDW 1376.1 concentrator (collector code
 * 34010001): a second simulated fleet, its meter numbers past the first fleet's so none is shared,
 * half of them local prepaid like the rest of the site.
 */
export const DEMO_698_FLEET = {
  meters: 10,
  dtus: 1,
  waterRatio: 0,
  dlt698Ratio: 1,
  concentrators: true,
  serialBase: 900,
} as const;
/** The room numbers of the 698 building: 2 floors of 5, every room lived in. */
const FLOORS_698 = 2;
const ROOMS_PER_FLOOR_698 = 5;

/**
 * A handful of the demo's meters with something wrong on the meter's side, so the notice bell and
 * 告警记录 show real check alarms on the first start next to the low balances: a flat clock
 * battery, energy flowing back, a clock twelve minutes fast, a meter drawing more than its supply
 * allows and a water valve reporting abnormal. Picked by their place in the plan.
 */
export function demoConditions(): Record<string, MeterConditions> {
  const plan = planFleet(DEMO_FLEET);
  const electric = plan.meters.filter((m) => m.kind === "electric" && m.protocol === "dlt645-2007");
  const water = plan.meters.filter((m) => m.kind === "water");
  const picks: [string | undefined, MeterConditions][] = [
    [electric[7]?.address, { batteryLow: true }],
    [electric[23]?.address, { reverseEnergy: true }],
    [electric[41]?.address, { clockDriftMinutes: 12 }],
    [electric[66]?.address, { overPower: true }],
    [water[5]?.address, { valveFault: true }],
  ];
  return Object.fromEntries(picks.filter((pick): pick is [string, MeterConditions] => pick[0] !== undefined));
}

const BUILDINGS = 4;
const FLOORS = 5;
const ROOMS_PER_FLOOR = 10;
const OCCUPIED = 180;

/** The building (0-based) a DTU is installed in: the DTUs are spread evenly over the buildings. */
const buildingOfDtu = (dtu: number, dtus: number) => Math.floor((Math.max(0, dtu) * BUILDINGS) / dtus);
/** The building (0-based) a meter of the DTU fleet is installed in. */
const buildingOfMeter = (plan: ReturnType<typeof planFleet>) => (meter: PlannedMeter) =>
  buildingOfDtu(plan.dtuIds.indexOf(meter.collectorId), plan.dtuIds.length);

/** The injected cases of a demo whose fleet started at `startsAt` (see demo-topology.ts). */
export function demoCasesAt(startsAt: number): DemoCases {
  const plan = planFleet(DEMO_FLEET);
  return demoCases(plan, buildingOfMeter(plan), startsAt, new Set(Object.keys(demoConditions())));
}

/** What the demo's simulated meters do wrong from their start: the cases' anomalies, by address. */
export const demoAnomalies = (startsAt: number): Record<string, MeterAnomaly> =>
  casesByAddress(demoCasesAt(startsAt));

/**
 * Each building's metering: its share of loss between the master and the rooms (cables, the
 * transformer's share; pipes for water), and the mean load of its common area (corridor lights,
 * lifts, pumps) in W. 5号楼(698) has no water meters and so no water node.
 */
const BUILDING_METERING = [
  { loss: 0.028, waterLoss: 0.015, commonW: 1500 },
  { loss: 0.031, waterLoss: 0.012, commonW: 1800 },
  { loss: 0.024, waterLoss: 0.018, commonW: 1300 },
  { loss: 0.026, waterLoss: 0.014, commonW: 1600 },
  { loss: 0.022, waterLoss: 0, commonW: 600 },
] as const;
/** Addresses of the masters and common-area meters: past every fleet's serials. */
const ELECTRIC_TOPOLOGY_BASE = 201_000_009_900;
const WATER_TOPOLOGY_BASE = 78_330_000_009_900;
const SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗";
const GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂";

/**
 * Seeds the demo site once, in the embedded default only: a park of 4 buildings with 200 rooms,
 * 180 owners living in them, the 200 meters of the simulated fleet (electric and water) installed
 * in those rooms behind their 10 DTUs, a ladder and a time-of-use charging scheme, a water price
 * and an alarm scheme. Its admin signs in with the platform admin's initial password.
 */
export async function seedDemoSite(db: Db, options: { adminPassword: string }): Promise<boolean> {
  const exists = await db.query("select 1 from sys_tenant where tenant_id = $1", [DEMO_TENANT_ID]);
  if (exists.length > 0) return false;
  await db.transaction(async (tx) => {
    const tenantValues = readInput(
      resources.tenant,
      { tenantName: "阳光公寓(演示)", accountNumber: 50 },
      "create",
      "UTC",
    );
    await provisionTenant(tx, {
      tenantName: "阳光公寓(演示)",
      values: tenantValues,
      tenantId: DEMO_TENANT_ID,
    });
    await tx.query("update sys_user set password = $2 where tenant_id = $1 and account = 'admin'", [
      DEMO_TENANT_ID,
      await hashPassword(md5Hex(options.adminPassword)),
    ]);
    const site = await new DemoSite(tx).build();
    // The fleet runs from the tenant's creation (embedded-gateway.ts): the past ends exactly there.
    const [tenant] = await tx.query<{ since: Date | string }>(
      "select create_time as since from sys_tenant where tenant_id = $1",
      [DEMO_TENANT_ID],
    );
    const [admin] = await tx.query<{ id: string; real_name: string | null }>(
      "select id::text as id, real_name from sys_user where tenant_id = $1 and account = 'admin'",
      [DEMO_TENANT_ID],
    );
    const startsAt = new Date(tenant!.since).getTime();
    await seedDemoPast(tx, {
      tenantId: DEMO_TENANT_ID,
      plan: planFleet(DEMO_FLEET).options,
      meters: site.meters,
      nodes: site.nodes,
      cases: demoCasesAt(startsAt),
      alarmSchemeId: site.alarmSchemeId,
      operator: { id: admin!.id, name: admin!.real_name || "管理员" },
      startsAt,
    });
    // The suspect list is alive on the first start, not only after the next morning's sweep.
    await sweep(tx, DEMO_TENANT_ID, DEMO_ZONE, new Date(startsAt));
  });
  return true;
}

/**
 * The registration secrets of the demo's DTUs, by collector code, for the simulated fleet to send.
 * Each is random (never derived from anything public), made on the first start that needs it and
 * stored encrypted like one an operator typed into the collector form.
 */
export async function demoDtuSecrets(db: Queryable, cipher: FieldCipher): Promise<Record<string, string>> {
  const rows = await db.query<{ id: string; collector_code: string; registration_secret: string | null }>(
    `select id::text as id, collector_code, registration_secret from pms_collector
      where tenant_id = $1 and is_deleted = 0 and transport = 'tcp' and collector_code = any($2)`,
    // Only the fleet's own DTUs: a collector an operator added to the demo keeps what they gave it.
    [DEMO_TENANT_ID, [...planFleet(DEMO_FLEET).dtuIds, ...planFleet(DEMO_698_FLEET).dtuIds]],
  );
  const concentrators = new Set(planFleet(DEMO_698_FLEET).dtuIds);
  const secrets: Record<string, string> = {};
  for (const row of rows) {
    let secret = row.registration_secret ? cipher.decrypt(row.registration_secret) : undefined;
    if (!secret) {
      // A concentrator's secret is its 16-byte 1376.1 password, written as 32 hex digits.
      secret = concentrators.has(row.collector_code)
        ? randomBytes(16).toString("hex").toUpperCase()
        : randomBytes(18).toString("base64url");
      await db.query("update pms_collector set registration_secret = $2 where id = $1", [
        row.id,
        cipher.encrypt(secret),
      ]);
    }
    secrets[row.collector_code] = secret;
  }
  return secrets;
}

/** Rows written as the definitions would write them: the same validation, defaults and audit columns. */
class DemoSite {
  private readonly user = serviceUser(DEMO_TENANT_ID, "demo", { realName: "演示数据" });
  constructor(private readonly db: Queryable) {}

  private insert(def: ResourceDef, body: Record<string, unknown>): Promise<string> {
    const values = readInput(def, body, "create", "Asia/Shanghai");
    return new ResourceStore(this.db, def).insert(values, this.user, DEMO_TENANT_ID);
  }

  async build(): Promise<{ meters: DemoMeter[]; nodes: DemoNode[]; alarmSchemeId: string }> {
    const { chargingScheme, alarmScheme } = resources;
    const ladder = await this.insert(chargingScheme, {
      schemeName: "居民阶梯电价",
      energyType: 1,
      priceMode: 2,
      ladderCycle: 2,
      ladder: JSON.stringify([
        { limit: "2880", price: "0.4883" },
        { limit: "4800", price: "0.5383" },
        { limit: null, price: "0.7883" },
      ]),
      monthlyFee: "0",
    });
    const tou = await this.insert(chargingScheme, {
      schemeName: "商铺分时电价",
      energyType: 1,
      priceMode: 3,
      tipPrice: "1.2000",
      peakPrice: "1.0000",
      peacePrice: "0.7000",
      lowPrice: "0.3500",
      touPeriods: JSON.stringify([
        { start: "08:00", end: "10:00", band: "peace" },
        { start: "10:00", end: "12:00", band: "peak" },
        { start: "12:00", end: "19:00", band: "peace" },
        { start: "19:00", end: "21:00", band: "tip" },
        { start: "21:00", end: "23:00", band: "peace" },
        { start: "23:00", end: "08:00", band: "low" },
      ]),
      monthlyFee: "5",
    });
    const waterPrice = await this.insert(chargingScheme, {
      schemeName: "居民水价",
      energyType: 2,
      priceMode: 1,
      price: "3.5000",
    });
    // One alarm scheme per energy type (a scheme names the energy it is for), with the same limits.
    const alarmOf = (schemeName: string, energyType: 1 | 2) =>
      this.insert(alarmScheme, {
        schemeName,
        energyType,
        firstAlarm: "50.00",
        secondAlarm: "20.00",
        arrearsLimit: "10.00",
        mergeAlarmFlag: 0,
        tripOnArrears: 1,
        protectTimes: JSON.stringify([{ start: "22:00", end: "07:00" }]),
        protectDates: JSON.stringify(["weekend"]),
        notifyChannels: "console,sms",
      });
    const alarm = await alarmOf("标准告警", 1);
    const waterAlarm = await alarmOf("用水告警", 2);

    const park = await this.insert(resources.area, {
      parentId: "0",
      areaName: "阳光公寓",
      areaType: 1,
      sort: 1,
    });
    const buildings: string[] = [];
    for (let b = 1; b <= BUILDINGS; b++) {
      const id = await this.insert(resources.area, {
        parentId: park,
        areaName: `${b}号楼`,
        areaType: 2,
        sort: b,
      });
      buildings.push(id);
    }
    await this.db.query(
      "update pms_area set ancestors = case when parent_id = 0 then '0' else '0,' || parent_id end where tenant_id = $1",
      [DEMO_TENANT_ID],
    );

    const rooms: string[] = [];
    for (const [b, building] of buildings.entries()) {
      for (let floor = 1; floor <= FLOORS; floor++) {
        for (let n = 1; n <= ROOMS_PER_FLOOR; n++) {
          const roomName = `${floor}${String(n).padStart(2, "0")}`;
          rooms.push(
            await this.insert(resources.room, {
              areaId: building,
              roomName,
              roomCode: `${b + 1}-${roomName}`,
              roomType: b === 3 && floor === 1 ? 3 : 1,
              floorArea: (45 + ((floor * 7 + n * 3) % 40)).toFixed(2),
            }),
          );
        }
      }
    }

    const owners: string[] = [];
    for (let i = 0; i < OCCUPIED; i++) {
      const name = `${SURNAMES[i % SURNAMES.length]}${GIVEN[(i * 7) % GIVEN.length]}`;
      const owner = await this.insert(resources.owner, {
        ownerName: name,
        ownerCode: `Y${String(i + 1).padStart(4, "0")}`,
        phone: `139${String(10_000_000 + i * 7919).slice(-8)}`,
      });
      owners.push(owner);
      await this.insert(resources.ownerRoom, {
        ownerId: owner,
        roomId: rooms[i],
        checkInTime: "2026-01-01 09:00:00",
      });
    }

    const plan = planFleet(DEMO_FLEET);
    const collectors = new Map<string, string>();
    for (const [i, code] of plan.dtuIds.entries()) {
      collectors.set(
        code,
        await this.insert(resources.collector, {
          collectorName: `${buildingOfDtu(i, plan.dtuIds.length) + 1}号楼 DTU ${i + 1}`,
          collectorCode: code,
          areaId: buildings[buildingOfDtu(i, plan.dtuIds.length)],
          heartbeatSeconds: 60,
        }),
      );
    }
    const meters: DemoMeter[] = [];
    // Each meter goes to a room of the building its DTU serves (the wiring an installer would do):
    // the rooms of a building take its electric meters in order, and its water meters in order.
    const roomsPerBuilding = FLOORS * ROOMS_PER_FLOOR;
    const taken = new Map<string, number>();
    for (const meter of plan.meters) {
      const electric = meter.kind === "electric";
      const building = buildingOfDtu(plan.dtuIds.indexOf(meter.collectorId), plan.dtuIds.length);
      const slot = `${building}:${meter.kind}`;
      const nth = taken.get(slot) ?? 0;
      taken.set(slot, nth + 1);
      if (nth >= roomsPerBuilding) throw new Error(`demo: building ${building + 1} has no room left`);
      const roomIndex = building * roomsPerBuilding + nth;
      const occupied = roomIndex < OCCUPIED;
      const common = {
        productCode: meter.address,
        meterName: `${electric ? "电表" : "水表"} ${roomIndex + 1}`,
        runStatus: 3,
        collectorId: collectors.get(meter.collectorId),
        channel: 1,
        installTime: "2026-01-01 08:00:00",
        alarmSchemeId: electric ? alarm : waterAlarm,
      };
      const chargingSchemeId = electric ? (roomIndex % 10 === 9 ? tou : ladder) : waterPrice;
      const id = electric
        ? await this.insert(resources.meter, {
            ...common,
            protocol: meter.protocol === "dlt645-1997" ? "dlt645_1997" : "dlt645_2007",
            meterType: meter.localPrepaid ? 1 : 2,
            controlStatus: meter.localPrepaid ? 0 : 1,
            chargingSchemeId,
          })
        : await this.insert(resources.water, {
            ...common,
            protocol: "cjt188_2004",
            diOrder: meter.diOrder,
            chargingSchemeId,
          });
      meters.push({
        planned: meter,
        id,
        energyType: electric ? 1 : 2,
        roomId: rooms[roomIndex]!,
        building,
        ownerId: occupied ? owners[roomIndex]! : null,
        controlStatus: electric && meter.localPrepaid ? 0 : 1,
        chargingSchemeId,
        alarmSchemeId: common.alarmSchemeId,
      });
      await this.insert(resources.roomMeter, {
        roomId: rooms[roomIndex],
        energyType: electric ? 1 : 2,
        meterId: id,
      });
      if (occupied)
        await this.db.query(
          `update ${electric ? "pms_meter" : "pms_water"} set account_status = 1 where id = $1`,
          [id],
        );
    }
    // The shops' Modbus meters take the next rooms of their DTU's building without an electric meter.
    const modbusRooms = plan.modbus.map((meter) => {
      const building = buildingOfDtu(plan.dtuIds.indexOf(meter.collectorId), plan.dtuIds.length);
      const nth = taken.get(`${building}:electric`) ?? 0;
      taken.set(`${building}:electric`, nth + 1);
      if (nth >= roomsPerBuilding) throw new Error(`demo: building ${building + 1} has no room left`);
      return rooms[building * roomsPerBuilding + nth]!;
    });
    await this.buildModbus(plan, collectors, modbusRooms, alarm);
    meters.push(
      ...(await this.build698(park, { ladder, tou, alarm }, { rooms: rooms.length, owners: owners.length })),
    );
    const areas = [...buildings, await this.building698Id()];
    const nodes = await this.buildMetering(areas, meters);
    return { meters, nodes, alarmSchemeId: alarm };
  }

  private async building698Id(): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      "select id::text as id from pms_area where tenant_id = $1 and area_name = '5号楼(698)' and is_deleted = 0",
      [DEMO_TENANT_ID],
    );
    return row!.id;
  }

  /**
   * The metering of each building: an electric node with its master meter at the intake and its
   * common-area meter (公区表) beside the rooms' meters (分户表), and a water node with its master for
   * the buildings with water meters. Masters and common meters are in no room and on no DTU: their
   * reads are the history's (the site's own intake meters, read into the system), so the registry's
   * rooms, accounts and DTUs stay as they were.
   */
  private async buildMetering(areas: string[], meters: DemoMeter[]): Promise<DemoNode[]> {
    const nodes: DemoNode[] = [];
    for (const [b, areaId] of areas.entries()) {
      const setting = BUILDING_METERING[b]!;
      const name = b < BUILDINGS ? `${b + 1}号楼` : "5号楼(698)";
      for (const energyType of [1, 2] as const) {
        const rooms = meters.filter((m) => m.building === b && m.energyType === energyType);
        if (rooms.length === 0) continue;
        const electric = energyType === 1;
        const meterOf = (n: number, meterName: string) =>
          electric
            ? this.insert(resources.meter, {
                productCode: String(ELECTRIC_TOPOLOGY_BASE + n),
                meterName,
                runStatus: 3,
                protocol: "dlt645_2007",
                meterType: 2,
                controlStatus: 1,
                installTime: "2026-01-01 08:00:00",
              })
            : this.insert(resources.water, {
                productCode: String(WATER_TOPOLOGY_BASE + n),
                meterName,
                runStatus: 3,
                protocol: "cjt188_2004",
                installTime: "2026-01-01 08:00:00",
              });
        const masterId = await meterOf(b * 2, electric ? `${name} 总表` : `${name} 水总表`);
        const commonId = electric ? await meterOf(b * 2 + 1, `${name} 公区表`) : null;
        const node = await this.insert(resources.meteringNode, {
          parentId: "0",
          nodeTitle: electric ? name : `${name} 供水`,
          energyType,
          nodeKind: 2,
          areaId,
          masterMeterId: masterId,
          apportionRule: 1,
          apportionLoss: 0,
          sort: b + 1 + (electric ? 0 : 10),
        });
        const listed: [string, number][] = rooms.map((m) => [m.id, 1]);
        if (commonId) listed.push([commonId, 2]);
        for (const [meterId, meterRole] of listed)
          await this.insert(resources.meteringNodeMeter, { nodeId: node, energyType, meterId, meterRole });
        const code = (n: number) => String((electric ? ELECTRIC_TOPOLOGY_BASE : WATER_TOPOLOGY_BASE) + n);
        nodes.push({
          key: `${energyType}:${b}`,
          energyType,
          lossShare: electric ? setting.loss : setting.waterLoss,
          master: { id: masterId, energyType, roomId: null, planned: { address: code(b * 2) } },
          common: commonId
            ? {
                id: commonId,
                energyType,
                roomId: null,
                planned: { address: code(b * 2 + 1) },
                meanRate: setting.commonW,
                index: 9_900 + b,
              }
            : null,
          roomMeterIds: rooms.map((m) => m.id),
        });
      }
    }
    await this.db.query(
      "update pms_metering_node set ancestors = '0' where tenant_id = $1 and parent_id = 0",
      [DEMO_TENANT_ID],
    );
    return nodes;
  }

  /**
   * The shops' Modbus-RTU meters: on their DTU's bus by slave address, read by their model's
   * register map; installed in a room, without an account yet (an operator opens one to bill it).
   */
  private async buildModbus(
    plan: ReturnType<typeof planFleet>,
    collectors: ReadonlyMap<string, string>,
    rooms: readonly string[],
    alarmSchemeId: string,
  ): Promise<void> {
    for (const [i, meter] of plan.modbus.entries()) {
      const id = await this.insert(resources.meter, {
        productCode: String(510_000_000_001 + i),
        meterName: `商铺配电 ${i + 1}`,
        runStatus: 3,
        collectorId: collectors.get(meter.collectorId),
        channel: 1,
        installTime: "2026-01-01 08:00:00",
        alarmSchemeId,
        protocol: "modbus_rtu",
        modbusModel: meter.model,
        modbusSlave: meter.slave,
        meterType: 2,
        controlStatus: 1,
      });
      await this.insert(resources.roomMeter, { roomId: rooms[i], energyType: 1, meterId: id });
    }
  }

  /**
   * 5号楼(698): ten rooms, each lived in, whose electric meters speak DL/T 698.45 and hang on the
   * carrier port of one concentrator, billed and switched like the rest of the site.
   */
  private async build698(
    park: string,
    schemes: { ladder: string; tou: string; alarm: string },
    before: { rooms: number; owners: number },
  ): Promise<DemoMeter[]> {
    const building = await this.insert(resources.area, {
      parentId: park,
      areaName: "5号楼(698)",
      areaType: 2,
      sort: BUILDINGS + 1,
    });
    await this.db.query("update pms_area set ancestors = '0,' || parent_id where id = $1", [building]);
    const plan = planFleet(DEMO_698_FLEET);
    const code = plan.dtuIds[0]!;
    const collector = await this.insert(resources.collector, {
      collectorName: "5号楼 集中器",
      collectorCode: code,
      collectorType: 2,
      areaId: building,
      heartbeatSeconds: 60,
    });
    const meters: DemoMeter[] = [];
    for (const [i, meter] of plan.meters.entries()) {
      const floor = Math.floor(i / ROOMS_PER_FLOOR_698) + 1;
      if (floor > FLOORS_698) throw new Error("demo: the 698 building has no room left");
      const roomName = `${floor}${String((i % ROOMS_PER_FLOOR_698) + 1).padStart(2, "0")}`;
      const room = await this.insert(resources.room, {
        areaId: building,
        roomName,
        roomCode: `5-${roomName}`,
        roomType: 1,
        floorArea: (50 + ((floor * 7 + i * 3) % 30)).toFixed(2),
      });
      const n = before.owners + i;
      const owner = await this.insert(resources.owner, {
        ownerName: `${SURNAMES[n % SURNAMES.length]}${GIVEN[(n * 7) % GIVEN.length]}`,
        ownerCode: `Y${String(n + 1).padStart(4, "0")}`,
        phone: `139${String(10_000_000 + n * 7919).slice(-8)}`,
      });
      await this.insert(resources.ownerRoom, {
        ownerId: owner,
        roomId: room,
        checkInTime: "2026-01-01 09:00:00",
      });
      const chargingSchemeId = i % 10 === 9 ? schemes.tou : schemes.ladder;
      const controlStatus = meter.localPrepaid ? 0 : 1;
      const id = await this.insert(resources.meter, {
        productCode: meter.address,
        meterName: `电表 ${before.rooms + i + 1}`,
        runStatus: 3,
        collectorId: collector,
        channel: CARRIER_PORT,
        installTime: "2026-01-01 08:00:00",
        alarmSchemeId: schemes.alarm,
        protocol: "dlt698_45",
        meterType: meter.localPrepaid ? 1 : 2,
        controlStatus,
        chargingSchemeId,
      });
      await this.insert(resources.roomMeter, { roomId: room, energyType: 1, meterId: id });
      await this.db.query("update pms_meter set account_status = 1 where id = $1", [id]);
      meters.push({
        planned: meter,
        id,
        energyType: 1,
        roomId: room,
        ownerId: owner,
        building: BUILDINGS,
        controlStatus,
        chargingSchemeId,
        alarmSchemeId: schemes.alarm,
      });
    }
    return meters;
  }
}
