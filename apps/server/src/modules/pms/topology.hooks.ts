import { badRequest } from "../../contract/errors.ts";
import { type Column, columnByName } from "../../crud/columns.ts";
import type { HookContext, ResourceHooks } from "../../crud/hooks.ts";

/*
 * The rules of the metering topology beyond its declarations (tree, unique keys, links): a meter
 * is counted once, either as one node's master or as one node's sub-meter, and a node, its parent,
 * its children and its listed meters are all of one energy type. Each refusal names the field.
 *
 * The checks read the row's tenant: the stored one on update, the caller's on create (the platform
 * administrator creating for another tenant is checked by the unique keys alone).
 */

const ENERGY_NAMES: Record<string, string> = { "1": "电", "2": "水" };
const energyName = (type: string) => ENERGY_NAMES[type] ?? type;

/** The meter table of an energy type. */
const meterTable = (energyType: string) => (energyType === "2" ? "pms_water" : "pms_meter");

/** What a write will leave in the row: the value sent, else the stored one. */
async function merged(
  ctx: HookContext,
  values: Map<Column, unknown>,
  id: string | undefined,
  table: string,
): Promise<{ tenantId: string; value: (name: string) => string | undefined }> {
  const stored = id
    ? (await ctx.db.query<Record<string, unknown>>(`select * from ${table} where id = $1`, [id]))[0]
    : undefined;
  const value = (name: string) => {
    const column = columnByName(ctx.def, name)!;
    const raw = values.has(column) ? values.get(column) : stored?.[column.column];
    return raw === undefined || raw === null || raw === "" || raw === "0" ? undefined : String(raw);
  };
  return { tenantId: String(stored?.tenant_id ?? ctx.user.tenantId), value };
}

async function meterCode(ctx: HookContext, energyType: string, meterId: string): Promise<string> {
  const [row] = await ctx.db.query<{ product_code: string }>(
    `select product_code from ${meterTable(energyType)} where id = $1`,
    [meterId],
  );
  return row?.product_code ?? meterId;
}

/** The node (other than `exceptNode`) whose master this meter is, in the tenant. */
async function masterOf(
  ctx: HookContext,
  tenantId: string,
  energyType: string,
  meterId: string,
  exceptNode = "0",
) {
  const [row] = await ctx.db.query<{ node_title: string }>(
    `select node_title from pms_metering_node
      where tenant_id = $1 and energy_type = $2 and master_meter_id = $3 and is_deleted = 0 and id <> $4
      limit 1`,
    [tenantId, Number(energyType), meterId, exceptNode],
  );
  return row?.node_title;
}

/** The node (other than through the link `exceptLink`) that lists this meter as a sub-meter. */
async function listedUnder(
  ctx: HookContext,
  tenantId: string,
  energyType: string,
  meterId: string,
  exceptLink = "0",
) {
  const [row] = await ctx.db.query<{ node_title: string }>(
    `select n.node_title from pms_metering_node_meter l
       join pms_metering_node n on n.id = l.node_id
      where l.tenant_id = $1 and l.energy_type = $2 and l.meter_id = $3 and l.is_deleted = 0 and l.id <> $4
      limit 1`,
    [tenantId, Number(energyType), meterId, exceptLink],
  );
  return row?.node_title;
}

export const meteringNodeHooks: ResourceHooks = {
  async beforeWrite(ctx, values, id) {
    const row = await merged(ctx, values, id, "pms_metering_node");
    const energyType = row.value("energyType") ?? "1";
    const parentId = row.value("parentId");
    if (parentId) {
      const [parent] = await ctx.db.query<{ node_title: string; energy_type: number }>(
        "select node_title, energy_type from pms_metering_node where id = $1 and tenant_id = $2 and is_deleted = 0",
        [parentId, row.tenantId],
      );
      if (parent && String(parent.energy_type) !== energyType)
        throw badRequest(
          `energyType: 上级节点 [${parent.node_title}] 计量${energyName(String(parent.energy_type))},下级节点须为同一能源类型`,
        );
    }
    if (id) {
      const [child] = await ctx.db.query<{ node_title: string }>(
        `select node_title from pms_metering_node
          where parent_id = $1 and tenant_id = $2 and is_deleted = 0 and energy_type <> $3 limit 1`,
        [id, row.tenantId, Number(energyType)],
      );
      if (child)
        throw badRequest(
          `energyType: 下级节点 [${child.node_title}] 的能源类型不同,不能改为${energyName(energyType)}`,
        );
      const [listed] = await ctx.db.query<{ n: string }>(
        `select count(*)::text as n from pms_metering_node_meter
          where node_id = $1 and tenant_id = $2 and is_deleted = 0 and energy_type <> $3`,
        [id, row.tenantId, Number(energyType)],
      );
      if (Number(listed?.n ?? 0) > 0)
        throw badRequest(
          `energyType: 节点下有 ${listed!.n} 块其他能源类型的下级表,不能改为${energyName(energyType)}`,
        );
    }
    const master = row.value("masterMeterId");
    if (!master) return;
    const otherNode = await masterOf(ctx, row.tenantId, energyType, master, id);
    if (otherNode)
      throw badRequest(
        `masterMeterId: 表 [${await meterCode(ctx, energyType, master)}] 作为节点 [${otherNode}] 的总表已存在,一块表只能作一个节点的总表`,
      );
    const listedNode = await listedUnder(ctx, row.tenantId, energyType, master);
    if (listedNode)
      throw badRequest(
        `masterMeterId: 表 [${await meterCode(ctx, energyType, master)}] 已是节点 [${listedNode}] 的下级表,不能再作总表`,
      );
  },
};

export const meteringNodeMeterHooks: ResourceHooks = {
  async beforeWrite(ctx, values, id) {
    const row = await merged(ctx, values, id, "pms_metering_node_meter");
    const energyType = row.value("energyType") ?? "1";
    const nodeId = row.value("nodeId");
    if (nodeId) {
      const [node] = await ctx.db.query<{ node_title: string; energy_type: number }>(
        "select node_title, energy_type from pms_metering_node where id = $1 and tenant_id = $2 and is_deleted = 0",
        [nodeId, row.tenantId],
      );
      if (node && String(node.energy_type) !== energyType)
        throw badRequest(
          `energyType: 节点 [${node.node_title}] 计量${energyName(String(node.energy_type))},下级表须为同一能源类型`,
        );
    }
    const meterId = row.value("meterId");
    if (!meterId) return;
    const masterNode = await masterOf(ctx, row.tenantId, energyType, meterId);
    if (masterNode)
      throw badRequest(
        `meterId: 表 [${await meterCode(ctx, energyType, meterId)}] 是节点 [${masterNode}] 的总表,不能再作下级表`,
      );
    const listedNode = await listedUnder(ctx, row.tenantId, energyType, meterId, id);
    if (listedNode)
      throw badRequest(
        `meterId: 表 [${await meterCode(ctx, energyType, meterId)}] 在节点 [${listedNode}] 下已存在,一块表只能属于一个节点`,
      );
  },
};
