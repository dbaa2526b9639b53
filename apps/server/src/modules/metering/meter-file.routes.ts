import {
  type CollectorFileMeter,
  type CollectorOverview,
  readCodesOf,
  resources,
} from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { formatDateTime } from "../../contract/dates.ts";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";

/** The Q/GDW 1376.1 meter protocol codes the gateway files, by the registry's names. */
const PROTOCOL_NAMES: Record<number, string> = { 1: "dlt645_1997", 30: "dlt645_2007", 32: "dlt698_45" };

interface FileRow {
  pn: number;
  address: string;
  protocol: number;
  port: number;
}

/** Bounded: a file holds at most 2040 rows, and only well-formed ones are shown. */
function rowsOf(value: unknown): FileRow[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, 2040)
    .flatMap((row: Partial<FileRow> | null) =>
      typeof row?.pn === "number" && typeof row.address === "string" && typeof row.port === "number"
        ? [{ pn: row.pn, address: row.address.slice(0, 12), protocol: Number(row.protocol), port: row.port }]
        : [],
    );
}

interface MeterRow {
  id: string;
  product_code: string;
  meter_name: string | null;
  protocol: string;
  channel: number | null;
  online_status: number;
  read_time: Date | null;
  missing: string | null;
}

type Format = (at: Date | null) => string | null;

function fileMeter(row: FileRow | undefined, meter: MeterRow | undefined, iso: Format): CollectorFileMeter {
  // A poll the meter left silent is recorded too, naming every item missing: an electric poll
  // always asks for the energy register first, so a read without it went unanswered.
  const answered = meter?.read_time != null && !(meter.missing ?? "").split(",").includes("energy");
  return {
    pn: row?.pn ?? null,
    address: row?.address ?? meter?.product_code ?? "",
    protocolName: row ? (PROTOCOL_NAMES[row.protocol] ?? String(row.protocol)) : (meter?.protocol ?? ""),
    port: row?.port ?? meter?.channel ?? null,
    meterId: meter?.id ?? null,
    meterName: meter?.meter_name ?? "",
    onlineStatus: meter?.online_status ?? 0,
    lastPollTime: iso(meter?.read_time ?? null),
    answered,
  };
}

/**
 * `collector/overview?id=`: a collector's state and, for a concentrator, its meter file as the
 * gateway last wrote it (measurement point, meter address, protocol, port), each row with the
 * registry's meter at that address and when it last answered a poll, and the registry's meters
 * behind it that the file does not hold yet.
 */
export async function meterFileRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const iso: Format = (at) => (at ? formatDateTime(new Date(at), timeZone) : null);
  const def = resources.collector;
  app.get(
    `/api/${def.service}/${def.path}/overview`,
    { schema: { tags: [def.name], summary: "A collector's state and a concentrator's meter file" } },
    async (request) => {
      const user = await requirePermission(db, request, readCodesOf(def));
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 不能为空");
      const [collector] = await db.query<{
        id: string;
        collector_name: string;
        collector_code: string;
        collector_type: number;
        online_status: number;
        last_online_time: Date | null;
        modbus_host: string | null;
        modbus_port: number | null;
        meter_file: unknown;
        file_time: Date | null;
      }>(
        `select c.id::text as id, c.collector_name, c.collector_code, c.collector_type, c.online_status,
                c.last_online_time, c.modbus_host, c.modbus_port, f.meter_file, f.file_time
           from pms_collector c left join pms_collector_meter_file f on f.collector_code = c.collector_code
          where c.id = $1 and c.tenant_id = $2 and c.is_deleted = 0`,
        [id, registryTenant(user, params)],
      );
      if (!collector) throw notFound("采集器不存在");
      const meters = await db.query<MeterRow>(
        `select m.id::text as id, m.product_code, m.meter_name, m.protocol, m.channel, m.online_status, d.read_time, d.missing
           from pms_meter m left join pms_meter_current_data d on d.meter_id = m.id and d.energy_type = 1
          where m.collector_id = $1 and m.is_deleted = 0
          order by m.product_code`,
        [id],
      );
      const byAddress = new Map(meters.map((meter) => [meter.product_code, meter]));
      const rows = rowsOf(collector.meter_file).sort((a, b) => a.pn - b.pn);
      const filed = new Set(rows.map((row) => row.address));
      const overview: CollectorOverview = {
        collector: {
          id: collector.id,
          collectorName: collector.collector_name,
          collectorCode: collector.collector_code,
          collectorType: collector.collector_type,
          onlineStatus: collector.online_status,
          lastOnlineTime: iso(collector.last_online_time),
          modbusEndpoint: endpointText(collector.modbus_host, collector.modbus_port),
        },
        fileTime: iso(collector.file_time),
        file: rows.map((row) => fileMeter(row, byAddress.get(row.address), iso)),
        notFiled: meters.filter((m) => !filed.has(m.product_code)).map((m) => fileMeter(undefined, m, iso)),
      };
      return ok(overview);
    },
  );
}

/** host:port as operators write it, an IPv6 host in brackets; null unless both are set. */
function endpointText(host: string | null, port: number | null): string | null {
  if (!host || !port) return null;
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
