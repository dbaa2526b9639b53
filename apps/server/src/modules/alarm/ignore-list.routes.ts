import type { FastifyInstance } from "fastify";
import { formatDateTime } from "../../contract/dates.ts";
import { ok, page } from "../../contract/envelope.ts";
import { badParam, badRequest } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, paging, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { meterScope } from "./record-search.ts";

const pms = "/api/blade-pms";
const tags = ["alarm"];
/** Whoever may see alarm records may see who silenced which; lifting one is the ignorer's work. */
const READ_CODES = ["checkRecord", "checkRecord_ignore", "checkRecord_close", "checkRecord_delete"];
const LIFT_CODES = ["checkRecord_ignore"];

/**
 * An ignore still at work: this time's hides its record for good, seven days' until its day (set
 * from the server's clock when it was saved), a permanent one always.
 */
const IN_EFFECT = "(i.ignore_type in (1, 3) or (i.ignore_type = 2 and i.ignore_until > now()))";

interface IgnoreRow {
  id: string;
  energy_type: number;
  meter_id: string;
  record_id: string;
  rule_code: string;
  ignore_type: number;
  days: number;
  ignore_until: Date | null;
  reason: string;
  creator: string;
  create_time: Date;
  product_code: string | null;
  check_rule_name: string | null;
  in_effect: boolean;
}

/**
 * The operators' ignores (spec §7 checkIgnore page) and lifting them (checkIgnore/remove): a lifted
 * ignore no longer silences its rule, so the meter's alarm is in the bell again and the next check
 * raises it anew; the ignore stays on file, marked deleted. Both in the caller's tenant and meter
 * scope.
 */
export async function ignoreListRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const time = (value: Date | null) => (value ? formatDateTime(new Date(value), timeZone) : null);

  app.get(
    `${pms}/checkIgnore/page`,
    {
      schema: {
        tags,
        summary: "The operators' ignores, newest first, each saying whether it is still at work",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const { current, size, offset } = paging(params, 200);
      const sql = new SqlParams();
      const where = [`i.tenant_id = ${sql.bind(registryTenant(user, params))}`, "i.is_deleted = 0"];
      const meterId = optionalId(params, "meterId");
      if (meterId) where.push(`i.meter_id = ${sql.bind(meterId)}`);
      const type = optionalString(params, "ignoreType");
      if (type !== undefined) {
        if (!/^[1-3]$/.test(type)) throw badParam("ignoreType");
        where.push(`i.ignore_type = ${sql.bind(Number(type))}`);
      }
      const effect = optionalString(params, "inEffect");
      if (effect !== undefined) {
        if (effect !== "true" && effect !== "false") throw badRequest("inEffect: 只能是 true 或 false");
        where.push(effect === "true" ? IN_EFFECT : `not ${IN_EFFECT}`);
      }
      const scope = await meterScope(db, request, sql, "i");
      if (scope) where.push(scope);
      const clause = where.join(" and ");
      // The total rides in the page's statement; a page past the end asks for it alone.
      const counted = `(select count(*) from pms_check_ignore i where ${clause})::text`;
      const rows = await db.query<IgnoreRow & { total: string }>(
        `select i.id, i.energy_type, i.meter_id, i.record_id, i.rule_code, i.ignore_type, i.days, i.ignore_until,
                i.reason, i.creator, i.create_time, r.product_code, r.check_rule_name,
                ${IN_EFFECT} as in_effect, ${counted} as total
           from pms_check_ignore i left join pms_check_record r on r.id = i.record_id and r.tenant_id = i.tenant_id
          where ${clause} order by i.create_time desc, i.id desc limit ${size} offset ${offset}`,
        sql.values,
      );
      const [first] =
        rows.length > 0 || offset === 0
          ? rows
          : await db.query<{ total: string }>(`select ${counted} as total`, sql.values);
      const total = Number(first?.total ?? 0);
      return ok(
        page(
          rows.map((i) => ({
            id: i.id,
            energyType: i.energy_type,
            meterId: i.meter_id,
            recordId: i.record_id,
            productCode: i.product_code ?? "",
            ruleCode: i.rule_code,
            checkRuleName: i.check_rule_name ?? "",
            ignoreType: i.ignore_type,
            days: i.days,
            ignoreDate: time(i.ignore_until),
            inEffect: i.in_effect,
            reason: i.reason,
            remark: i.reason,
            creator: i.creator,
            createTime: time(i.create_time),
          })),
          total,
          current,
          size,
        ),
      );
    },
  );

  app.post(
    `${pms}/checkIgnore/remove`,
    { schema: { tags, summary: "Lift ignores (ids): their rules speak again for their meters" } },
    async (request) => {
      const user = await requirePermission(db, request, LIFT_CODES);
      const params = readParams(request);
      const ids = idList(params, "ids");
      const sql = new SqlParams();
      const where = [
        `i.id = any(${sql.bind(ids)}::bigint[])`,
        `i.tenant_id = ${sql.bind(registryTenant(user, params))}`,
        "i.is_deleted = 0",
      ];
      const scope = await meterScope(db, request, sql, "i");
      if (scope) where.push(scope);
      const lifted = await db.query<{ id: string }>(
        `update pms_check_ignore i set is_deleted = 1 where ${where.join(" and ")} returning i.id::text as id`,
        sql.values,
      );
      // Another tenant's or another scope's ignore reads as absent, like one already lifted.
      if (lifted.length === 0) throw badRequest("ids: 忽略记录不存在或已撤销");
      return ok({ removed: lifted.length }, "操作成功!");
    },
  );
}
