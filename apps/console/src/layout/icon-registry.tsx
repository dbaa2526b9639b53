import {
  AlertOutlined,
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  BarsOutlined,
  BellOutlined,
  BookOutlined,
  BugOutlined,
  BulbOutlined,
  CalendarOutlined,
  CloudOutlined,
  ClusterOutlined,
  CodeOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DeploymentUnitOutlined,
  DesktopOutlined,
  DollarOutlined,
  DownloadOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  FileOutlined,
  FileTextOutlined,
  FundOutlined,
  GlobalOutlined,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  LineChartOutlined,
  LinkOutlined,
  LockOutlined,
  LoginOutlined,
  MenuOutlined,
  MessageOutlined,
  MinusCircleOutlined,
  MonitorOutlined,
  NotificationOutlined,
  OrderedListOutlined,
  PaperClipOutlined,
  PieChartOutlined,
  PlusCircleOutlined,
  ReadOutlined,
  SafetyOutlined,
  SettingOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  UserOutlined,
  WalletOutlined,
  WechatOutlined,
} from "@ant-design/icons";
import { menuIconOfClass } from "@meterline/contracts";
import type { ComponentType } from "react";

/**
 * Meterline's menu icons by name. A menu's `source` carries the family's icon class (contract §7.1),
 * read back to one of these names through MENU_ICON_CLASSES; a plain name (`setting`,
 * `SettingOutlined`) still works. Unknown names fall back to the default icon (spec §2).
 */
const icons: Record<string, ComponentType> = {
  apartment: ApartmentOutlined,
  alert: AlertOutlined,
  api: ApiOutlined,
  appstore: AppstoreOutlined,
  audit: AuditOutlined,
  "bar-chart": BarChartOutlined,
  bars: BarsOutlined,
  bell: BellOutlined,
  book: BookOutlined,
  bug: BugOutlined,
  bulb: BulbOutlined,
  calendar: CalendarOutlined,
  cloud: CloudOutlined,
  cluster: ClusterOutlined,
  code: CodeOutlined,
  control: ControlOutlined,
  dashboard: DashboardOutlined,
  database: DatabaseOutlined,
  "deployment-unit": DeploymentUnitOutlined,
  desktop: DesktopOutlined,
  desk: DesktopOutlined,
  dollar: DollarOutlined,
  download: DownloadOutlined,
  environment: EnvironmentOutlined,
  experiment: ExperimentOutlined,
  file: FileOutlined,
  "file-text": FileTextOutlined,
  fund: FundOutlined,
  global: GlobalOutlined,
  home: HomeOutlined,
  idcard: IdcardOutlined,
  key: KeyOutlined,
  "line-chart": LineChartOutlined,
  link: LinkOutlined,
  lock: LockOutlined,
  login: LoginOutlined,
  menu: MenuOutlined,
  message: MessageOutlined,
  minus: MinusCircleOutlined,
  monitor: MonitorOutlined,
  notification: NotificationOutlined,
  "ordered-list": OrderedListOutlined,
  "paper-clip": PaperClipOutlined,
  "pie-chart": PieChartOutlined,
  plus: PlusCircleOutlined,
  read: ReadOutlined,
  safety: SafetyOutlined,
  setting: SettingOutlined,
  team: TeamOutlined,
  thunderbolt: ThunderboltOutlined,
  tool: ToolOutlined,
  user: UserOutlined,
  wallet: WalletOutlined,
  wechat: WechatOutlined,
};

export const DefaultMenuIcon = AppstoreOutlined;

/**
 * "iconfont iconicon_setting" (the family's class of the seed) → "setting"; otherwise the plain
 * name: "iconfont icon-setting", "SettingOutlined", "setting" → "setting".
 */
export function iconKey(source: string): string {
  const family = menuIconOfClass(source);
  if (family) return family;
  const last = source.trim().split(/\s+/).pop() ?? "";
  return last
    .replace(/^(el-icon-|icon-|anticon-)/i, "")
    .replace(/(Outlined|Filled|TwoTone)$/, "")
    .replace(/([a-z])([A-Z])/g, "$1-$2")
    .toLowerCase();
}

/** Whether a name has an icon of its own (not the default). */
export const hasMenuIcon = (name: string): boolean => name in icons;

export function MenuIcon({ source }: { source: string }) {
  const Icon = icons[iconKey(source)] ?? DefaultMenuIcon;
  // Decorative beside the menu's name: antd would otherwise name it ("thunderbolt 电表管理").
  return <Icon aria-hidden />;
}
