import { fenToYuan } from "@meterline/billing";
import { permissionCodes, resources } from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { idList, optionalString, readParams } from "../../contract/params.ts";
import { scopePredicate, scopeRules } from "../../crud/data-scope.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { type EnergyKind, type MeterScope, ReadingCorrections } from "./reading-corrections.ts";

/**
 * The caller's data scope over the meters of one energy, as the meter lists apply it: a correction
 * reaches only meters the caller could list.
 */
async function meterScope(db: Db, request: FastifyRequest, kind: EnergyKind): Promise<MeterScope> {
  const def = kind === "electric" ? resources.meter : resources.water;
  const rules = await scopeRules(db, request, def.name);
  return (sql, alias) => scopePredicate(def, request, rules, sql, alias);
}

/** The money a correction booked, as the wire shows money: yuan text, the entry's id. */
const moneyOf = (money: { accountId: string; amount: bigint; ledgerId: string | null }) => ({
  accountId: money.accountId,
  amount: fenToYuan(money.amount),
  ledgerId: money.ledgerId ?? "",
});

/** Registers as entered: non-negative, at most 2 decimals (the logs keep kWh and m³ to 0.01). */
export const REGISTER = /^\d{1,10}(\.\d{1,2})?$/;

function register(params: Record<string, unknown>, name: string, required: true): string;
function register(params: Record<string, unknown>, name: string, required: false): string | null;
function register(params: Record<string, unknown>, name: string, required: boolean): string | null {
  const raw = params[name];
  const text = raw === undefined || raw === null ? "" : String(raw).trim();
  if (text === "") {
    if (required) throw badRequest(`${name}: 示数不能为空`);
    return null;
  }
  if (!REGISTER.test(text)) throw badRequest(`${name}: 应为非负数,最多两位小数`);
  return text;
}

/**
 * `dataread/submit`, `waterdataread/submit`: a read entered by hand; `…/remove?ids=&reason=`: void
 * reads, keeping them (spec §7). Button codes `dataRead_add` / `dataRead_delete` and the water ones.
 */
export async function readingCorrectionRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const corrections = new ReadingCorrections(opts.db, opts.timeZone);
  const screens: [EnergyKind, typeof resources.dataRead | typeof resources.waterDataRead][] = [
    ["electric", resources.dataRead],
    ["water", resources.waterDataRead],
  ];
  for (const [kind, def] of screens) {
    const base = `/api/${def.service}/${def.path}`;
    const codes = permissionCodes(def);
    // The hand-read list (dataReadOther) enters and voids electric reads through these same calls.
    const manual = kind === "electric" ? permissionCodes(resources.dataReadOther) : undefined;
    const adding = manual ? [codes.add, manual.add] : [codes.add];
    const voiding = manual ? [codes.remove, manual.remove] : [codes.remove];
    app.post(
      `${base}/submit`,
      { schema: { tags: [def.name], summary: "Enter a read by hand" } },
      async (request) => {
        const user = await requirePermission(opts.db, request, adding);
        const params = readParams(request);
        const meterId = optionalString(params, "meterId");
        if (!meterId || !/^\d{1,19}$/.test(meterId)) throw badRequest("meterId: 请选择表");
        const totalValue = register(params, "totalValue", true);
        const bands =
          kind === "electric"
            ? ["tipValue", "peakValue", "peaceValue", "lowValue"].map((name) => register(params, name, false))
            : [];
        const { id, money } = await corrections.submitWithMoney(
          user,
          registryTenant(user, params),
          kind,
          { meterId, readTime: optionalString(params, "readTime"), totalValue, bands },
          { scope: await meterScope(opts.db, request, kind) },
        );
        return ok(money ? { id, correction: moneyOf(money) } : { id });
      },
    );
    app.post(
      `${base}/remove`,
      { schema: { tags: [def.name], summary: "Void reads, with a reason" } },
      async (request) => {
        const user = await requirePermission(opts.db, request, voiding);
        const params = readParams(request);
        const ids = idList(params, "ids");
        const reason = optionalString(params, "reason")?.trim();
        if (!reason) throw badRequest("reason: 作废原因不能为空");
        if (reason.length > 255) throw badRequest("reason: 作废原因不能超过 255 个字");
        await corrections.void(user, registryTenant(user, params), kind, ids, reason, {
          scope: await meterScope(opts.db, request, kind),
        });
        return ok(true);
      },
    );
  }
  // datadailydd/submit {id}: the day recomputed from its reads (after corrections made elsewhere).
  // datadailydd/remove is refused (the definition's refusedWrites): a day is what its reads say;
  // void the wrong reads or enter the missing ones instead.
  const daily = resources.dataDaily;
  app.post(
    `/api/${daily.service}/${daily.path}/submit`,
    { schema: { tags: [daily.name], summary: "Recompute a day's usage from its reads" } },
    async (request) => {
      const user = await requirePermission(opts.db, request, [permissionCodes(resources.dataRead).add]);
      const params = readParams(request);
      const id = optionalString(params, "id");
      if (!id || !/^\d{1,19}$/.test(id)) throw badRequest("id: 请选择日用量记录");
      await corrections.recomputeDailyRow(registryTenant(user, params), id, {
        scope: await meterScope(opts.db, request, "electric"),
      });
      return ok(true);
    },
  );
}
