import { COUNTER_SEARCH_PATH, type CounterHit, type Page } from "@meterline/contracts";
import { api, patientApi } from "../../../app/api.ts";

const pms = "/api/blade-pms";

/** The owner and account shapes the counter books on (packages/contracts/src/counter.ts). */
export type { CounterHit, CounterMeter, OwnerAccount, OwnerWithAccounts } from "@meterline/contracts";

export const PAGE_SIZE = 10;

/**
 * The tenant a call acts in: the owner's or group's own. The server reads it for the platform
 * administrator only (every other user stays in their own tenant), so it is always sent.
 */
const inTenant = (tenantId?: string) => (tenantId ? { tenantId } : {});

/**
 * The counter's one box (GET ownerRecharge/search): rooms by building and room as people say them
 * ("2号楼 305", "2-305"), owners by name or phone, meters by number or its last digits; each hit a
 * room with its owner and every meter apart. With `alarmLevel`, only hits with a meter at that
 * level; with `tenantId`, the platform administrator's search narrowed to one tenant.
 */
export const searchCounter = (keyword: string, current: number, alarmLevel = "", tenantId = "") =>
  api.get<Page<CounterHit>>(COUNTER_SEARCH_PATH, {
    keyword: keyword.trim(),
    alarmLevel,
    current: String(current),
    size: String(PAGE_SIZE),
    ...inTenant(tenantId),
  });

/** RECHARGE_TYPE of the counter: 1 recharge, 2 refund, 3 correction plus, 4 correction minus. */
export type RechargeType = 1 | 2 | 3 | 4;

export interface RechargeInput {
  accountId: string;
  rechargeType: RechargeType;
  paymentMethod: string;
  amount: string;
  remark: string;
  idempotencyKey: string;
}

export interface Booked {
  id: string;
  receiptNo: string;
  state?: number;
}

/** The answer of a booking: `replayed` when the key had booked before (the answer is of that booking). */
export interface BookedRecharge extends Booked {
  accountId: string;
  amount: string;
  balanceAfter: string;
  replayed: boolean;
  /** Set when the operation waits for approval (state 3): the approval's process instance. */
  processInstanceId?: string;
}

/** A recharge, refund or correction booked by the server (remote-control accounts). */
export const submitRecharge = (input: RechargeInput, tenantId?: string) =>
  api.post<BookedRecharge>(`${pms}/datarecharge/submit`, { ...input, ...inTenant(tenantId) });

/**
 * A purchase written to a local-prepaid meter (the meter keeps the balance): the server answers at
 * once with state 0 and the recharge is done when the meter confirms it.
 */
export const submitMeterRecharge = (input: Omit<RechargeInput, "rechargeType">, tenantId?: string) =>
  api.post<Booked & { commandId?: string }>(`${pms}/message/recharge`, { ...input, ...inTenant(tenantId) });

/** RECHARGE state: 1 booked, 0 waiting for the meter, 2 failed. */
export interface RechargeDetail {
  id: string;
  tenantId: string;
  tenantName: string;
  /** The site's logo for the receipt; empty when the tenant has none. */
  tenantLogo?: string;
  /** The room with its building and area (pms_area_label). */
  roomName: string;
  accountId: string;
  ownerName: string;
  energyType: number;
  meterId: string;
  productCode: string;
  rechargeType: number;
  paymentMethod: number;
  amount: string;
  balanceAfter: string | null;
  state: number;
  receiptNo: string;
  operator: string;
  remark: string;
  createTime: string;
  /** The channel's transaction number of a payment taken by code or online; "" for money in hand. */
  transactionNo?: string;
}

export const rechargeDetail = (id: string, tenantId?: string) =>
  api.get<RechargeDetail>(`${pms}/datarecharge/detail`, { id, ...inTenant(tenantId) });

export interface UsageDay {
  day: string;
  electric: string;
  water: string;
}

/** The owner's usage per day over the last `days` days (electric kWh, water m³). */
export const ownerUsage = (ownerId: string, days: number, tenantId?: string) =>
  api.get<UsageDay[]>(`${pms}/homepage/getOwnerPath`, { ownerId, days: String(days), ...inTenant(tenantId) });

export interface OwnerGroup {
  id: string;
  groupName: string;
  /** Named on the platform administrator's list, which spans tenants. */
  tenantId?: string;
  tenantName?: string;
}

export const ownerGroups = () => api.get<OwnerGroup[]>(`${pms}/ownerGroup/list`);

export interface GroupRechargeInput {
  ownerGroupId: string;
  energyType: string;
  amount: string;
  paymentMethod: string;
  remark: string;
  idempotencyKey: string;
}

export interface GroupRecharged {
  count: number;
  total: string;
  recharges: {
    id: string;
    receiptNo: string;
    ownerName: string;
    productCode: string;
    amount: string;
    balanceAfter: string;
  }[];
}

/** Every owner of a group recharged in one operation, all or nothing. */
export const submitGroupRecharge = (input: GroupRechargeInput, tenantId?: string) =>
  api.post<GroupRecharged>(`${pms}/ownerRecharge/rechargeGroup`, { ...input, ...inTenant(tenantId) });

/**
 * A fresh key per opened form: a retry of the same submission reuses it, so it books once.
 * randomUUID exists only in secure contexts; a counter on plain http in a LAN still gets 128 random bits.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export type HitPage = Page<CounterHit>;

/** A scanned payment code's outcome (counter/codepay), whichever channel took it. */
export interface CodePayment {
  channel: "wechat" | "alipay";
  id: string;
  outTradeNo: string;
  transactionNo: string;
  amount: string;
  /** 0 not known yet (queried later), 1 paid and booked, 2 reversed or cancelled, 3 failed. */
  state: number;
  rechargeId: string;
}

/**
 * Takes a scanned payment code; answers once the owner has paid or the payment was reversed, which
 * takes up to about 35 s (30 s of the owner confirming, then the reverse), hence the longer wait.
 */
const codePayApi = patientApi(90_000);
export const payWithCode = (
  input: { accountId: string; amount: string; authCode: string },
  tenantId?: string,
) => codePayApi.post<CodePayment>(`${pms}/counter/codepay`, { ...input, ...inTenant(tenantId) });
