import { SETUP_COUNT_BOUND, SETUP_STEPS, type SetupProgress, website } from "@meterline/contracts";
import { Button, Card, Steps, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useLocation } from "react-router";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { menuLeaves } from "../../../layout/menu-model.ts";
import { useOpenMenu } from "../../../layout/useOpenMenu.ts";
import { useConsole } from "../../../store/useConsole.ts";
import { loadSetupProgress, STEP_SCREENS } from "./setup-calls.ts";

/**
 * 开通向导 on a new site's home page: the way from empty to the first recharge (areas → rooms →
 * schemes → collectors → meters → owners → accounts → recharge), each step with its count and a
 * button to the screen it is done on; the next step to take is the current one. Gone once the
 * site has taken its first recharge. The home page is a kept tab (it stays mounted while another
 * tab is shown), so the counts are read again each time it is shown: coming back from a step's
 * screen shows that step done.
 */
export function SetupChecklist() {
  const t = useT();
  const menuAll = useConsole((state) => state.menuAll);
  const openMenu = useOpenMenu();
  const [progress, setProgress] = useState<SetupProgress>();
  const shown = useLocation().pathname === website.homePath;
  useEffect(() => {
    if (!shown) return;
    let live = true;
    loadSetupProgress()
      .then((answer) => live && setProgress(answer))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [shown]);
  const leaves = useMemo(() => menuLeaves(menuAll), [menuAll]);
  if (!progress || progress.done) return null;

  const current = progress.next ? SETUP_STEPS.indexOf(progress.next) : SETUP_STEPS.length - 1;
  const count = (n: number) => (n >= SETUP_COUNT_BOUND ? `${SETUP_COUNT_BOUND}+` : String(n));
  const items = SETUP_STEPS.map((step, index) => {
    const leaf = leaves.find((l) => l.code === STEP_SCREENS[step]);
    const n = progress.counts[step];
    return {
      status: n > 0 ? ("finish" as const) : index === current ? ("process" as const) : ("wait" as const),
      title: t(`setup.step.${step}` as MessageKey),
      description: (
        <span data-testid={`setup-step-${step}`} data-count={n}>
          <Typography.Text type="secondary">{t(`setup.hint.${step}` as MessageKey)}</Typography.Text>{" "}
          <Typography.Text strong>{t("setup.count", { count: count(n) })}</Typography.Text>{" "}
          {leaf ? (
            <Button
              size="small"
              type={index === current ? "primary" : "link"}
              onClick={() => openMenu(leaf)}
              data-testid={`setup-go-${step}`}
            >
              {t("setup.go")}
            </Button>
          ) : null}
        </span>
      ),
    };
  });
  return (
    <Card title={t("setup.title")} data-testid="setup-checklist">
      <Typography.Paragraph type="secondary">{t("setup.intro")}</Typography.Paragraph>
      <Steps orientation="vertical" size="small" current={current} items={items} />
    </Card>
  );
}
