import type { SwitchOutcome } from "@meterline/contracts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { NOT_FOUND_MESSAGE } from "../../crud/context.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { queueSupplyCommands } from "../operations/switching.ts";
import { SWITCH_TYPE } from "./command-queue.ts";
import { writeOwnerLog } from "./owner-log.ts";

/** Owners in groups (spec §7 ownerGroup): an owner belongs to at most one group at a time. */
export class OwnerGroupService {
  constructor(
    private readonly db: Queryable,
    private readonly user: CurrentUser,
    private readonly tenantId: string,
  ) {}

  private async group(id: string): Promise<{ id: string; group_name: string }> {
    const [group] = await this.db.query<{ id: string; group_name: string }>(
      "select id::text as id, group_name from pms_owner_group where id = $1 and tenant_id = $2 and is_deleted = 0",
      [id, this.tenantId],
    );
    if (!group) throw notFound(NOT_FOUND_MESSAGE);
    return group;
  }

  /** Adds owners to a group; owners already in another group are refused by name. */
  async bind(groupId: string, ownerIds: string[]): Promise<number> {
    const group = await this.group(groupId);
    const owners = await this.db.query<{
      id: string;
      owner_name: string;
      group_name: string | null;
      group_id: string | null;
    }>(
      `select o.id::text as id, o.owner_name, g.group_name, r.group_id::text as group_id
         from pms_owner o
         left join pms_owner_group_rel r on r.owner_id = o.id
         left join pms_owner_group g on g.id = r.group_id
        where o.id = any($1::bigint[]) and o.tenant_id = $2 and o.is_deleted = 0`,
      [ownerIds, this.tenantId],
    );
    if (owners.length !== new Set(ownerIds).size) throw notFound(`childIdList: ${NOT_FOUND_MESSAGE}`);
    const elsewhere = owners.find((o) => o.group_id && o.group_id !== groupId);
    if (elsewhere)
      throw badRequest(
        `childIdList: 业主 [${elsewhere.owner_name}] 已在分组 [${elsewhere.group_name}] 中,请先解绑`,
      );
    const fresh = owners.filter((o) => !o.group_id);
    for (const owner of fresh) {
      await this.db.query(
        "insert into pms_owner_group_rel (id, tenant_id, group_id, owner_id, create_user) values ($1, $2, $3, $4, $5)",
        [nextId(), this.tenantId, groupId, owner.id, this.user.userId || null],
      );
      await writeOwnerLog(this.db, this.user, {
        tenantId: this.tenantId,
        ownerId: owner.id,
        action: "joinGroup",
        content: { groupId, groupName: group.group_name },
      });
    }
    return fresh.length;
  }

  /** Removes one membership by its relation id. */
  async unbind(relationId: string): Promise<void> {
    const [relation] = await this.db.query<{ owner_id: string; group_id: string; group_name: string }>(
      `select r.owner_id::text as owner_id, r.group_id::text as group_id, g.group_name
         from pms_owner_group_rel r join pms_owner_group g on g.id = r.group_id
        where r.id = $1 and r.tenant_id = $2`,
      [relationId, this.tenantId],
    );
    if (!relation) throw notFound(NOT_FOUND_MESSAGE);
    await this.db.query("delete from pms_owner_group_rel where id = $1", [relationId]);
    await writeOwnerLog(this.db, this.user, {
      tenantId: this.tenantId,
      ownerId: relation.owner_id,
      action: "leaveGroup",
      content: { groupId: relation.group_id, groupName: relation.group_name },
    });
  }

  /**
   * Queues a cut of supply for every meter (electric relay open, water valve close) in the rooms
   * of the group's owners, as one batch the gateway works through.
   */
  async closeMeters(groupId: string): Promise<SwitchOutcome> {
    await this.group(groupId);
    const meters = await this.db.query<{ energy_type: 1 | 2; meter_id: string }>(
      `select distinct rm.energy_type, rm.meter_id::text as meter_id
         from pms_owner_group_rel g
         join pms_owner_room l on l.owner_id = g.owner_id and l.is_deleted = 0
         join pms_room_meter rm on rm.room_id = l.room_id and rm.is_deleted = 0
         left join pms_meter e on rm.energy_type = 1 and e.id = rm.meter_id and e.is_deleted = 0
         left join pms_water w on rm.energy_type = 2 and w.id = rm.meter_id and w.is_deleted = 0
        where g.group_id = $1 and g.tenant_id = $2 and coalesce(e.id, w.id) is not null`,
      [groupId, this.tenantId],
    );
    if (meters.length === 0) throw badRequest("id: 该分组的业主名下没有表计");
    // Relays open and valves close; meters with an open command or no collector are reported.
    return queueSupplyCommands(
      this.db,
      this.user,
      this.tenantId,
      meters.map((m) => ({ energyType: m.energy_type, meterId: m.meter_id })),
      { switchType: SWITCH_TYPE.open, open: false },
      "ownerGroup/closeMeter",
    );
  }
}
