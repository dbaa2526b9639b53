import { ExportOutlined } from "@ant-design/icons";
import { Button, Result } from "antd";
import { useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { useI18n } from "../../i18n/index.tsx";
import { findLeaf, safeUrl } from "../../layout/menu-model.ts";
import { useConsole } from "../../store/useConsole.ts";

/**
 * /myiframe/:routerPath: an external menu page in a frame. The URL comes from the menu entry of
 * that router path, else from the `src` query read once on mount (the page is kept alive and must
 * not follow later locations).
 */
export default function IframePage() {
  const { routerPath = "" } = useParams();
  const [searchParams] = useSearchParams();
  const [querySrc] = useState(() => searchParams.get("src") ?? "");
  const menuAll = useConsole((state) => state.menuAll);
  const { t, tr } = useI18n();
  const leaf = findLeaf(menuAll, `/myiframe/${encodeURIComponent(routerPath)}`);
  const url = safeUrl(leaf?.href || querySrc);

  if (!url) return <Result status="warning" title={t("iframe.invalid")} />;
  const title = leaf ? tr(leaf.i18n, leaf.name) : t("route.iframe");
  return (
    <div className="ml-iframe-page" data-testid="iframe-page">
      <div className="ml-iframe-toolbar">
        <Button
          size="small"
          type="link"
          icon={<ExportOutlined />}
          href={url}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t("iframe.openNew")}
        </Button>
      </div>
      <iframe src={url} title={title} className="ml-iframe" data-testid="iframe" />
    </div>
  );
}
