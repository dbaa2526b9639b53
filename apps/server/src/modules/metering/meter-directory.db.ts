import type { CollectorCredentials, MeterDirectory, MeterInfo, MeterProtocol } from "@meterline/gateway";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Queryable } from "../../db/client.ts";

const PROTOCOLS: Record<string, MeterProtocol> = {
  dlt645_2007: "dlt645-2007",
  dlt645_1997: "dlt645-1997",
  dlt698_45: "dlt698",
  cjt188_2004: "cjt188",
  modbus_rtu: "modbus",
  modbus_tcp: "modbus",
};

/** The `transport` of a collector that is a Modbus TCP endpoint the gateway dials (modbus-endpoint-rules.ts). */
const MODBUS_TCP_TRANSPORT = "modbus";

interface MeterRow {
  id: string;
  product_code: string;
  protocol: string;
  transport: string;
  collector_code: string;
  channel: number | null;
  di_order: string | null;
  local_prepaid: boolean;
  relay_password: string | null;
  operator_code: string | null;
  modbus_model: string | null;
  modbus_slave: number | null;
  modbus_host: string | null;
  modbus_port: number | null;
}

/**
 * The gateway's meter directory read from the registry: the live meters behind a collector
 * (registration id = collector_code) with their protocol, channel and per-model settings.
 * Relay credentials and the collectors' registration secrets are decrypted here, in the server, and
 * handed to the gateway in memory only.
 */
export class DbMeterDirectory implements MeterDirectory {
  constructor(
    private readonly db: Queryable,
    private readonly cipher: FieldCipher,
    private readonly pollIntervalMs: number,
  ) {}

  async credentialsOf(collectorId: string): Promise<CollectorCredentials | undefined> {
    const [row] = await this.db.query<{
      registration_secret: string | null;
      allowed_networks: string | null;
    }>(
      `select registration_secret, allowed_networks from pms_collector
        where collector_code = $1 and transport = 'tcp' and is_deleted = 0`,
      [collectorId],
    );
    if (!row) return undefined;
    const secret = row.registration_secret ? this.cipher.decrypt(row.registration_secret) : undefined;
    const networks = (row.allowed_networks ?? "").split(/[\s,;]+/).filter(Boolean);
    return { ...(secret ? { secret } : {}), ...(networks.length ? { allowedNetworks: networks } : {}) };
  }

  metersOf(collectorId: string): Promise<MeterInfo[]> {
    return this.load("c.collector_code = $1 and c.transport = 'tcp'", [collectorId]);
  }

  mqttMeters(): Promise<MeterInfo[]> {
    return this.load("c.transport = 'mqtt'", []);
  }

  /** Modbus TCP meters with their endpoint: the gateway connects out to each host:port once. */
  async modbusTcpMeters(): Promise<MeterInfo[]> {
    const meters = await this.load(
      "c.transport = $1 and c.modbus_host is not null and c.modbus_port is not null",
      [MODBUS_TCP_TRANSPORT],
    );
    return meters.filter((meter) => meter.protocol === "modbus");
  }

  private async load(where: string, params: unknown[]): Promise<MeterInfo[]> {
    const rows = await this.db.query<MeterRow>(
      `select m.id::text as id, m.product_code, m.protocol, c.transport, c.collector_code, m.channel,
              null as di_order, (m.meter_type = 1 and m.control_status = 0) as local_prepaid,
              m.relay_password, m.operator_code, m.modbus_model, m.modbus_slave, c.modbus_host, c.modbus_port
         from pms_meter m join pms_collector c on c.id = m.collector_id and c.is_deleted = 0
        where m.is_deleted = 0 and ${where}
       union all
       select w.id::text, w.product_code, w.protocol, c.transport, c.collector_code, w.channel,
              w.di_order, false, null, null, null, null, c.modbus_host, c.modbus_port
         from pms_water w join pms_collector c on c.id = w.collector_id and c.is_deleted = 0
        where w.is_deleted = 0 and ${where}
        order by product_code`,
      params,
    );
    return rows.flatMap((row) => {
      const protocol = PROTOCOLS[row.protocol];
      if (!protocol) return [];
      return [this.info(row, protocol)];
    });
  }

  private info(row: MeterRow, protocol: MeterProtocol): MeterInfo {
    const secret = row.relay_password ? this.cipher.decrypt(row.relay_password) : undefined;
    const credentials = {
      // Stored as the password level and the password, 8 hex digits: 02 123456.
      ...(secret
        ? { passwordLevel: Number.parseInt(secret.slice(0, 2), 16), password: secret.slice(2) }
        : {}),
      ...(row.operator_code ? { operator: row.operator_code } : {}),
    };
    return {
      id: row.id,
      // A Modbus meter is addressed on its bus by its slave address, not by its product code.
      address: protocol === "modbus" ? String(row.modbus_slave ?? 0) : row.product_code,
      protocol,
      transport: row.transport === "mqtt" ? "mqtt" : "tcp",
      collectorId: row.transport === "mqtt" ? `mqtt:${row.product_code}` : row.collector_code,
      channel: row.channel ?? 1,
      model: {
        ...(row.di_order === "little-endian" || row.di_order === "big-endian"
          ? { diOrder: row.di_order }
          : {}),
        ...(row.local_prepaid ? { localPrepaid: true } : {}),
        ...(Object.keys(credentials).length ? { credentials } : {}),
        ...(protocol === "modbus" && row.modbus_model ? { modbusModel: row.modbus_model } : {}),
        ...(row.transport === MODBUS_TCP_TRANSPORT && row.modbus_host && row.modbus_port
          ? { modbusTcp: { host: row.modbus_host, port: row.modbus_port } }
          : {}),
      },
      pollIntervalMs: this.pollIntervalMs,
    };
  }
}
