/** The owner page's words, Chinese (default) and English. Small on purpose: no console dictionary. */
const zh = {
  title: "业主服务",
  language: "English",
  noTenant: "请从物业提供的链接或二维码进入。",
  tenantCode: "物业编号",
  enter: "进入",
  signInTitle: "手机号登录",
  phone: "手机号",
  code: "验证码",
  sendCode: "获取验证码",
  resendIn: "{n} 秒后重发",
  codeSent: "验证码已发送",
  signIn: "登录",
  wechatSignIn: "微信授权登录",
  bindTitle: "绑定房间",
  bindHint: "首次使用请验证房间:输入房间号和物业登记的业主手机号。",
  room: "房间号",
  bind: "绑定",
  bound: "绑定成功",
  unbind: "解除绑定",
  unbindConfirm: "确定解除绑定?解除后需重新验证房间。",
  unbound: "已解除绑定",
  signOut: "退出",
  hello: "{name},您好",
  accounts: "我的账户",
  noAccounts: "暂无已开户的表计,请联系物业。",
  electric: "电表",
  water: "水表",
  balance: "余额(元)",
  level0: "正常",
  level1: "余额不足",
  level2: "余额严重不足",
  level3: "欠费",
  supplyOn: "供电中",
  supplyOff: "已断开",
  valveOn: "阀门开",
  valveOff: "阀门关",
  cutForArrears: "欠费已断",
  usage: "用量",
  last30: "近 30 天",
  last12: "近 12 个月",
  noUsage: "暂无用量",
  chartLabel: "{meter} {span}用量,单位 {unit}",
  kwh: "kWh",
  m3: "m³",
  total: "合计",
  history: "充值记录",
  noHistory: "暂无充值记录",
  payments: "支付记录",
  receipt: "收据",
  receiptNo: "收据号",
  amount: "金额(元)",
  balanceAfter: "充值后余额(元)",
  method: "支付方式",
  time: "时间",
  meter: "表号",
  owner: "业主",
  operator: "经办人",
  close: "关闭",
  notices: "消息通知",
  noNotices: "暂无通知",
  alarm_balance_low: "余额不足提醒",
  alarm_balance_severe: "余额严重不足提醒",
  alarm_arrears: "欠费提醒",
  restored: "已恢复",
  supply_cut: "欠费断电",
  supply_restore: "充值复电",
  commandState_queued: "排队中",
  commandState_sent: "执行中",
  commandState_success: "已完成",
  commandState_fail: "失败",
  commandState_timeout: "待确认",
  method0: "其他",
  method1: "现金",
  method2: "银联",
  method3: "微信",
  method4: "支付宝",
  method5: "微信在线支付",
  type1: "充值",
  type2: "退费",
  type3: "冲正加",
  type4: "冲正减",
  paymentState0: "待支付",
  paymentState1: "已支付",
  paymentState2: "已关闭",
  loading: "加载中…",
  failed: "加载失败,请重试",
  retry: "重试",
  sessionEnded: "登录已过期,请重新登录",
};

export type WordKey = keyof typeof zh;

const en: Record<WordKey, string> = {
  title: "Owner service",
  language: "中文",
  noTenant: "Please open this page from the link or QR code your property manager gave you.",
  tenantCode: "Property code",
  enter: "Enter",
  signInTitle: "Sign in with your phone",
  phone: "Phone",
  code: "Code",
  sendCode: "Send code",
  resendIn: "Resend in {n} s",
  codeSent: "Code sent",
  signIn: "Sign in",
  wechatSignIn: "Sign in with WeChat",
  bindTitle: "Bind your room",
  bindHint:
    "First visit: prove your room with its number and the owner's phone the property manager has on record.",
  room: "Room number",
  bind: "Bind",
  bound: "Bound",
  unbind: "Unbind",
  unbindConfirm: "Unbind? You will have to prove your room again.",
  unbound: "Unbound",
  signOut: "Sign out",
  hello: "Hello, {name}",
  accounts: "My accounts",
  noAccounts: "No meter has an account yet; please ask your property manager.",
  electric: "Electricity",
  water: "Water",
  balance: "Balance (yuan)",
  level0: "Normal",
  level1: "Low balance",
  level2: "Severely low balance",
  level3: "Arrears",
  supplyOn: "Supply on",
  supplyOff: "Supply off",
  valveOn: "Valve open",
  valveOff: "Valve closed",
  cutForArrears: "Cut for arrears",
  usage: "Usage",
  last30: "Last 30 days",
  last12: "Last 12 months",
  noUsage: "No usage yet",
  chartLabel: "{meter} usage, {span}, in {unit}",
  kwh: "kWh",
  m3: "m³",
  total: "Total",
  history: "Recharges",
  noHistory: "No recharges yet",
  payments: "Payments",
  receipt: "Receipt",
  receiptNo: "Receipt no.",
  amount: "Amount (yuan)",
  balanceAfter: "Balance after (yuan)",
  method: "Payment method",
  time: "Time",
  meter: "Meter no.",
  owner: "Owner",
  operator: "Handled by",
  close: "Close",
  notices: "Notices",
  noNotices: "No notices",
  alarm_balance_low: "Low balance",
  alarm_balance_severe: "Severely low balance",
  alarm_arrears: "Arrears",
  restored: "Restored",
  supply_cut: "Supply cut for arrears",
  supply_restore: "Supply restored after recharge",
  commandState_queued: "Queued",
  commandState_sent: "In progress",
  commandState_success: "Done",
  commandState_fail: "Failed",
  commandState_timeout: "To be confirmed",
  method0: "Other",
  method1: "Cash",
  method2: "UnionPay",
  method3: "WeChat",
  method4: "Alipay",
  method5: "WeChat online",
  type1: "Recharge",
  type2: "Refund",
  type3: "Correction plus",
  type4: "Correction minus",
  paymentState0: "Unpaid",
  paymentState1: "Paid",
  paymentState2: "Closed",
  loading: "Loading…",
  failed: "Could not load; please try again",
  retry: "Try again",
  sessionEnded: "Your session has ended; please sign in again",
};

export type Language = "zh" | "en";
const words: Record<Language, Record<WordKey, string>> = { zh, en };
const LANGUAGE_KEY = "meterline.h5.language";

export function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(LANGUAGE_KEY);
    if (saved === "zh" || saved === "en") return saved;
  } catch {
    // no storage: the default
  }
  return "zh";
}

export function saveLanguage(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // no storage: this page only
  }
}

export type Translate = (key: WordKey, values?: Record<string, string | number>) => string;

export function translator(language: Language): Translate {
  return (key, values) => {
    let text = words[language][key];
    for (const [name, value] of Object.entries(values ?? {})) text = text.replace(`{${name}}`, String(value));
    return text;
  };
}

/** A word looked up by a key built at run time (a dictionary value), or the value itself. */
export function wordOf(t: Translate, key: string): string {
  return key in zh ? t(key as WordKey) : key;
}
