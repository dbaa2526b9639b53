import { resources } from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { formatDateTime, parseDateTime } from "../../contract/dates.ts";
import { done, ok, page } from "../../contract/envelope.ts";
import { badParam, badRequest } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, paging, readParams } from "../../contract/params.ts";
import { scopePredicate, scopeRules } from "../../crud/data-scope.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Db } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { endRecord, silencedSql } from "./alarm.repository.ts";
import { evaluateAll } from "./alarm.service.ts";
import { isRuleCode } from "./alarm-rules.ts";
import { readIgnoreInput } from "./ignore-input.ts";

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
}

const RECORD_COLUMNS = `r.id, r.tenant_id, r.energy_type, r.meter_id, r.product_code, r.owner_id, r.rule_code,
  r.check_rule_name, r.alarm_level, r.alarm_status, r.content, r.create_time, r.last_check_time, r.restore_time, r.close_time`;

/** The room a record's meter is installed in (the screen's room column), joined as `place`. */
const PLACE_JOIN = `left join lateral (
    select rm.room_id::text as room_id, rr.room_name from pms_room_meter rm
      join pms_room rr on rr.id = rm.room_id and rr.is_deleted = 0
     where rm.tenant_id = r.tenant_id and rm.energy_type = r.energy_type and rm.meter_id = r.meter_id
       and rm.is_deleted = 0
     limit 1) place on true`;

/**
 * The roles' data scope over electric and water meters as a predicate on a record `r`, or undefined
 * when it grants every meter: records of meters outside it read as absent, as the meters do.
 */
async function meterScope(
  db: Db,
  request: FastifyRequest,
  sql: SqlParams,
  r = "r",
): Promise<string | undefined> {
  const electric = scopePredicate(
    resources.meter,
    request,
    await scopeRules(db, request, "meter"),
    sql,
    "sm",
  );
  const water = scopePredicate(resources.water, request, await scopeRules(db, request, "water"), sql, "sw");
  if (!electric && !water) return undefined;
  const inScope = (table: string, alias: string, predicate: string | undefined) =>
    predicate
      ? `exists (select 1 from ${table} ${alias} where ${alias}.id = ${r}.meter_id and ${alias}.tenant_id = ${r}.tenant_id and ${predicate})`
      : "true";
  return `((${r}.energy_type = 1 and ${inScope("pms_meter", "sm", electric)})
        or (${r}.energy_type = 2 and ${inScope("pms_water", "sw", water)}))`;
}

