import type { FastifyInstance, FastifyRequest } from "fastify";
import { formatDateTime } from "../../contract/dates.ts";
import { done, ok, page } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, paging, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Db } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { sendMoneySheet } from "../money/money-sheet.ts";
import { listTenant, registryTenant } from "../pms/registry-access.ts";
import { endRecord, mergedSql, messageKeySql, silencedSql } from "./alarm.repository.ts";
import { evaluateAll } from "./alarm.service.ts";
import { readIgnoreInput } from "./ignore-input.ts";
import { meterScope, PLACE_JOIN, recordFilters } from "./record-search.ts";
import { alarmLabels, recordSheet } from "./record-sheet.ts";

const pms = "/api/blade-pms";
const tags = ["alarm"];
/** Who may read check records: the screen, or any of its buttons (the bell is one of them). */
const READ_CODES = ["checkRecord", "checkRecord_ignore", "checkRecord_close", "checkRecord_delete"];
const PASS_EVERY_MS = 60_000;

interface RecordRow {
  id: string;
  tenant_id: string;
  energy_type: number;
  meter_id: string;
  product_code: string;
  owner_id: string | null;
  rule_code: string;
  check_rule_name: string;
  alarm_level: number;
  alarm_status: number;
  content: string;
  create_time: Date;
  last_check_time: Date;
  restore_time: Date | null;
  close_time: Date | null;
  silenced: boolean;
  room_id?: string | null;
  room_name?: string | null;
  owner_name?: string | null;
  phone?: string | null;
}

const RECORD_COLUMNS = `r.id, r.tenant_id, r.energy_type, r.meter_id, r.product_code, r.owner_id, r.rule_code,
  r.check_rule_name, r.alarm_level, r.alarm_status, r.content, r.create_time, r.last_check_time, r.restore_time, r.close_time`;

/**
 * Alarms (spec §7): check records (the bell's upPage, the screen's page, detail, close, remove at
 * the path without /api), ignoring an alarm (checkIgnore save; the list of ignores and lifting them
 * are in ignore-list.routes.ts), and the text the console speaks for a new alarm
 * (message/SpeechByContent). The rules run as readings arrive and in
 * a pass every minute, which also restores what cleared without a reading (a recharge).
 */
