import {
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  BookOutlined,
  BugOutlined,
  BulbOutlined,
  CalendarOutlined,
  ClusterOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
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
  MenuOutlined,
  MessageOutlined,
  MonitorOutlined,
  NotificationOutlined,
  PieChartOutlined,
  ReadOutlined,
  SafetyOutlined,
  SettingOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  UserOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import type { ComponentType } from "react";

/**
 * Icon names a menu's `source` may carry. Unknown names — including the legacy iconfont classes
 * of the Saber seed — fall back to the default icon (spec §2).
 */
const icons: Record<string, ComponentType> = {
  apartment: ApartmentOutlined,
  api: ApiOutlined,
  appstore: AppstoreOutlined,
  "bar-chart": BarChartOutlined,
  bell: BellOutlined,
  book: BookOutlined,
  bug: BugOutlined,
  bulb: BulbOutlined,
  calendar: CalendarOutlined,
  cluster: ClusterOutlined,
  control: ControlOutlined,
  dashboard: DashboardOutlined,
  database: DatabaseOutlined,
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
  menu: MenuOutlined,
  message: MessageOutlined,
  monitor: MonitorOutlined,
  notification: NotificationOutlined,
  "pie-chart": PieChartOutlined,
  read: ReadOutlined,
  safety: SafetyOutlined,
  setting: SettingOutlined,
  team: TeamOutlined,
  thunderbolt: ThunderboltOutlined,
  tool: ToolOutlined,
  user: UserOutlined,
  wallet: WalletOutlined,
};

export const DefaultMenuIcon = AppstoreOutlined;

/** "iconfont icon-setting", "SettingOutlined", "setting" → "setting". */
export function iconKey(source: string): string {
  const last = source.trim().split(/\s+/).pop() ?? "";
  return last
    .replace(/^(el-icon-|icon-|anticon-)/i, "")
    .replace(/(Outlined|Filled|TwoTone)$/, "")
    .replace(/([a-z])([A-Z])/g, "$1-$2")
    .toLowerCase();
}

export function MenuIcon({ source }: { source: string }) {
  const Icon = icons[iconKey(source)] ?? DefaultMenuIcon;
  // Decorative beside the menu's name: antd would otherwise name it ("thunderbolt 电表管理").
  return <Icon aria-hidden />;
}
