import type { PageEntry } from "../components/chunk.ts";
import type { MessageKey } from "../i18n/index.tsx";
import { type DetailKind, parseDetailPath } from "../pages/detail/detail-paths.ts";
import { type LeavePage, parseLeavePath } from "../pages/work/leave-paths.ts";
import { type MoneyApprovalPage, parseMoneyApprovalPath } from "../pages/work/money-approval-paths.ts";

const page = (load: PageEntry["load"], file: string): PageEntry => ({ load, file });

/** A money list; the four share one chunk. */
const moneyList = (name: keyof typeof import("../pages/money/MoneyListPages.tsx")): PageEntry => ({
  file: "pages/money/MoneyListPages.tsx",
  load: async () => ({ default: (await import("../pages/money/MoneyListPages.tsx"))[name] }),
});

/** A list of 我的事务; the five share one chunk. */
const workList = (name: keyof typeof import("../pages/work/WorkListPage.tsx")): PageEntry => ({
  file: "pages/work/WorkListPage.tsx",
  load: async () => ({ default: (await import("../pages/work/WorkListPage.tsx"))[name] }),
});

/** A page of the leave process; the three share one chunk. */
const leavePage = (name: keyof typeof import("../pages/work/LeavePages.tsx")): PageEntry => ({
  file: "pages/work/LeavePages.tsx",
  load: async () => ({ default: (await import("../pages/work/LeavePages.tsx"))[name] }),
});

/** A page of the money approval process; the two share one chunk. */
const moneyApprovalPage = (
  name: keyof typeof import("../pages/money/approval/MoneyApprovalPages.tsx"),
): PageEntry => ({
  file: "pages/money/approval/MoneyApprovalPages.tsx",
  load: async () => ({ default: (await import("../pages/money/approval/MoneyApprovalPages.tsx"))[name] }),
});

/** Every lazily loaded screen; `file` names the source in chunk-failure logs. */
export const pages = {
  login: page(() => import("../pages/login/LoginPage.tsx"), "pages/login/LoginPage.tsx"),
  lock: page(() => import("../pages/lock/LockPage.tsx"), "pages/lock/LockPage.tsx"),
  shell: page(() => import("../layout/Shell.tsx"), "layout/Shell.tsx"),
  home: page(() => import("../pages/wel/HomePage.tsx"), "pages/wel/HomePage.tsx"),
  dashboard: page(() => import("../pages/wel/DashboardPage.tsx"), "pages/wel/DashboardPage.tsx"),
  test: page(() => import("../pages/test/TestPage.tsx"), "pages/test/TestPage.tsx"),
  info: page(() => import("../pages/info/InfoPage.tsx"), "pages/info/InfoPage.tsx"),
  dictHorizontal: page(
    () => import("../pages/dict/DictHorizontalPage.tsx"),
    "pages/dict/DictHorizontalPage.tsx",
  ),
  dictVertical: page(() => import("../pages/dict/DictVerticalPage.tsx"), "pages/dict/DictVerticalPage.tsx"),
  iframe: page(() => import("../pages/iframe/IframePage.tsx"), "pages/iframe/IframePage.tsx"),
  recharges: moneyList("RechargesPage"),
  payments: moneyList("PaymentsPage"),
  wxpay: page(() => import("../pages/money/WxpayPage.tsx"), "pages/money/WxpayPage.tsx"),
  wxbill: page(() => import("../pages/money/WxbillPage.tsx"), "pages/money/WxbillPage.tsx"),
  openings: moneyList("OpeningsPage"),
  closings: moneyList("ClosingsPage"),
  statement: page(() => import("../pages/money/StatementPage.tsx"), "pages/money/StatementPage.tsx"),
  monthStatement: page(
    () => import("../pages/money/MonthStatementPage.tsx"),
    "pages/money/MonthStatementPage.tsx",
  ),
  region: page(() => import("../pages/region/RegionPage.tsx"), "pages/region/RegionPage.tsx"),
  moneyCounter: page(
    () => import("../pages/money/counter/CounterPage.tsx"),
    "pages/money/counter/CounterPage.tsx",
  ),
  roomDetail: page(() => import("../pages/detail/RoomDetailPage.tsx"), "pages/detail/RoomDetailPage.tsx"),
  ownerDetail: page(() => import("../pages/detail/OwnerDetailPage.tsx"), "pages/detail/OwnerDetailPage.tsx"),
  collectorDetail: page(
    () => import("../pages/detail/CollectorDetailPage.tsx"),
    "pages/detail/CollectorDetailPage.tsx",
  ),
  meterDetail: page(() => import("../pages/detail/MeterDetailPage.tsx"), "pages/detail/MeterDetailPage.tsx"),
  registrations: page(
    () => import("../pages/registration/RegistrationPage.tsx"),
    "pages/registration/RegistrationPage.tsx",
  ),
  attention: page(
    () => import("../pages/operation/attention/AttentionPage.tsx"),
    "pages/operation/attention/AttentionPage.tsx",
  ),
  iotPlatform: page(
    () => import("../pages/pms/iot-platform/IotPlatformPage.tsx"),
    "pages/pms/iot-platform/IotPlatformPage.tsx",
  ),
  meteringTopology: page(
    () => import("../pages/pms/metering-topology/MeteringTopologyPage.tsx"),
    "pages/pms/metering-topology/MeteringTopologyPage.tsx",
  ),
  lineLoss: page(
    () => import("../pages/operation/line-loss/LineLossPage.tsx"),
    "pages/operation/line-loss/LineLossPage.tsx",
  ),
  apportionment: page(
    () => import("../pages/operation/apportionment/ApportionmentPage.tsx"),
    "pages/operation/apportionment/ApportionmentPage.tsx",
  ),
  suspects: page(
    () => import("../pages/operation/suspects/SuspectsPage.tsx"),
    "pages/operation/suspects/SuspectsPage.tsx",
  ),
  checkRecords: page(
    () => import("../pages/operation/alarm/CheckRecordPage.tsx"),
    "pages/operation/alarm/CheckRecordPage.tsx",
  ),
  datasources: page(() => import("../pages/develop/DatasourcePage.tsx"), "pages/develop/DatasourcePage.tsx"),
  codes: page(() => import("../pages/develop/CodePage.tsx"), "pages/develop/CodePage.tsx"),
  flowModels: page(() => import("../pages/flow/model/ModelPage.tsx"), "pages/flow/model/ModelPage.tsx"),
  flowDesigner: page(
    () => import("../pages/flow/designer/DesignerPage.tsx"),
    "pages/flow/designer/DesignerPage.tsx",
  ),
  flowDiagram: page(
    () => import("../pages/flow/diagram/DiagramPage.tsx"),
    "pages/flow/diagram/DiagramPage.tsx",
  ),
  workStart: workList("StartListPage"),
  workClaim: workList("ClaimListPage"),
  workTodo: workList("TodoListPage"),
  workSend: workList("SendListPage"),
  workDone: workList("DoneListPage"),
  leaveForm: leavePage("LeaveFormPage"),
  leaveHandle: leavePage("LeaveHandlePage"),
  leaveDetail: leavePage("LeaveDetailPage"),
  moneyApprovalHandle: moneyApprovalPage("MoneyApprovalHandlePage"),
  moneyApprovalDetail: moneyApprovalPage("MoneyApprovalDetailPage"),
  moneyPolicy: page(
    () => import("../pages/money/approval/MoneyPolicyPage.tsx"),
    "pages/money/approval/MoneyPolicyPage.tsx",
  ),
  flowDeploy: page(() => import("../pages/flow/DeployPage.tsx"), "pages/flow/DeployPage.tsx"),
  flowManager: page(() => import("../pages/flow/ManagerPage.tsx"), "pages/flow/ManagerPage.tsx"),
  flowFollow: page(() => import("../pages/flow/FollowPage.tsx"), "pages/flow/FollowPage.tsx"),
  reports: page(() => import("../pages/report/ReportPage.tsx"), "pages/report/ReportPage.tsx"),
  batchJobs: page(
    () => import("../pages/operation/batch-job/BatchJobPage.tsx"),
    "pages/operation/batch-job/BatchJobPage.tsx",
  ),
} satisfies Record<string, PageEntry>;