export async function alarmRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const time = (value: Date | null) => (value ? formatDateTime(new Date(value), timeZone) : null);
  const recordOut = (r: RecordRow) => ({
    id: r.id,
    tenantId: r.tenant_id,
    energyType: r.energy_type,
    meterId: r.meter_id,
    productCode: r.product_code,
    ownerId: r.owner_id,
    ruleCode: r.rule_code,
    checkRuleName: r.check_rule_name,
    alarmLevel: r.alarm_level,
    alarmStatus: r.alarm_status,
    content: r.content,
    ignored: r.silenced,
    createTime: time(r.create_time),
    lastCheckTime: time(r.last_check_time),
    restoreTime: time(r.restore_time),
    closeTime: time(r.close_time),
    ...(r.room_id !== undefined ? { roomId: r.room_id, roomName: r.room_name ?? "" } : {}),
    ...(r.owner_name !== undefined ? { ownerName: r.owner_name ?? "", phone: r.phone ?? "" } : {}),
  });

  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // A pass still running (a large fleet) is not stacked on by the next tick.
    if (running) return;
    running = evaluateAll(db, new Date(), timeZone)
      .catch((error: unknown) => app.log.warn({ err: error }, "alarm pass failed"))
      .finally(() => {
        running = null;
      });
  }, PASS_EVERY_MS);
  timer.unref();
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await running;
  });

  /**
   * The records of one tenant matching `where` in the caller's data scope: how many, and any run
   * of them newest first (a page, or the export's chunks).
   */
  async function recordSearch(
    request: FastifyRequest,
    tenantId: string,
    where: (now: string) => string[],
    sql: SqlParams,
  ) {
    const now = sql.bind(new Date());
    // The clock is bound once for every query; a filter that does not need it still names it.
    const clause = [
      `r.tenant_id = ${sql.bind(tenantId)}`,
      "r.is_deleted = 0",
      `${now}::timestamptz is not null`,
      ...where(now),
      (await meterScope(db, request, sql)) ?? "true",
    ].join(" and ");
    return {
      count: async () => {
        const [count] = await db.query<{ n: string }>(
          `select count(*)::text as n from pms_check_record r where ${clause}`,
          sql.values,
        );
        return Number(count?.n ?? 0);
      },
      rows: async (limit: number, offset: number) => {
        const rows = await db.query<RecordRow>(
          `select ${RECORD_COLUMNS}, ${silencedSql(now)} as silenced, place.room_id, place.room_name, ow.owner_name,
                  ow.phone
             from pms_check_record r ${PLACE_JOIN}
             left join pms_owner ow on ow.id = r.owner_id and ow.tenant_id = r.tenant_id
            where ${clause}
            order by r.create_time desc, r.id desc limit ${Math.trunc(limit)} offset ${Math.trunc(offset)}`,
          sql.values,
        );
        return rows.map(recordOut);
      },
    };
  }

  /** The records of one tenant matching `where`, newest first, with the page's total. */
  async function recordPage(
    request: FastifyRequest,
    tenantId: string,
    where: (now: string) => string[],
    sql: SqlParams,
    params: Record<string, unknown>,
  ) {
    const { current, size, offset } = paging(params, 200);
    const search = await recordSearch(request, tenantId, where, sql);
    return page(await search.rows(size, offset), await search.count(), current, size);
  }

  /** The alarming, not yet ignored records of the merged message `recordId` belongs to, in the caller's scope. */
  async function mergedTargets(request: FastifyRequest, tenantId: string, recordId: string, now: Date) {
    const sql = new SqlParams();
    const at = sql.bind(now);
    const where = [
      `r.tenant_id = ${sql.bind(tenantId)}`,
      "r.is_deleted = 0",
      "r.alarm_status = 1",
      `not ${silencedSql(at)}`,
      `${messageKeySql()} = (select ${messageKeySql("h")} from pms_check_record h where h.id = ${sql.bind(recordId)} and h.tenant_id = r.tenant_id)`,
      (await meterScope(db, request, sql)) ?? "true",
    ].join(" and ");
    return db.query<{ id: string; energy_type: number; meter_id: string; rule_code: string }>(
      `select r.id::text as id, r.energy_type, r.meter_id::text as meter_id, r.rule_code from pms_check_record r where ${where}`,
      sql.values,
    );
  }

  /** Of the ids asked for, the records of the tenant the caller's data scope lets it see. */
  async function visibleIds(request: FastifyRequest, tenantId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const sql = new SqlParams();
    const where = `r.tenant_id = ${sql.bind(tenantId)} and r.id = any(${sql.bind(ids)}::bigint[]) and r.is_deleted = 0`;
    const scope = (await meterScope(db, request, sql)) ?? "true";
    const rows = await db.query<{ id: string }>(
      `select r.id::text as id from pms_check_record r where ${where} and ${scope}`,
      sql.values,
    );
    return rows.map((r) => r.id);
  }

  /**
   * The bell's messages: alarming records nobody ignored, newest first, one message per record —
   * or, for an owner whose meter's alarm scheme merges alarms (MERGE_ALARM_FLAG 1), one message for
   * all of that owner's alarms. The records stay one per meter and rule (each restores, closes and
   * keeps its history on its own); the message is the newest record's card, naming every rule and
   * meter in it, with the ids of its records. Paging counts messages.
   */
  async function messagePage(request: FastifyRequest, tenantId: string, params: Record<string, unknown>) {
    const { current, size, offset } = paging(params, 200);
    const sql = new SqlParams();
    const now = sql.bind(new Date());
    const clause = [
      `r.tenant_id = ${sql.bind(tenantId)}`,
      "r.is_deleted = 0",
      "r.alarm_status = 1",
      `not ${silencedSql(now)}`,
      (await meterScope(db, request, sql)) ?? "true",
    ].join(" and ");
    const messages = `with g as (
        select ${messageKeySql()} as message_key, ${RECORD_COLUMNS} from pms_check_record r where ${clause})`;
    const [count] = await db.query<{ n: string }>(
      `${messages} select count(distinct message_key)::text as n from g`,
      sql.values,
    );
    const rows = await db.query<
      RecordRow & {
        merged_ids: string[];
        rule_codes: string[];
        merged_names: string;
        merged_content: string;
        message_key: string;
        owner_name: string | null;
        phone: string | null;
      }
    >(
      `${messages},
       heads as (select distinct on (message_key) * from g order by message_key, create_time desc, id desc),
       parts as (select message_key, array_agg(id::text order by create_time desc, id desc) as merged_ids,
                        array_agg(distinct rule_code) as rule_codes,
                        string_agg(distinct check_rule_name, '、' order by check_rule_name) as merged_names,
                        string_agg(product_code || ' ' || check_rule_name, '；' order by create_time desc, id desc)
                          as merged_content
                   from g group by message_key)
       select r.*, false as silenced, p.merged_ids, p.rule_codes, p.merged_names, p.merged_content, place.room_id,
              place.room_name, ow.owner_name, ow.phone
         from heads r join parts p on p.message_key = r.message_key ${PLACE_JOIN}
         left join pms_owner ow on ow.id = r.owner_id and ow.tenant_id = r.tenant_id
        order by r.create_time desc, r.id desc limit ${size} offset ${offset}`,
      sql.values,
    );
    const cards = rows.map((row) => {
      const merged = row.message_key.startsWith("owner:");
      return {
        ...recordOut(row),
        ...(merged ? { checkRuleName: row.merged_names, content: row.merged_content } : {}),
        merged: merged ? 1 : 0,
        recordIds: row.merged_ids,
        // Who to call about it, and each rule by its code (the console names rules in its language).
        ruleCodes: row.rule_codes,
        ownerName: row.owner_name ?? "",
        phone: row.phone ?? "",
      };
    });
    return page(cards, Number(count?.n ?? 0), current, size);
  }

  app.get(
    `${pms}/checkRecord/upPage`,
    {
      schema: {
        tags,
        summary:
          "The bell's alarm messages, newest first: one per record, or per owner when the scheme merges",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      return ok(await messagePage(request, registryTenant(user, params), params));
    },
  );

  app.get(
    `${pms}/checkRecord/page`,
    { schema: { tags, summary: "Check records with filters: state, rule, level, meter, energy type, time" } },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const sql = new SqlParams();
      const filters = recordFilters(params, sql, timeZone);
      return ok(await recordPage(request, registryTenant(user, params), () => filters, sql, params));
    },
  );

  app.get(
    `${pms}/checkRecord/export`,
    { schema: { tags, summary: "Check records of the current search (as checkRecord/page) as .xlsx" } },
    async (request, reply) => {
      const user = await requirePermission(db, request, ["checkRecord_export"]);
      const params = readParams(request);
      const tenantId = registryTenant(user, params);
      const sql = new SqlParams();
      const filters = recordFilters(params, sql, timeZone);
      const search = await recordSearch(request, tenantId, () => filters, sql);
      const labels = await alarmLabels(db, tenantId);
      return sendMoneySheet(db, request, reply, {
        ...recordSheet(labels),
        count: await search.count(),
        rows: search.rows,
      });
    },
  );

  app.get(
    `${pms}/checkRecord/ruleCounts`,
    { schema: { tags, summary: "Alarming records per rule, most first (the home page's alarm card)" } },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const sql = new SqlParams();
      // The platform administrator's home counts every tenant's alarms unless it names one tenant.
      const tenantId = listTenant(user, params);
      const where = [
        tenantId === null ? "true" : `r.tenant_id = ${sql.bind(tenantId)}`,
        "r.is_deleted = 0",
        "r.alarm_status = 1",
        (await meterScope(db, request, sql)) ?? "true",
      ].join(" and ");
      const rows = await db.query<{ rule_code: string; check_rule_name: string; n: number }>(
        // The name the newest record carries: the tenant may have renamed the rule since older ones.
        `select r.rule_code, (array_agg(r.check_rule_name order by r.create_time desc))[1] as check_rule_name,
                count(*)::int as n
           from pms_check_record r where ${where}
          group by r.rule_code order by n desc, r.rule_code`,
        sql.values,
      );
      return ok(rows.map((r) => ({ ruleCode: r.rule_code, checkRuleName: r.check_rule_name, count: r.n })));
    },
  );

  app.get(
    `${pms}/checkRecord/detail`,
    { schema: { tags, summary: "One check record with the history of its states" } },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 缺少告警记录");
      const tenantId = registryTenant(user, params);
      const sql = new SqlParams();
      const where = `r.id = ${sql.bind(id)} and r.tenant_id = ${sql.bind(tenantId)} and r.is_deleted = 0`;
      const scope = (await meterScope(db, request, sql)) ?? "true";
      const [row] = await db.query<RecordRow>(
        `select ${RECORD_COLUMNS}, ${silencedSql(sql.bind(new Date()))} as silenced from pms_check_record r
          where ${where} and ${scope}`,
        sql.values,
      );
      if (!row) return ok({});
      const history = await db.query<{
        from_status: number;
        to_status: number;
        cause: string;
        create_time: Date;
      }>(
        "select from_status, to_status, cause, create_time from pms_check_record_history where record_id = $1 and tenant_id = $2 order by create_time, id",
        [id, tenantId],
      );
      return ok({
        ...recordOut(row),
        history: history.map((h) => ({
          fromStatus: h.from_status,
          toStatus: h.to_status,
          cause: h.cause,
          createTime: time(h.create_time),
        })),
      });
    },
  );

  app.post(
    `${pms}/checkRecord/close`,
    { schema: { tags, summary: "Close alarming records by hand (ALARM_STATUS 3)" } },
    async (request) => {
      const user = await requirePermission(db, request, ["checkRecord_close"]);
      const params = readParams(request);
      const ids = idList(params, "ids");
      const tenantId = registryTenant(user, params);
      const now = new Date();
      const by = `由 ${user.realName || user.account} 关闭`;
      const visible = await visibleIds(request, tenantId, ids);
      let closed = 0;
      await db.transaction(async (tx) => {
        for (const id of visible) if (await endRecord(tx, tenantId, id, 3, by, now)) closed++;
      });
      return ok({ closed });
    },
  );

  // The family's console calls this one without the /api prefix (spec §7 checkRecord); both answer.
  for (const path of ["/blade-pms/checkRecord/remove", `${pms}/checkRecord/remove`]) {
    app.post(path, { schema: { tags, summary: "Remove check records (soft)" } }, async (request) => {
      const user = await requirePermission(db, request, ["checkRecord_delete"]);
      const params = readParams(request);
      const ids = idList(params, "ids");
      if (ids.length === 0) throw badRequest("ids: 请选择至少一条记录");
      const tenantId = registryTenant(user, params);
      await db.query(
        "update pms_check_record set is_deleted = 1 where tenant_id = $1 and id = any($2::bigint[]) and is_deleted = 0",
        [tenantId, await visibleIds(request, tenantId, ids)],
      );
      return done();
    });
  }

  app.post(
    `${pms}/checkIgnore/save`,
    {
      schema: {
        tags,
        summary: "Ignore a meter's alarm: this time (days 0), 7 days, or permanently (9999, with a reason)",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ["checkRecord_ignore"]);
      const params = readParams(request);
      const input = readIgnoreInput(params);
      const tenantId = registryTenant(user, params);
      const [visible] = await visibleIds(request, tenantId, [input.recordId]);
      const [record] = await db.query<{
        energy_type: number;
        meter_id: string;
        rule_code: string;
        merged: boolean;
      }>(
        `select energy_type, meter_id::text as meter_id, rule_code, ${mergedSql()} as merged
           from pms_check_record r where id = $1 and tenant_id = $2 and is_deleted = 0`,
        [visible ?? "0", tenantId],
      );
      // Another tenant's record reads as absent: its existence is not the caller's business.
      if (!record) throw badRequest("recordId: 告警记录不存在");
      if (input.meterId !== undefined && input.meterId !== record.meter_id)
        throw badRequest("meterId: 与告警记录的表计不符");
      const now = new Date();
      const until = input.ignoreType === 2 ? new Date(now.getTime() + input.days * 86_400_000) : null;
      // A merged message stands for all of its owner's alarms: ignoring it ignores each of them,
      // as the operator saw them on the one card (those already ignored stay as they were).
      const targets = record.merged ? await mergedTargets(request, tenantId, input.recordId, now) : [];
      if (!targets.some((t) => t.id === input.recordId)) targets.push({ id: input.recordId, ...record });
      await db.transaction(async (tx) => {
        for (const target of targets)
          await tx.query(
            `insert into pms_check_ignore (id, tenant_id, energy_type, meter_id, record_id, rule_code, ignore_type, days,
               ignore_until, reason, create_user, creator, create_time)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
            [
              nextId(),
              tenantId,
              target.energy_type,
              target.meter_id,
              target.id,
              target.rule_code,
              input.ignoreType,
              input.days,
              until,
              input.reason,
              user.userId || null,
              user.realName || user.account,
              now,
            ],
          );
      });
      return done("操作成功!");
    },
  );

  app.get(
    `${pms}/message/SpeechByContent`,
    { schema: { tags, summary: "The sentence the console speaks for a new alarm (type 2, checkRuleName)" } },
    async (request) => {
      await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      if (optionalString(params, "type") !== "2") throw badRequest("type: 只能是 2(告警播报)");
      const name = optionalString(params, "checkRuleName")?.trim();
      if (!name) throw badRequest("checkRuleName: 缺少告警规则名称");
      if (name.length > 64) throw badRequest("checkRuleName: 不能超过 64 个字符");
      const english = /^en\b/i.test(String(request.headers["accept-language"] ?? ""));
      return ok(english ? `New alarm: ${name}. Please check.` : `您有一条新的告警：${name}，请及时处理`);
    },
  );
}
