import { type FieldDef, type ResourceDef, resources } from "@meterline/contracts";
import { readInput } from "../src/crud/input.ts";
import { ResourceStore } from "../src/crud/store.ts";
import type { Queryable } from "../src/db/client.ts";
import { serviceUser } from "../src/modules/auth/current-user.ts";

/** A valid value for a field, distinct per `seed`, within the field's limits. */
async function sampleValue(db: Queryable, field: FieldDef, seed: string): Promise<unknown> {
  const dictCode = field.dict ?? field.dictBiz;
  if (dictCode) {
    const table = field.dict ? "sys_dict" : "sys_dict_biz";
    const rows = await db
      .query<{ dict_key: string }>(
        `select dict_key from ${table} where code = $1 and parent_id > 0 and is_deleted = 0 order by sort limit 1`,
        [dictCode],
      )
      .catch(() => []);
    const key = rows[0]?.dict_key ?? "1";
    return field.type === "int" ? Number(key) : key;
  }
  switch (field.type) {
    case "int":
      return Math.max(field.min ?? 1, 1);
    case "decimal":
      return (12.34).toFixed(Math.max(field.scale ?? 4, 2));
    case "id":
      return "1";
    case "idList":
      return "1";
    case "datetime":
      return "2026-11-22 08:30:00";
    case "date":
      return "2026-11-22";
    default: {
      const text = `${seed}`;
      return field.maxLength ? text.slice(0, field.maxLength) : text;
    }
  }
}

/** Digits derived from a seed, so unique fields with a fixed format differ per seed. */
function digits(seed: string, length: number): string {
  let n = 7n;
  for (const ch of seed) n = (n * 131n + BigInt(ch.charCodeAt(0))) % 10n ** BigInt(length);
  return n.toString().padStart(length, "0");
}

/** Values for the formats the definitions declare, keyed by their message key. */
const patterned: Record<string, (seed: string) => string> = {
  phone: (seed) => `138${digits(seed, 8)}`,
  email: (seed) => `${seed}@example.com`,
  meterAddress12: (seed) => digits(seed, 12),
  meterAddress14: (seed) => digits(seed, 14),
  alipayAppId: (seed) => `2021${digits(seed, 12)}`,
  hex8: (seed) => digits(seed, 8),
  idCard: (seed) => `${digits(seed, 17)}X`,
  dtuSecret: (seed) => `secret-${digits(seed, 16)}`,
  networks: (seed) => `10.${Number(digits(seed, 2))}.0.0/16, 192.0.2.7`,
  url: (seed) => `http://127.0.0.1:9/${seed}`,
};

const fixtureUser = (tenantId: string) => serviceUser(tenantId, "fixture", { userId: "1" });

/** A stored row of a resource in a tenant, with its own links stored first: the target of a link. */
export async function sampleRow(
  db: Queryable,
  def: ResourceDef,
  seed: string,
  tenantId: string,
): Promise<string> {
  const body = await sampleBody(db, def, seed, tenantId);
  return new ResourceStore(db, def).insert(
    readInput(def, body, "create", "Asia/Shanghai"),
    fixtureUser(tenantId),
    tenantId,
  );
}

/** Values that must agree across fields, which per-field sampling cannot know (first alarm > second). */
const crossField: Record<string, Record<string, unknown>> = {
  alarmScheme: {
    firstAlarm: "50.00",
    secondAlarm: "10.00",
    protectTimes: '[{"start":"22:00","end":"07:00"}]',
    protectDates: '["weekend"]',
    notifyChannels: "console",
  },
};

/**
 * Fields a sample leaves empty because they belong to another choice of the row: a collector's
 * Modbus TCP endpoint is only for the transport Modbus TCP 直连, and the sampled collector is a DTU
 * (its meters' sampled protocols sit on a DTU only).
 */
const leftEmpty: Record<string, readonly string[]> = {
  collector: ["modbusHost", "modbusPort"],
};

const resourceNamed = (name: string) => resources[name as keyof typeof resources] as ResourceDef;

/**
 * A complete, valid submit body for a resource; text fields carry `seed` so searches can find them,
 * and links point at fresh rows of `tenantId`.
 */
export async function sampleBody(
  db: Queryable,
  def: ResourceDef,
  seed: string,
  tenantId = "000000",
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.form === false || leftEmpty[def.name]?.includes(name)) continue;
    if (def.tree?.parent === name) {
      body[name] = "0"; // a root: trees are exercised by their own tests
      continue;
    }
    const link = field.ref?.resource ?? field.refBy?.resources[String(body[field.refBy.field])]?.resource;
    if (field.type === "id" && link) {
      body[name] = await sampleRow(db, resourceNamed(link), `${seed}${name.slice(0, 2)}`, tenantId);
      continue;
    }
    const format = field.pattern && patterned[field.pattern.message];
    body[name] = format
      ? format(`${seed}${name}`)
      : await sampleValue(db, field, `${seed}${name.slice(0, 2)}`);
  }
  return { ...body, ...crossField[def.name] };
}

/** The first text field a list can search by `like`, used to find rows again. */
export function searchableText(def: ResourceDef): string | undefined {
  return Object.entries(def.fields).find(
    ([, f]) => f.search === "like" && (f.type === "string" || f.type === "text") && !f.pattern,
  )?.[0];
}

/** Server-written rows whose table requires more than an id and a tenant (written by migrations). */
/** The month partition key the reading and daily tables require (apps/server/src/db/partitions.ts). */
const readNow = { read_time: new Date() };
const today = { day_date: new Date().toISOString().slice(0, 10) };

export const serverRowColumns: Record<string, Record<string, unknown>> = {
  meterCommand: { energy_type: 1, meter_id: 1, product_code: "000000000001", command_type: "switch" },
  dataRead: readNow,
  waterDataRead: readNow,
  dataReadHistory: readNow,
  waterDataReadHistory: readNow,
  dataDaily: today,
  waterDataDaily: today,
  // The manual-read screens show only the reading log's rows entered by hand.
  dataReadOther: { source: "manual", ...readNow },
  dataReadOtherHis: { source: "manual", ...readNow },
};
