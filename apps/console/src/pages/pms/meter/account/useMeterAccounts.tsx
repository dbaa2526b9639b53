import type { QueryParams, Row } from "@meterline/api-client";
import type { ResourceDef } from "@meterline/contracts";
import { Button } from "antd";
import { type ReactNode, type RefObject, useRef, useState } from "react";
import { useT } from "../../../../i18n/index.tsx";
import { useConsole } from "../../../../store/useConsole.ts";
import type { Energy } from "../switch-calls.ts";
import { AccountBatchDialog } from "./AccountBatchDialog.tsx";
import { AccountCloseDialog } from "./AccountCloseDialog.tsx";
import { AccountOpenDialog } from "./AccountOpenDialog.tsx";
import { type AccountVerb, accountPermission } from "./account-calls.ts";

type Meter = { id: string; productCode: string };
type Open =
  | { kind: "row"; verb: AccountVerb; meter: Meter }
  | { kind: "batch"; verb: AccountVerb; selected: Meter[]; search: QueryParams; total: number };

const isOpened = (row: Row) => Number(row.accountStatus) === 1;

/**
 * Account opening and closing on a meter screen: 开户 / 销户 on each row (whichever its
 * ACCOUNT_STATUS allows) and 批量开户 / 批量销户 in the toolbar, each behind its button code.
 * `seen` maps the ids of rows shown to their addresses, so ticked rows are named by them.
 */
export function useMeterAccounts(energy: Energy, seen: RefObject<Map<string, string>>, def: ResourceDef) {
  const t = useT();
  // Two selectors: each answers a plain boolean, so the store never sees a new object per render.
  const canOpen = useConsole((state) => state.permission[accountPermission.open[energy]] === true);
  const canClose = useConsole((state) => state.permission[accountPermission.close[energy]] === true);
  const can: Record<AccountVerb, boolean> = { open: canOpen, close: canClose };
  const [open, setOpen] = useState<Open | null>(null);
  const reloadTable = useRef<() => Promise<void>>(async () => undefined);

  const finish = (changed: boolean) => {
    setOpen(null);
    if (changed) void reloadTable.current();
  };
  const meterOf = (id: string): Meter => ({ id, productCode: seen.current.get(id) ?? id });

  const toolbar = (
    reload: () => Promise<void>,
    selected: readonly string[],
    search: QueryParams,
    total: number,
  ): ReactNode =>
    (["open", "close"] as const)
      .filter((verb) => can[verb])
      .map((verb) => (
        <Button
          key={verb}
          danger={verb === "close"}
          onClick={() => {
            reloadTable.current = reload;
            setOpen({ kind: "batch", verb, selected: selected.map(meterOf), search, total });
          }}
          data-testid={`account-batch-${verb}`}
        >
          {t(`meterAccount.batch.button.${verb}`)}
        </Button>
      ));

  const rowActions = (row: Row, reload: () => Promise<void>): ReactNode => {
    const verb: AccountVerb = isOpened(row) ? "close" : "open";
    if (!can[verb]) return null;
    return (
      <Button
        type="link"
        size="small"
        danger={verb === "close"}
        onClick={() => {
          reloadTable.current = reload;
          setOpen({
            kind: "row",
            verb,
            meter: { id: String(row.id), productCode: String(row.productCode ?? row.id) },
          });
        }}
        data-testid={`row-account-${verb}`}
      >
        {t(`meterAccount.row.${verb}`)}
      </Button>
    );
  };

  let dialog: ReactNode = null;
  if (open?.kind === "batch")
    dialog = (
      <AccountBatchDialog
        energy={energy}
        verb={open.verb}
        selected={open.selected}
        matching={{ def, search: open.search, total: open.total }}
        onClose={finish}
      />
    );
  else if (open?.verb === "open")
    dialog = <AccountOpenDialog energy={energy} meter={open.meter} onClose={finish} />;
  else if (open?.verb === "close")
    dialog = <AccountCloseDialog energy={energy} meter={open.meter} onClose={finish} />;

  return { toolbar, rowActions, dialog };
}
