import { resources } from "@meterline/contracts";
import { isMask, MASK } from "../../crud/field-cipher.ts";
import { nextId } from "../../db/ids.ts";
import { hostProblem, MODBUS_TCP_TRANSPORT } from "../pms/modbus-endpoint-rules.ts";
import { COLLECTOR_COLUMNS, type CollectorKey, collectorHeader } from "./collector-columns.ts";
import type { NewRow } from "./import-plan.ts";
import type { TopologySheetRow } from "./import-sheet.ts";
import { choiceText, type RegistrySnapshot } from "./registry-snapshot.ts";
import { checkPart, dictionaryReasons, type Labels } from "./row-values.ts";

const { collector } = resources;

const LABELS: Labels = {
  collectorCode: collectorHeader("collectorCode"),
  collectorName: collectorHeader("collectorName"),
  collectorType: collectorHeader("collectorType"),
  registrationSecret: collectorHeader("secret"),
  modbusHost: collectorHeader("modbusEndpoint"),
  modbusPort: collectorHeader("modbusEndpoint"),
  remark: collectorHeader("remark"),
};
/** host:port, the host an IPv4 address, a name, or an IPv6 address in brackets ([fd00::7]:502). */
const ENDPOINT = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/;
/** 集中器 in the `collector_type` dictionary: a Q/GDW 1376.1 concentrator. */
const CONCENTRATOR = "2";
/** A 1376.1 address as concentrators print it: area code and terminal address, 4 hex digits each. */
const TERMINAL_ADDRESS = /^([0-9A-Fa-f]{4})[-\s]?([0-9A-Fa-f]{4})$/;
/**
 * What the gateway can turn into the 16-byte login password (concentrator/login.ts): 32 hex digits,
 * or a text of at most 16 bytes, which the secret's own rule (16–64 characters) makes exactly 16.
 */
const CONCENTRATOR_PASSWORD = /^(?:[0-9A-Fa-f]{32}|[A-Za-z0-9._~-]{16})$/;

export interface CollectorRejection {
  row: number;
  /** The row's cells in the sheet's column order, the secret masked: a rejected sheet never echoes it. */
  cells: string[];
  reason: string;
}

export interface CollectorPlan {
  total: number;
  accepted: number;
  unchanged: number;
  rejected: CollectorRejection[];
  collectors: NewRow[];
  /** Codes of rows naming a collector the tenant already has: used as it is, never changed. */
  existing: string[];
}

type CollectorRow = TopologySheetRow<CollectorKey>;

/** The collector code a concentrator's 终端地址 stands for (3401-0102 → 34010102), if well formed. */
function concentratorCode(address: string): string | undefined {
  const match = TERMINAL_ADDRESS.exec(address);
  if (!match || /^0{4}$/.test(match[2]!)) return undefined;
  return `${match[1]}${match[2]}`.toUpperCase();
}

/** Every code the sheet may create, for the one query that finds those another tenant holds. */
export const candidateCodes = (rows: readonly CollectorRow[]) => [
  ...new Set(
    rows
      .flatMap((r) => [r.text.collectorCode, concentratorCode(r.text.terminalAddress) ?? ""])
      .filter(Boolean),
  ),
];

/**
 * Decides what every row of the 采集器 sheet does, before the room rows (which may then bind meters
 * to the collectors it makes). The rules are the collector form's, judged in memory:
 *
 * - 采集器注册码 names the collector. A code the tenant already has is used as it is: the row is
 *   accepted as existing and nothing of it is written or checked. A code seen in an earlier row, or
 *   held by another tenant (a DTU announces itself by its code alone, so codes are unique across
 *   tenants, as the form's hook demands), is a rejected row.
 * - 采集器类型 is a label (zh or en) or key of `collector_type`; blank is DTU, the form's default.
 * - 集中器 (Q/GDW 1376.1): 终端地址 is required, the area code and the terminal address in 4 hex
 *   digits each (3401-0102 or 34010102; terminal 0000 names no terminal). The gateway finds the
 *   concentrator by that address, so the code is it in upper case: a blank code takes it, another
 *   code is a rejected row. 接入密钥 is the concentrator's login password and is required: 32 hex
 *   digits (16 bytes) or 16 characters. Other types take no 终端地址.
 * - 接入密钥 otherwise follows the form's rule (16–64 letters, digits or . _ ~ -), optional; it is
 *   stored encrypted as the form stores it. A masked value (from a rejected sheet) must be retyped.
 * - 采集器名称 is the code when blank; 备注 as the form.
 */
export class CollectorPlanner {
  private readonly plan: CollectorPlan = {
    total: 0,
    accepted: 0,
    unchanged: 0,
    rejected: [],
    collectors: [],
    existing: [],
  };
  private readonly firstSeen = new Map<string, number>();

  constructor(
    private readonly snapshot: RegistrySnapshot,
    /** Codes of the sheet that another tenant's live collector holds. */
    private readonly foreignCodes: ReadonlySet<string>,
    private readonly timeZone: string,
  ) {}

  planAll(rows: readonly CollectorRow[]): CollectorPlan {
    for (const row of rows) this.decide(row);
    return this.plan;
  }

