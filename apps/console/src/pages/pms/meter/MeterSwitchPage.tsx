import type { QueryParams, Row } from "@meterline/api-client";
import { type ResourceDef, resources } from "@meterline/contracts";
import { Button } from "antd";
import { useRef, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import type { FormCustomization } from "../../../crud/form-customization.ts";
import { loadMatching, matchingMeters } from "../../../crud/matching.ts";
import { ResourcePage } from "../../../crud/ResourcePage.tsx";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { type AreaTarget, AreaTargetDialog } from "./AreaTargetDialog.tsx";
import { useMeterAccounts } from "./account/useMeterAccounts.tsx";
import { SchemeWriteButtons } from "./SchemeWriteButtons.tsx";
import { SupplySwitchDialog } from "./SupplySwitchDialog.tsx";
import type { Energy } from "./switch-calls.ts";

/** Only a Modbus meter (RTU or TCP) has a catalogue model and a slave address: shown for those protocols alone. */
const MODBUS_FIELDS = new Set(["modbusModel", "modbusSlave"]);
const MODBUS_PROTOCOLS = new Set(["modbus_rtu", "modbus_tcp"]);
const meterForm: FormCustomization = {
  visible: (name, values) => !MODBUS_FIELDS.has(name) || MODBUS_PROTOCOLS.has(String(values.protocol)),
  dependencies: { modbusModel: ["protocol"], modbusSlave: ["protocol"] },
};

interface Props {
  def: ResourceDef;
  energy: Energy;
  /** The button code that allows switching (`meter_switch`, `water_switch`). */
  permission: string;
}

/**
 * A meter screen with remote switching and account opening / closing: the generic table, a switch
 * button on each row and ones for the ticked rows, every row the search matches and every meter below
 * an area of the tree, behind the screen's switch permission; the account buttons behind their own.
 */
function MeterSwitchPage({ def, energy, permission }: Props) {
  const t = useT();
  const allowed = useConsole((state) => state.permission[permission] === true);
  const [switching, setSwitching] = useState<AreaTarget | null>(null);
  const [aiming, setAiming] = useState(false);
  // Rows seen on the current page, so ticked ids can be shown by their addresses.
  const seen = useRef(new Map<string, string>());
  // And their tenants: the platform administrator's switch names the tenant of the meters it ticks.
  const tenants = useRef(new Map<string, string>());
  const reloadTable = useRef<() => Promise<void>>(async () => undefined);
  const accounts = useMeterAccounts(energy, seen, def);
  const { message, modal } = useFeedback();

  const open = (ids: readonly string[], reload: () => Promise<void>) => {
    reloadTable.current = reload;
    const named = new Set(ids.map((id) => tenants.current.get(id)));
    const [tenantId] = named.size === 1 ? [...named] : [undefined];
    setSwitching({ meters: ids.map((id) => ({ id, productCode: seen.current.get(id) ?? id })), tenantId });
  };
  const close = () => {
    setSwitching(null);
    void reloadTable.current();
  };
  // Every meter the search matches, not only the ticked rows of this page: the count is confirmed
  // before the switch dialog opens, and the dialog sends nothing until a direction is chosen.
  const openMatching = async (search: QueryParams, reload: () => Promise<void>) => {
    try {
      const matching = await loadMatching(def, search);
      if (matching.total === 0) return void message.warning(t("table.scope.none"));
      if (matching.total > matching.ids.length)
        return void message.warning(t("table.scope.tooMany", { max: matching.limit }));
      modal.confirm({
        title: t(`table.scope.switch.${energy}`, { count: matching.total }),
        content: t("table.scope.confirm", { count: matching.total }),
        okButtonProps: { "data-testid": "switch-matching-ok" },
        onOk: () => {
          reloadTable.current = reload;
          const tenantId = typeof search.tenantId === "string" ? search.tenantId : undefined;
          setSwitching({ meters: matchingMeters(matching), tenantId });
        },
      });
    } catch (failure) {
      reportNetworkError(failure);
    }
  };
  const note = (row: Row) => {
    seen.current.set(String(row.id), String(row.productCode ?? row.id));
    if (typeof row.tenantId === "string") tenants.current.set(String(row.id), row.tenantId);
  };

  return (
    <>
      <ResourcePage
        def={def}
        form={def.name === "meter" ? meterForm : undefined}
        toolbar={(reload, selected, search, total) => (
          <>
            {allowed ? (
              <Button
                disabled={selected.length === 0}
                onClick={() => open(selected, reload)}
                data-testid="switch-batch"
              >
                {t(`switch.${energy}.batch`)}
              </Button>
            ) : null}
            {allowed ? (
              <Button
                disabled={total === 0}
                onClick={() => void openMatching(search, reload)}
                data-testid="switch-matching"
              >
                {t(`table.scope.switch.${energy}`, { count: total })}
              </Button>
            ) : null}
            {allowed ? (
              <Button
                onClick={() => {
                  reloadTable.current = reload;
                  setAiming(true);
                }}
                data-testid="switch-area"
              >
                {t(`batch.area.${energy}`)}
              </Button>
            ) : null}
            {accounts.toolbar(reload, selected, search, total)}
            <SchemeWriteButtons
              energy={energy}
              selected={selected}
              addressOf={(id) => seen.current.get(id) ?? id}
              reload={reload}
            />
          </>
        )}
        rowActions={(row, reload) => {
          note(row);
          return (
            <>
              {allowed ? (
                <Button
                  type="link"
                  size="small"
                  onClick={() => open([String(row.id)], reload)}
                  data-testid="row-switch"
                >
                  {t(`switch.${energy}.row`)}
                </Button>
              ) : null}
              {accounts.rowActions(row, reload)}
            </>
          );
        }}
      />
      {aiming ? (
        <AreaTargetDialog
          def={def}
          energy={energy}
          onClose={() => setAiming(false)}
          onConfirmed={(target) => {
            setAiming(false);
            setSwitching(target);
          }}
        />
      ) : null}
      {switching ? (
        <SupplySwitchDialog
          energy={energy}
          meters={switching.meters}
          tenantId={switching.tenantId}
          onClose={close}
        />
      ) : null}
      {accounts.dialog}
    </>
  );
}

export const ElectricMeterPage = () => (
  <MeterSwitchPage def={resources.meter} energy="electric" permission="meter_switch" />
);
export const WaterMeterPage = () => (
  <MeterSwitchPage def={resources.water} energy="water" permission="water_switch" />
);
