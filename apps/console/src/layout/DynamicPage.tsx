import { Button } from "antd";
import { Navigate, useParams } from "react-router";
import { registeredPage } from "../app/pages.ts";
import { LazyPage } from "../components/LazyPage.tsx";
import { Result } from "../components/LazyResult.tsx";
import { PageLoading } from "../components/PageLoading.tsx";
import { PageUnavailable } from "../components/PageUnavailable.tsx";
import { resourceOfMenuCode, resourcePageEntry } from "../crud/resource-pages.tsx";
import { useI18n } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { findLeaf } from "./menu-model.ts";
import { useNavigationLoader } from "./useNavigationLoader.ts";

/**
 * Screens that moved to the family's seed paths (server seed migration 016): an old bookmark
 * lands on the screen's new address.
 */
const MOVED: Readonly<Record<string, string>> = {
  "/system/role": "/authority/role",
  "/system/data-scope": "/authority/datascope",
  "/system/api-scope": "/authority/apiscope",
  "/system/region": "/base/region",
  "/system/dict-biz": "/system/dictbiz",
};

/**
 * Every layout path without a fixed route: a registered page, the page of the resource a menu's
 * code names, a menu entry whose page is not built yet (visible notice), or /404. Reads its path from the route match, not the location, so a
 * kept-alive copy keeps showing its own page.
 */
export function DynamicPage() {
  const splat = useParams()["*"] ?? "";
  const path = `/${splat}`.replace(/\/+$/, "") || "/";
  const menus = useConsole((state) => state.menus);
  const menuAll = useConsole((state) => state.menuAll);
  const failed = useConsole((state) => state.menuFailed);
  const { t, tr } = useI18n();
  const { retry } = useNavigationLoader();

  const registered = registeredPage(path);
  if (registered) return <LazyPage key={path} entry={registered.entry} />;
  if (failed) {
    return (
      <Result
        status="warning"
        title={t("network.error")}
        extra={<Button onClick={retry}>{t("common.retry")}</Button>}
      />
    );
  }
  if (menus === null) return <PageLoading />;
  const leaf = findLeaf(menuAll, path) ?? findLeaf(menus, path);
  const resource = leaf && resourceOfMenuCode(leaf.code);
  if (resource) return <LazyPage key={path} entry={resourcePageEntry(resource)} />;
  if (leaf) return <PageUnavailable name={tr(leaf.i18n, leaf.name)} path={path} />;
  const moved = MOVED[path];
  if (moved) return <Navigate to={moved} replace />;
  return <Navigate to="/404" replace />;
}
