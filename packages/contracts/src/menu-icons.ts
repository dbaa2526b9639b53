/**
 * The icon class a menu's `source` carries (contract §7.1: `iconfont iconicon_principal`), keyed by
 * the icon Meterline's console shows for it. The family's consoles render `source` as a class
 * (`<i :class="source">`) from their iconfont, so the seed stores these classes; Meterline's console
 * reads the class back to its own icon through this table. One class per icon: no two of
 * Meterline's icons share a class, so none is lost on the way.
 */
export const MENU_ICON_CLASSES = {
  alert: "iconfont icon-cuowutishitubiao",
  apartment: "iconfont iconicon_subordinate",
  api: "iconfont icon-debug",
  appstore: "iconfont icon-caidan",
  audit: "iconfont iconicon_task_done",
  "bar-chart": "iconfont icon-tubiao",
  bars: "iconfont icon-caidanguanli",
  bell: "iconfont iconicon_ding",
  book: "iconfont iconicon_doc",
  bug: "iconfont icon-bug",
  calendar: "iconfont iconicon_work",
  cloud: "iconfont iconicon_cloud_history",
  cluster: "iconfont iconicon_affiliations_li",
  code: "iconfont iconicon_compile",
  control: "iconfont iconicon_dispose",
  dashboard: "iconfont icon-shujuzhanshi2",
  database: "iconfont iconicon_cspace",
  "deployment-unit": "iconfont iconicon_share",
  desktop: "iconfont iconicon_airplay",
  dollar: "iconfont iconicon_coinpurse_line",
  environment: "iconfont iconicon_GPS",
  experiment: "iconfont iconicon_glass",
  file: "iconfont iconicon_savememo",
  "file-text": "iconfont iconicon_details",
  global: "iconfont iconicon_discovery",
  home: "iconfont icon-huanyingye",
  idcard: "iconfont iconicon_namecard",
  "line-chart": "iconfont icon-dongtai",
  link: "iconfont iconicon_exchange",
  lock: "iconfont icon-quanxian",
  login: "iconfont icon-mima",
  menu: "iconfont icon-navicon",
  message: "iconfont iconicon_message",
  minus: "iconfont iconicon_roundreduce",
  monitor: "iconfont icon-iconset0265",
  notification: "iconfont iconicon_notice",
  "ordered-list": "iconfont iconicon_task",
  "paper-clip": "iconfont iconicon_photo",
  "pie-chart": "iconfont icon-liuliangyunpingtaitubiao08",
  plus: "iconfont iconicon_roundadd",
  read: "iconfont iconicon_addresslist",
  safety: "iconfont iconicon_safety",
  setting: "iconfont iconicon_setting",
  team: "iconfont iconicon_group",
  thunderbolt: "iconfont iconicon_star",
  tool: "iconfont icon-wxbgongju",
  user: "iconfont iconicon_principal",
  wallet: "iconfont iconicon_redpacket",
  wechat: "iconfont iconicon_wechat",
} as const;

export type MenuIconName = keyof typeof MENU_ICON_CLASSES;

const NAME_OF_CLASS: ReadonlyMap<string, MenuIconName> = new Map(
  Object.entries(MENU_ICON_CLASSES).map(([name, cls]) => [lastClass(cls), name as MenuIconName]),
);

function lastClass(source: string): string {
  return source.trim().split(/\s+/).pop() ?? "";
}

/** Meterline's icon name for a family icon class (`iconfont iconicon_setting` → `setting`), if any. */
export function menuIconOfClass(source: string): MenuIconName | undefined {
  return NAME_OF_CLASS.get(lastClass(source));
}
