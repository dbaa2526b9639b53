/**
 * The owner page's calls to /api/blade-pms/h5. The owner session travels in its own header
 * (H5-Auth), never in the console's Blade-Auth, and is kept per tenant in this browser.
 */
const BASE = "/api/blade-pms/h5";

export class OwnerApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const storageKey = (tenantId: string) => `meterline.h5.session.${tenantId}`;

export function savedSession(tenantId: string): string | null {
  try {
    return localStorage.getItem(storageKey(tenantId));
  } catch {
    return null;
  }
}

export function saveSession(tenantId: string, token: string | null) {
  try {
    if (token) localStorage.setItem(storageKey(tenantId), token);
    else localStorage.removeItem(storageKey(tenantId));
  } catch {
    // Private modes without storage: the session lasts as long as the page.
  }
}

/**
 * The tenant in the address does not exist. The site answer does not say so (it would let anyone
 * list the tenant codes); asking for a code or signing in does, with a 404.
 */
export const isUnknownTenant = (error: unknown) => error instanceof OwnerApiError && error.status === 404;

/** The field a server message names ("phone: ..."), dropped for display: the form shows where. */
const withoutField = (msg: string) => msg.replace(/^[A-Za-z]+: /, "");

export async function call<T>(
  method: "GET" | "POST",
  path: string,
  options: { token?: string | null; body?: Record<string, unknown> } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers["H5-Auth"] = options.token;
  if (options.body) headers["content-type"] = "application/json";
  const response = await fetch(`${BASE}/${path}`, {
    method,
    headers,
    ...(options.body ? { body: JSON.stringify(options.body) } : {}),
  });
  let envelope: { success?: boolean; data?: T; msg?: string } = {};
  try {
    envelope = await response.json();
  } catch {
    // A proxy's error page: the status says enough.
  }
  if (!response.ok || envelope.success === false) {
    throw new OwnerApiError(response.status, withoutField(envelope.msg ?? String(response.status)));
  }
  return envelope.data as T;
}

export interface Account {
  id: string;
  energyType: number;
  meterId: string;
  productCode: string;
  meterName: string;
  roomName: string;
  areaName: string;
  /** The room as the property names it, building included ("2号楼 101"). */
  roomLabel: string;
  balanceFen: string;
  alarmLevel: number;
  switchStatus: number;
  arrearsCut: number;
  /** Cut for arrears: the least recharge that restores supply, and that in whole yuan (offered). */
  restore: { leastFen: string; offerFen: string } | null;
  /** Days until the balance is forecast to be spent (1: today); empty when plenty or unknown. */
  forecastDays: number | "" | null;
  /** The forecast is within the property's warning days: the page says so. */
  forecastWarning: boolean;
}

export interface Me {
  tenantId: string;
  kind: "wechat" | "phone";
  phone: string;
  bound: boolean;
  ownerName: string;
  accounts: Account[];
}

export interface UsagePoint {
  period: string;
  usage: string;
}

export interface Recharge {
  id: string;
  accountId: string;
  energyType: number;
  rechargeType: number;
  paymentMethod: number;
  amountFen: string;
  balanceAfterFen: string | null;
  receiptNo: string;
  createTime: string;
  productCode: string;
}

export interface Payment {
  id: string;
  amountFen: string;
  paymentMethod: number;
  state: number;
  transactionNo: string;
  time: string;
}

export interface Receipt extends Recharge {
  ownerName: string;
  roomName: string;
  operator: string;
  remark: string;
}

export interface Notices {
  alarms: {
    kind: string;
    level: number;
    status: number;
    time: string;
    restoreTime: string | null;
    productCode: string;
    room: string;
  }[];
  supply: { kind: "cut" | "restore"; state: string; time: string; productCode: string; room: string }[];
}

/** Whole fen to yuan text, exactly (no floating point on money). */
export function yuan(fen: string | null | undefined): string {
  if (fen === null || fen === undefined || fen === "") return "-";
  const value = BigInt(fen);
  const sign = value < 0n ? "-" : "";
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
}

export interface PayOptions {
  enabled: boolean;
  maxAmountFen: string;
  presets: string[];
  /** WeChat Pay only: JSAPI inside WeChat, Native (a QR code) elsewhere. */
  channel?: "jsapi" | "native";
}

/** The online channels an owner pays through. */
export type PayChannel = "wxpay" | "alipay";

/** An Alipay order just taken: the cashier URL to open (wap) or the QR code to show (qr). */
export interface NewAlipayOrder {
  id: string;
  outTradeNo: string;
  tradeType: "wap" | "qr";
  amount: string;
  payUrl: string;
  qrCode: string;
}

/** What WeixinJSBridge's getBrandWCPayRequest takes, signed by the server. */
export interface PayParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

export interface NewOrder {
  outTradeNo: string;
  tradeType: "jsapi" | "native";
  amount: string;
  codeUrl: string;
  payParams?: PayParams;
  /** Only when the tenant's merchant is the demo's simulated WeChat Pay. */
  demoPayUrl: string;
}

/** WXPAY_STATE: 0 unpaid, 1 paid, 2 closed, 3 failed. */
export interface FollowedOrder {
  outTradeNo: string;
  amountFen: string;
  state: 0 | 1 | 2 | 3;
  expireTime: string;
  booked: boolean;
  accountId: string;
  balanceFen: string | null;
  arrearsCut: number;
  receipt: Receipt | null;
  restore: { state: string; time: string } | null;
  codeUrl: string;
  demoPayUrl: string;
}

/**
 * Yuan typed by a person to whole fen, exactly (digits, at most two decimals, above zero);
 * undefined when it is not such an amount.
 */
export function fenOf(text: string): bigint | undefined {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const fen = BigInt(match[1]!) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
  return fen > 0n ? fen : undefined;
}