/** A console path with a page of its own, its tab label and whether its tab is kept alive. */
export interface RegisteredPage {
  entry: PageEntry;
  titleKey: MessageKey;
  keepAlive: boolean;
}

/**
 * Path → page. Menu paths from the server are looked up here; a menu path missing from this table
 * renders the "page not available yet" state. Later resources register their pages here.
 */
export const pageRegistry: Readonly<Record<string, RegisteredPage>> = {
  "/wel/index": { entry: pages.home, titleKey: "route.home", keepAlive: true },
  "/wel/dashboard": { entry: pages.dashboard, titleKey: "route.dashboard", keepAlive: false },
  "/test/index": { entry: pages.test, titleKey: "route.test", keepAlive: false },
  "/info/index": { entry: pages.info, titleKey: "route.info", keepAlive: false },
  "/dict-horizontal/index": {
    entry: pages.dictHorizontal,
    titleKey: "route.dictHorizontal",
    keepAlive: false,
  },
  "/dict-vertical/index": { entry: pages.dictVertical, titleKey: "route.dictVertical", keepAlive: false },
  "/money/datarecharge": { entry: pages.recharges, titleKey: "menu.dataRecharge", keepAlive: true },
  "/money/payment": { entry: pages.payments, titleKey: "menu.payment", keepAlive: true },
  "/money/wxpay": { entry: pages.wxpay, titleKey: "menu.wxpay", keepAlive: true },
  "/money/wxbill": { entry: pages.wxbill, titleKey: "menu.wxbill", keepAlive: true },
  "/money/policy": { entry: pages.moneyPolicy, titleKey: "menu.moneyPolicy", keepAlive: false },
  "/money/dataopenaccount": { entry: pages.openings, titleKey: "menu.dataOpenAccount", keepAlive: true },
  "/money/datacloseaccount": { entry: pages.closings, titleKey: "menu.dataCloseAccount", keepAlive: true },
  "/money/statement": { entry: pages.statement, titleKey: "menu.accountStatement", keepAlive: true },
  "/money/monthstatement": {
    entry: pages.monthStatement,
    titleKey: "menu.monthStatement",
    keepAlive: true,
  },
  "/money/ownerrecharge": { entry: pages.moneyCounter, titleKey: "menu.ownerRecharge", keepAlive: true },
  "/base/region": { entry: pages.region, titleKey: "menu.region", keepAlive: true },
  "/operation/checkrecord": { entry: pages.checkRecords, titleKey: "menu.checkRecord", keepAlive: true },
  "/operation/attention": { entry: pages.attention, titleKey: "menu.attention", keepAlive: true },
  "/pms/iotplatform": { entry: pages.iotPlatform, titleKey: "menu.iotPlatform", keepAlive: false },
  "/pms/topology": { entry: pages.meteringTopology, titleKey: "menu.meteringTopology", keepAlive: true },
  "/operation/lineloss": { entry: pages.lineLoss, titleKey: "menu.lineLoss", keepAlive: true },
  "/operation/apportionment": { entry: pages.apportionment, titleKey: "menu.apportionment", keepAlive: true },
  "/operation/suspects": { entry: pages.suspects, titleKey: "menu.suspects", keepAlive: true },
  "/operation/batchjob": { entry: pages.batchJobs, titleKey: "menu.batch_job", keepAlive: true },
  "/system/registration": {
    entry: pages.registrations,
    titleKey: "menu.social_registration",
    keepAlive: true,
  },
  "/tool/datasource": { entry: pages.datasources, titleKey: "menu.datasource", keepAlive: true },
  "/tool/code": { entry: pages.codes, titleKey: "menu.code", keepAlive: true },
  "/flow/model": { entry: pages.flowModels, titleKey: "menu.flow_model", keepAlive: true },
  // The designer and the diagram read the model or instance from the address's query.
  "/flow/model/designer": { entry: pages.flowDesigner, titleKey: "route.flowDesigner", keepAlive: false },
  "/flow/diagram": { entry: pages.flowDiagram, titleKey: "route.flowDiagram", keepAlive: false },
  // The lists read again when opened: a kept-alive copy would show tasks already done.
  "/work/start": { entry: pages.workStart, titleKey: "menu.work_start", keepAlive: false },
  "/work/claim": { entry: pages.workClaim, titleKey: "menu.work_claim", keepAlive: false },
  "/work/todo": { entry: pages.workTodo, titleKey: "menu.work_todo", keepAlive: false },
  "/work/send": { entry: pages.workSend, titleKey: "menu.work_send", keepAlive: false },
  "/work/done": { entry: pages.workDone, titleKey: "menu.work_done", keepAlive: false },
  "/flow/deploy": { entry: pages.flowDeploy, titleKey: "menu.flow_deploy", keepAlive: true },
  "/flow/manager": { entry: pages.flowManager, titleKey: "menu.flow_manager", keepAlive: false },
  "/flow/follow": { entry: pages.flowFollow, titleKey: "menu.flow_follow", keepAlive: false },
  "/report/reportlist": { entry: pages.reports, titleKey: "menu.report_list", keepAlive: true },
};