/**
 * Alarms (spec §7): check records (the bell's upPage, the screen's page, detail, close, remove at
 * the path without /api), the operators' ignores (checkIgnore save and page), and the text the
 * console speaks for a new alarm (message/SpeechByContent). The rules run as readings arrive and in
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

  /** The records of one tenant matching `where`, newest first, with the page's total. */
  async function recordPage(
    request: FastifyRequest,
    tenantId: string,
    where: (now: string) => string[],
    sql: SqlParams,
    params: Record<string, unknown>,
  ) {
    const { current, size, offset } = paging(params, 200);
    const now = sql.bind(new Date());
    // The clock is bound once for both queries; a filter that does not need it still names it.
    const clause = [
      `r.tenant_id = ${sql.bind(tenantId)}`,
      "r.is_deleted = 0",
      `${now}::timestamptz is not null`,
      ...where(now),
      (await meterScope(db, request, sql)) ?? "true",
    ].join(" and ");
    const [count] = await db.query<{ n: string }>(
      `select count(*)::text as n from pms_check_record r where ${clause}`,
      sql.values,
    );
    const rows = await db.query<RecordRow>(
      `select ${RECORD_COLUMNS}, ${silencedSql(now)} as silenced, place.room_id, place.room_name
         from pms_check_record r ${PLACE_JOIN} where ${clause}
        order by r.create_time desc, r.id desc limit ${size} offset ${offset}`,
      sql.values,
    );
    return page(rows.map(recordOut), Number(count?.n ?? 0), current, size);
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

  app.get(
    `${pms}/checkRecord/upPage`,
    { schema: { tags, summary: "Alarming records nobody ignored, newest first (the notice bell)" } },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const sql = new SqlParams();
      return ok(
        await recordPage(
          request,
          registryTenant(user, params),
          (now) => ["r.alarm_status = 1", `not ${silencedSql(now)}`],
          sql,
          params,
        ),
      );
    },
  );

  app.get(
    `${pms}/checkRecord/page`,
    { schema: { tags, summary: "Check records with filters: state, rule, level, meter, energy type, time" } },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const sql = new SqlParams();
      const filters: string[] = [];
      const status = optionalString(params, "alarmStatus");
      if (status !== undefined) {
        if (!/^[0-3]$/.test(status)) throw badParam("alarmStatus");
        filters.push(`r.alarm_status = ${sql.bind(Number(status))}`);
      }
      const level = optionalString(params, "alarmLevel");
      if (level !== undefined) {
        if (!/^[0-3]$/.test(level)) throw badParam("alarmLevel");
        filters.push(`r.alarm_level = ${sql.bind(Number(level))}`);
      }
      const energy = optionalString(params, "energyType");
      if (energy !== undefined) {
        if (energy !== "1" && energy !== "2") throw badParam("energyType");
        filters.push(`r.energy_type = ${sql.bind(Number(energy))}`);
      }
      const rule = optionalString(params, "ruleCode");
      if (rule !== undefined) {
        if (!isRuleCode(rule)) throw badParam("ruleCode");
        filters.push(`r.rule_code = ${sql.bind(rule)}`);
      }
      const meterId = optionalId(params, "meterId");
      if (meterId) filters.push(`r.meter_id = ${sql.bind(meterId)}`);
      const code = optionalString(params, "productCode");
      if (code) filters.push(`r.product_code like ${sql.bind(`%${code.replace(/[\\%_]/g, "\\$&")}%`)}`);
      const name = optionalString(params, "checkRuleName");
      if (name) filters.push(`r.check_rule_name like ${sql.bind(`%${name.replace(/[\\%_]/g, "\\$&")}%`)}`);
      for (const [param, op] of [
        ["startTime", ">="],
        ["endTime", "<="],
      ] as const) {
        const text = optionalString(params, param);
        if (text === undefined) continue;
        const at = parseDateTime(text, timeZone);
        if (!at) throw badParam(param);
        filters.push(`r.create_time ${op} ${sql.bind(at)}`);
      }
      return ok(await recordPage(request, registryTenant(user, params), () => filters, sql, params));
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
      const [record] = await db.query<{ energy_type: number; meter_id: string; rule_code: string }>(
        "select energy_type, meter_id::text as meter_id, rule_code from pms_check_record where id = $1 and tenant_id = $2 and is_deleted = 0",
        [visible ?? "0", tenantId],
      );
      // Another tenant's record reads as absent: its existence is not the caller's business.
      if (!record) throw badRequest("recordId: 告警记录不存在");
      if (input.meterId !== undefined && input.meterId !== record.meter_id)
        throw badRequest("meterId: 与告警记录的表计不符");
      const now = new Date();
      const until = input.ignoreType === 2 ? new Date(now.getTime() + input.days * 86_400_000) : null;
      await db.query(
        `insert into pms_check_ignore (id, tenant_id, energy_type, meter_id, record_id, rule_code, ignore_type, days,
           ignore_until, reason, create_user, creator, create_time)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          nextId(),
          tenantId,
          record.energy_type,
          record.meter_id,
          input.recordId,
          record.rule_code,
          input.ignoreType,
          input.days,
          until,
          input.reason,
          user.userId || null,
          user.realName || user.account,
          now,
        ],
      );
      return done("操作成功!");
    },
  );

  app.get(
    `${pms}/checkIgnore/page`,
    { schema: { tags, summary: "The operators' ignores, newest first" } },
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
      const scope = await meterScope(db, request, sql, "i");
      if (scope) where.push(scope);
      const clause = where.join(" and ");
      const [count] = await db.query<{ n: string }>(
        `select count(*)::text as n from pms_check_ignore i where ${clause}`,
        sql.values,
      );
      const rows = await db.query<{
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
      }>(
        `select i.id, i.energy_type, i.meter_id, i.record_id, i.rule_code, i.ignore_type, i.days, i.ignore_until,
                i.reason, i.creator, i.create_time, r.product_code, r.check_rule_name
           from pms_check_ignore i left join pms_check_record r on r.id = i.record_id and r.tenant_id = i.tenant_id
          where ${clause} order by i.create_time desc, i.id desc limit ${size} offset ${offset}`,
        sql.values,
      );
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
            reason: i.reason,
            remark: i.reason,
            creator: i.creator,
            createTime: time(i.create_time),
          })),
          Number(count?.n ?? 0),
          current,
          size,
        ),
      );
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
