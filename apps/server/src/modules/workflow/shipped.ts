import { readFile } from "node:fs/promises";
import type { Db } from "../../db/client.ts";
import { deploy } from "./deployment.service.ts";

/** The processes the product ships, deployed as common definitions (every tenant may start them). */
const SHIPPED = [
  { file: "leave.bpmn20.xml", key: "Leave", category: "flow_1", bySystem: false },
  // Started by the money module only (refunds and corrections minus above the tenant's threshold).
  { file: "money-approval.bpmn20.xml", key: "MoneyApproval", category: "flow_3", bySystem: true },
];

/**
 * Deploys each shipped process once per database, at start: a second process starting at the same
 * time waits on the lock and then finds it deployed.
 */
export async function ensureShippedProcesses(db: Db): Promise<void> {
  for (const shipped of SHIPPED) {
    const xml = await readFile(new URL(`./processes/${shipped.file}`, import.meta.url), "utf8");
    await db.transaction(async (tx) => {
      await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`wf:shipped:${shipped.key}`]);
      const [found] = await tx.query(
        "select 1 from wf_definition where tenant_id = '' and def_key = $1 limit 1",
        [shipped.key],
      );
      if (!found) {
        const ids = await deploy(tx, {
          tenantIds: [],
          category: shipped.category,
          files: [{ name: shipped.file, xml }],
          userId: null,
        });
        if (shipped.bySystem)
          await tx.query("update wf_definition set started_by_system = true where id = any($1::varchar[])", [
            ids,
          ]);
      }
    });
  }
}
