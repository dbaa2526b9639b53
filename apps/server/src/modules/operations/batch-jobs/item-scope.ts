import { type ResourceDef, resources } from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { scopePredicate, scopeRules } from "../../../crud/data-scope.ts";
import { SqlParams } from "../../../crud/sql.ts";
import type { Queryable } from "../../../db/client.ts";

type Rules = Awaited<ReturnType<typeof scopeRules>>;

/**
 * The caller's data scope over a job's items, as a predicate on the item alias: true for an item
 * whose meter (electric or water, by its energy type) the caller's roles may see. Built per
 * statement, because its values are bound into that statement's parameters.
 */
export type ItemScope = (sql: SqlParams, item: string) => string;

/**
 * The scope of the caller, or undefined when its roles reach every meter (the platform
 * administrator, a role with "all", or no rule): then a job reads whole. The rules are the
 * meter and water lists' own (switch.routes.ts outsideScope checks commands with the same ones).
 */
export async function itemScopeOf(db: Queryable, request: FastifyRequest): Promise<ItemScope | undefined> {
  const [meterRules, waterRules] = await Promise.all([
    scopeRules(db, request, resources.meter.name),
    scopeRules(db, request, resources.water.name),
  ]);
  const probe = (rules: Rules, def: ResourceDef) =>
    scopePredicate(def, request, rules, new SqlParams()) !== undefined;
  const meterNarrowed = probe(meterRules, resources.meter);
  const waterNarrowed = probe(waterRules, resources.water);
  if (!meterNarrowed && !waterNarrowed) return undefined;
  return (sql, item) => {
    const seen = (energyType: 1 | 2, table: "pms_meter" | "pms_water", rules: Rules) => {
      const def: ResourceDef = energyType === 1 ? resources.meter : resources.water;
      const scope = scopePredicate(def, request, rules, sql, "scoped") ?? "true";
      return `(${item}.energy_type = ${energyType} and exists (select 1 from ${table} scoped
                where scoped.id = ${item}.meter_id and scoped.tenant_id = ${item}.tenant_id and ${scope}))`;
    };
    return `(${seen(1, "pms_meter", meterRules)} or ${seen(2, "pms_water", waterRules)})`;
  };
}
