import { meteringOverviewSources, moneyScreens, website } from "@meterline/contracts";
import { Card, Col, Empty, Row, Space, Spin, Tag, Typography } from "antd";
import { lazy, Suspense, useMemo, useState } from "react";
import { UserAvatar, useUserName } from "../../components/UserAvatar.tsx";
import { usePlatformAdministrator } from "../../crud/tenant-column.tsx";
import { useI18n } from "../../i18n/index.tsx";
import { MenuIcon } from "../../layout/icon-registry.tsx";
import { menuLeaves } from "../../layout/menu-model.ts";
import { useOpenMenu } from "../../layout/useOpenMenu.ts";
import { useConsole } from "../../store/useConsole.ts";
import { useMayReadAlarms } from "../operation/alarm/useMayReadAlarms.ts";
import { greetingKey } from "./greeting.ts";
import { HomeTenantContext, HomeTenantPicker } from "./home-tenant.tsx";
import AlarmRulesCard from "./overview/AlarmRulesCard.tsx";
import { SetupChecklist } from "./setup/SetupChecklist.tsx";

// ECharts comes with the overviews, loaded only for users who see them.
const MeteringOverview = lazy(() => import("./overview/MeteringOverview.tsx"));
const MoneyOverview = lazy(() => import("./overview/MoneyOverview.tsx"));

/** The screens of whoever sets a site up (modules/pms/setup.routes.ts). */
const SETUP_SCREENS = new Set<string>(["area", "room", "meter", "owner", "collector"]);
/** The screens whose users may read accounts and recharges (the server's money read codes). */
const MONEY_SCREENS = new Set<string>(["owner", ...moneyScreens]);

/**
 * /wel/index: greeting, tenant, today's date, roles, the metering overview (for users of the metering
 * screens), open alarms by rule (for users who read alarms), the money overview (for users of the
 * money screens) and shortcuts to the user's menu pages.
 */
export default function HomePage() {
  const { t, tr, language } = useI18n();
  const name = useUserName();
  const profile = useConsole((state) => state.profile);
  const tenantId = useConsole((state) => state.tenantId);
  const roles = useConsole((state) => state.roles);
  const menuAll = useConsole((state) => state.menuAll);
  const openMenu = useOpenMenu();
  const shortcuts = useMemo(
    () => menuLeaves(menuAll).filter((leaf) => leaf.path !== website.homePath),
    [menuAll],
  );
  // Only for users who may see one of the screens the overview sums up (the server asks the same).
  const showsOverview = useMemo(() => {
    const codes = new Set<string>(meteringOverviewSources);
    return menuLeaves(menuAll).some((leaf) => codes.has(leaf.code));
  }, [menuAll]);
  const showsMoney = useMemo(
    () => menuLeaves(menuAll).some((leaf) => MONEY_SCREENS.has(leaf.code)),
    [menuAll],
  );
  // Users of the registry's screens set a site up (the server asks the same of the checklist).
  const setsUp = useMemo(() => menuLeaves(menuAll).some((leaf) => SETUP_SCREENS.has(leaf.code)), [menuAll]);
  const now = new Date();
  const today = new Intl.DateTimeFormat(language === "en" ? "en-US" : "zh-CN", { dateStyle: "full" }).format(
    now,
  );
  const roleNames = profile?.roleName ? profile.roleName.split(",") : roles;
  const alarms = useMayReadAlarms();
  // The platform administrator's cards sum every tenant ("") or read the one it picks.
  const platform = usePlatformAdministrator();
  const [homeTenant, setHomeTenant] = useState("");
  const showsFigures = showsOverview || alarms.read || showsMoney;

  return (
    <Space orientation="vertical" size="middle" className="ml-home" data-testid="home-page">
      <Card>
        <div className="ml-home-hero">
          <UserAvatar size={64} />
          <div>
            <Typography.Title level={3} data-testid="home-greeting">
              {t("home.greeting", { greeting: t(greetingKey(now.getHours())), name })}
            </Typography.Title>
            <Typography.Text type="secondary">
              {t("home.tenant", { tenant: profile?.tenantName || tenantId, tenantId })}
            </Typography.Text>
            <br />
            <Typography.Text type="secondary">{t("home.today", { date: today })}</Typography.Text>
          </div>
          <div className="ml-home-roles">
            <Typography.Text strong>{t("home.roles")}</Typography.Text>
            <div>
              {roleNames.map((role) => (
                <Tag color="blue" key={role}>
                  {role}
                </Tag>
              ))}
            </div>
          </div>
        </div>
      </Card>
      {setsUp ? <SetupChecklist /> : null}
      {platform && showsFigures ? (
        <Card size="small" data-testid="home-tenant-card">
          <HomeTenantPicker value={homeTenant} onChange={setHomeTenant} />
        </Card>
      ) : null}
      <HomeTenantContext value={homeTenant}>
        {showsOverview ? (
          <Suspense fallback={<Spin />}>
            <MeteringOverview showsMoney={showsMoney} />
          </Suspense>
        ) : null}
        {alarms.read ? <AlarmRulesCard canOpen={alarms.screen} /> : null}
        {showsMoney ? (
          <Suspense fallback={<Spin />}>
            <MoneyOverview />
          </Suspense>
        ) : null}
      </HomeTenantContext>
      <Card title={t("home.shortcuts")}>
        {shortcuts.length === 0 ? (
          <Empty description={t("home.noShortcuts")} />
        ) : (
          <Row gutter={[16, 16]}>
            {shortcuts.map((leaf) => (
              <Col key={leaf.id} xs={12} sm={8} md={6} xl={4}>
                <button
                  type="button"
                  className="ml-shortcut"
                  onClick={() => openMenu(leaf)}
                  data-testid="home-shortcut"
                >
                  <MenuIcon source={leaf.icon} />
                  <span>{tr(leaf.i18n, leaf.name)}</span>
                </button>
              </Col>
            ))}
          </Row>
        )}
      </Card>
    </Space>
  );
}
