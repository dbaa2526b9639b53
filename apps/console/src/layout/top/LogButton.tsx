import { BugOutlined } from "@ant-design/icons";
import { website } from "@meterline/contracts";
import { Badge } from "antd";
import { lazy, Suspense, useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { IconButton } from "./IconButton.tsx";

// The table-heavy dialog is loaded only when opened.
const LogDialog = lazy(() => import("./LogDialog.tsx"));

/** Log viewer button; the badge counts local error entries (max 99, spec §2). */
export function LogButton() {
  const count = useConsole((state) => state.logs.length);
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Badge count={count} overflowCount={website.logBadgeMax} size="small" offset={[-6, 6]}>
        <IconButton
          label={t("top.logs")}
          icon={<BugOutlined />}
          onClick={() => setOpen(true)}
          testId="log-button"
        />
      </Badge>
      {open ? (
        <Suspense fallback={null}>
          <LogDialog onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