  private decide(row: CollectorRow): void {
    this.plan.total++;
    const t = row.text;
    const reasons = [...row.problems];
    const type = this.typeKey(t.collectorType, reasons);
    const code =
      t.collectorCode || (type === CONCENTRATOR ? (concentratorCode(t.terminalAddress) ?? "") : "");
    if (code !== "" && this.snapshot.collectors.has(code) && reasons.length === 0) {
      this.plan.accepted++;
      this.plan.unchanged++;
      this.plan.existing.push(code);
      return;
    }
    if (type === CONCENTRATOR) this.checkConcentrator(t, reasons);
    else if (t.terminalAddress !== "" && type !== null)
      reasons.push(`${collectorHeader("terminalAddress")}: 只用于集中器`);
    const endpoint = this.endpoint(t, type, reasons);
    if (isMask(t.secret)) reasons.push(`${collectorHeader("secret")}: 请重新填写(未导入的行不显示密钥)`);
    if (code !== "") {
      const first = this.firstSeen.get(code);
      if (first === undefined) this.firstSeen.set(code, row.row);
      else reasons.push(`${collectorHeader("collectorCode")}: [${code}] 与第 ${first} 行重复`);
      if (this.foreignCodes.has(code))
        reasons.push(`${collectorHeader("collectorCode")}: 注册码 [${code}] 已存在`);
    }
    const body = {
      collectorCode: code,
      collectorName: t.collectorName || code,
      collectorType: type ?? undefined,
      registrationSecret: isMask(t.secret) ? "" : t.secret,
      ...(endpoint ?? {}),
      remark: t.remark,
    };
    const check = checkPart(collector, body, LABELS, this.timeZone);
    reasons.push(...check.reasons);
    if (check.values)
      reasons.push(...dictionaryReasons(collector, check.values, this.snapshot.dictionaryKeys, LABELS));
    if (reasons.length > 0 || !check.values) {
      const cells = COLLECTOR_COLUMNS.map((c) => (c.key === "secret" && t.secret !== "" ? MASK : t[c.key]));
      this.plan.rejected.push({ row: row.row, cells, reason: [...new Set(reasons)].join("; ") });
      return;
    }
    const id = nextId();
    this.snapshot.collectors.set(code, id);
    // The room rows of the same file may put Modbus TCP meters on it.
    if (endpoint) this.snapshot.modbusEndpoints.add(id);
    this.plan.accepted++;
    this.plan.collectors.push({ id, values: check.values });
  }

  private checkConcentrator(t: Record<CollectorKey, string>, reasons: string[]): void {
    const address = collectorHeader("terminalAddress");
    if (t.terminalAddress === "") {
      reasons.push(`${address}: 集中器须填写, 行政区划码 4 位 + 终端地址 4 位(十六进制), 如 3401-0102`);
    } else {
      const derived = concentratorCode(t.terminalAddress);
      if (!derived)
        reasons.push(
          `${address}: [${t.terminalAddress}] 格式不正确, 须为行政区划码 4 位 + 终端地址 4 位(十六进制, 终端地址不为 0000), 如 3401-0102`,
        );
      else if (t.collectorCode !== "" && t.collectorCode !== derived)
        reasons.push(`${collectorHeader("collectorCode")}: 集中器的注册码须为其终端地址 ${derived}(或不填)`);
    }
    const secret = collectorHeader("secret");
    if (t.secret === "") reasons.push(`${secret}: 集中器须填写登录密码`);
    else if (!isMask(t.secret) && !CONCENTRATOR_PASSWORD.test(t.secret))
      reasons.push(`${secret}: 集中器的登录密码须为 32 位十六进制数(16 字节)或 16 个字母、数字或 . _ ~ -`);
  }

  /**
   * Modbus TCP 地址: host:port of an endpoint the gateway dials, which makes the collector one of
   * transport Modbus TCP 直连 (a DTU or a concentrator dials in and takes none). Undefined when blank.
   */
  private endpoint(
    t: Record<CollectorKey, string>,
    type: string | undefined | null,
    reasons: string[],
  ): { transport: string; modbusHost: string; modbusPort: string } | undefined {
    if (t.modbusEndpoint === "") return undefined;
    const header = collectorHeader("modbusEndpoint");
    if (type === CONCENTRATOR) {
      reasons.push(`${header}: 集中器不用此列`);
      return undefined;
    }
    const match = ENDPOINT.exec(t.modbusEndpoint.trim());
    const host = match ? (match[1] ?? match[2]!) : "";
    const problem = match ? hostProblem(host) : undefined;
    const port = Number(match?.[3]);
    if (!match || problem || port < 1 || port > 65535) {
      reasons.push(
        `${header}: [${t.modbusEndpoint}] 须为 主机:端口, 主机为 IP 地址或主机名, 端口 1-65535, 如 192.168.1.20:502`,
      );
      return undefined;
    }
    return { transport: MODBUS_TCP_TRANSPORT, modbusHost: host, modbusPort: match[3]! };
  }

  /** A collector type by label (DTU, 集中器, Concentrator …) or key; undefined when blank, null when unknown. */
  private typeKey(text: string, reasons: string[]): string | undefined | null {
    if (text === "") return undefined;
    const choices = this.snapshot.choices.get("collector_type");
    const key = choices?.byText.get(choiceText(text));
    if (key !== undefined) return key;
    const labels = (choices?.entries ?? []).map((e) => e.label).join("、");
    reasons.push(`${collectorHeader("collectorType")}: [${text}] 不存在, 可选 ${labels}`);
    return null;
  }
}
