import type { Queryable } from "../../db/client.ts";

interface MeterCollector {
  product_code: string;
  collector_name: string | null;
  collector_code: string | null;
  online_status: number | null;
  last_online_time: Date | null;
}

/** The collector a meter is reached through, as the operator knows it: name (code). */
export const collectorLabel = (name: string | null, code: string | null) =>
  name && code && name !== code ? `${name}(${code})` : (name ?? code ?? "");

/** Where the collector stands, so the operator knows whether to read now or wait for it. */
function collectorWords(row: MeterCollector): string {
  if (row.collector_code === null) return "该表未设置采集器, 请先在电表档案中设置采集器";
  const collector = `采集器 ${collectorLabel(row.collector_name, row.collector_code)}`;
  if (row.online_status === 1) return `${collector} 在线, 请在抄表中读取该表`;
  if (row.last_online_time === null) return `${collector} 从未连接, 请等待采集器上线后在抄表中读取该表`;
  return `${collector} 离线, 请等待采集器上线后在抄表中读取该表`;
}

/**
 * Why a local-prepaid meter cannot take a purchase yet: the count it must accept is its count + 1,
 * and that count has not been read. Names the meter's collector and its state, because that is
 * what the operator acts on (read the meter now, or fix or wait for the collector).
 */
export async function purchaseCountNeeded(tx: Queryable, tenantId: string, meterId: string): Promise<string> {
  const [row] = await tx.query<MeterCollector>(
    `select m.product_code, c.collector_name, c.collector_code, c.online_status, c.last_online_time
       from pms_meter m
       left join pms_collector c on c.id = m.collector_id and c.tenant_id = m.tenant_id and c.is_deleted = 0
      where m.id = $1 and m.tenant_id = $2`,
    [meterId, tenantId],
  );
  const code = row?.product_code ?? meterId;
  const where = row ? collectorWords(row) : "请在抄表中读取该表";
  return `本地预付费电表 ${code} 须先抄到购电次数才能写表预存: ${where}`;
}
