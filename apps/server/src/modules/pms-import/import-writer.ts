import { type ResourceDef, resources } from "@meterline/contracts";
import { columnsOf } from "../../crud/columns.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import type { OwnerAction } from "../pms/owner-log.ts";
import { type FixedSql, insertRows } from "./bulk-insert.ts";
import type { CollectorPlan } from "./collector-planner.ts";
import type { ImportPlan, NewRow, OwnerLogEntry } from "./import-plan.ts";
import type { TopologyPlan } from "./topology-planner.ts";

const IMPORT_ACTION: OwnerAction = "import";

/**
 * Writes a plan inside the caller's transaction: every new row of every table, then one owner log
 * entry per owner the import created or linked. Rows carry the same columns the engine's insert
 * sets (tenant, audit, live flags), and secrets are encrypted as the engine's insert encrypts them,
 * so nothing distinguishes them from rows created one by one.
 */
export async function writePlan(
  tx: Queryable,
  plans: { plan: ImportPlan; topology: TopologyPlan; collectors: CollectorPlan },
  caller: CurrentUser,
  cipher: FieldCipher,
): Promise<void> {
  const { plan, topology, collectors } = plans;
  const {
    collector,
    area,
    room,
    owner,
    ownerRoom,
    meter,
    water,
    roomMeter,
    meterOrigValue,
    meteringNode,
    meteringNodeMeter,
  } = resources;
  const batches: [ResourceDef, NewRow[]][] = [
    // Collectors first: the new meters name them.
    [collector, collectors.collectors],
    [area, plan.areas],
    [room, plan.rooms],
    [owner, plan.owners],
    [ownerRoom, plan.ownerRooms],
    [meter, plan.meters],
    [water, plan.waters],
    [roomMeter, plan.roomMeters],
    [meterOrigValue, plan.origValues],
    // Nodes in the order they were placed: every parent before its children.
    [meteringNode, topology.nodes],
    [meteringNodeMeter, topology.nodeMeters],
  ];
  for (const [def, rows] of batches) await insertResourceRows(tx, def, rows, caller, cipher);
  await insertOwnerLog(tx, [...plan.ownerLog.values()], caller);
}

async function insertResourceRows(
  tx: Queryable,
  def: ResourceDef,
  rows: NewRow[],
  caller: CurrentUser,
  cipher: FieldCipher,
) {
  const writable = columnsOf(def).filter((c) => !c.system);
  const fields = writable.map((c) => c.column);
  // The plain value of an encrypted field (a collector's secret) never reaches the table.
  const encrypted = new Set(writable.filter((c) => c.field.encrypted).map((c) => c.column));
  const stored = (column: string, value: unknown) =>
    encrypted.has(column) && typeof value === "string" && value !== "" ? cipher.encrypt(value) : value;
  const columns = ["id", ...(def.tenantScoped ? ["tenant_id"] : []), ...fields];
  const audit: unknown[] = [];
  const fixed: Record<string, FixedSql> = {};
  if (def.audit) {
    columns.push("create_user", "create_dept", "update_user");
    audit.push(caller.userId || null, caller.deptIds[0] ?? null, caller.userId || null);
    Object.assign(fixed, { create_time: "now()", update_time: "now()", status: "1" });
  }
  if (def.softDelete) fixed.is_deleted = "0";
  const tenant = def.tenantScoped ? [caller.tenantId] : [];
  const values = rows.map((row) => [
    row.id,
    ...tenant,
    ...fields.map((f) => stored(f, row.values[f] ?? null)),
    ...audit,
  ]);
  await insertRows(tx, def.table, columns, values, fixed);
}

/** The owner log as `writeOwnerLog` writes it, one multi-row statement per chunk instead of one per owner. */
async function insertOwnerLog(tx: Queryable, entries: OwnerLogEntry[], caller: CurrentUser) {
  const columns = ["id", "tenant_id", "owner_id", "action", "content", "create_user", "create_user_name"];
  const rows = entries.map((entry) => [
    nextId(),
    caller.tenantId,
    entry.ownerId,
    IMPORT_ACTION,
    JSON.stringify({ ownerName: entry.ownerName, created: entry.created, rooms: entry.rooms }),
    caller.userId || null,
    caller.realName || caller.account,
  ]);
  await insertRows(tx, "pms_owner_log", columns, rows);
}