const leavePages: Record<LeavePage, RegisteredPage> = {
  form: { entry: pages.leaveForm, titleKey: "leave.formTitle", keepAlive: false },
  handle: { entry: pages.leaveHandle, titleKey: "leave.handleTitle", keepAlive: false },
  detail: { entry: pages.leaveDetail, titleKey: "leave.detailTitle", keepAlive: false },
};

const moneyApprovalPages: Record<MoneyApprovalPage, RegisteredPage> = {
  handle: { entry: pages.moneyApprovalHandle, titleKey: "moneyApproval.handleTitle", keepAlive: false },
  detail: { entry: pages.moneyApprovalDetail, titleKey: "moneyApproval.detailTitle", keepAlive: false },
};

const detailPages: Record<DetailKind, RegisteredPage> = {
  room: { entry: pages.roomDetail, titleKey: "detail.tab.room", keepAlive: false },
  owner: { entry: pages.ownerDetail, titleKey: "detail.tab.owner", keepAlive: false },
  // Electric and water meters share one page; it reads its kind from the address.
  meter: { entry: pages.meterDetail, titleKey: "detail.tab.meter", keepAlive: false },
  water: { entry: pages.meterDetail, titleKey: "detail.tab.water", keepAlive: false },
  collector: { entry: pages.collectorDetail, titleKey: "detail.tab.collector", keepAlive: false },
};

/** The page of a path: a fixed one, or a detail, leave or money approval page whose address carries ids. */
export const registeredPage = (path: string): RegisteredPage | undefined => {
  const detail = parseDetailPath(path);
  if (detail) return detailPages[detail.kind];
  const leave = parseLeavePath(path);
  if (leave) return leavePages[leave.page];
  const money = parseMoneyApprovalPath(path);
  return money ? moneyApprovalPages[money.page] : pageRegistry[path];
};
