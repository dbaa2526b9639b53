import type { DetailMeter } from "@meterline/contracts";
import { Button, Space } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useT } from "../../i18n/index.tsx";
import { findLeaf } from "../../layout/menu-model.ts";
import { useConsole } from "../../store/useConsole.ts";
import { AccountCloseDialog } from "../pms/meter/account/AccountCloseDialog.tsx";
import { AccountOpenDialog } from "../pms/meter/account/AccountOpenDialog.tsx";
import { accountPermission } from "../pms/meter/account/account-calls.ts";
import { SupplySwitchDialog } from "../pms/meter/SupplySwitchDialog.tsx";
import type { Energy } from "../pms/meter/switch-calls.ts";

const COUNTER_PATH = "/money/ownerrecharge";

/** The switch permissions of the meter screens (seed 015). */
const switchPermission: Record<Energy, string> = { electric: "meter_switch", water: "water_switch" };

export const energyOf = (meter: { energyType: number }): Energy =>
  meter.energyType === 2 ? "water" : "electric";

/** The counter's address with the owner to look up (the counter searches name, phone, room, meter). */
export const counterPath = (keyword: string) => `${COUNTER_PATH}?keyword=${encodeURIComponent(keyword)}`;

/** Whether the caller has the recharge counter in its menus. */
export const useCounterAllowed = () =>
  useConsole((state) => Boolean(findLeaf(state.menus ?? [], COUNTER_PATH)));

type Dialog = "switch" | "open" | "close" | null;

/**
 * What can be done to one meter from a detail page, each behind the same button code as on the
 * meter screens: switch the supply (relay or valve), open or close its account, and recharge at
 * the counter. The dialogs are the meter screens' own; `onChanged` reloads the page after them.
 */
export function MeterActions({ meter, onChanged }: { meter: DetailMeter; onChanged: () => void }) {
  const t = useT();
  const energy = energyOf(meter);
  const canSwitch = useConsole((state) => state.permission[switchPermission[energy]] === true);
  const canOpen = useConsole((state) => state.permission[accountPermission.open[energy]] === true);
  const canClose = useConsole((state) => state.permission[accountPermission.close[energy]] === true);
  const counter = useCounterAllowed();
  const [dialog, setDialog] = useState<Dialog>(null);
  const navigate = useNavigate();
  const opened = meter.account?.status === 1;
  const target = { id: meter.id, productCode: meter.productCode };
  const done = (changed: boolean) => {
    setDialog(null);
    if (changed) onChanged();
  };

  return (
    <Space size={4} wrap={false}>
      {canSwitch ? (
        <Button size="small" onClick={() => setDialog("switch")} data-testid="detail-switch">
          {t(`switch.${energy}.row`)}
        </Button>
      ) : null}
      {opened && canClose ? (
        <Button size="small" danger onClick={() => setDialog("close")} data-testid="detail-account-close">
          {t("meterAccount.row.close")}
        </Button>
      ) : null}
      {!opened && canOpen ? (
        <Button size="small" onClick={() => setDialog("open")} data-testid="detail-account-open">
          {t("meterAccount.row.open")}
        </Button>
      ) : null}
      {opened && counter ? (
        // A button like its neighbours; it opens the counter with this meter found.
        <Button
          size="small"
          type="primary"
          onClick={() => navigate(counterPath(meter.productCode))}
          data-testid="detail-recharge"
        >
          {t("detail.action.recharge")}
        </Button>
      ) : null}
      {dialog === "switch" ? (
        <SupplySwitchDialog energy={energy} meters={[target]} onClose={() => done(true)} />
      ) : null}
      {dialog === "open" ? <AccountOpenDialog energy={energy} meter={target} onClose={done} /> : null}
      {dialog === "close" ? <AccountCloseDialog energy={energy} meter={target} onClose={done} /> : null}
    </Space>
  );
}
