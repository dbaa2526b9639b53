import type { Row } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { useMemo } from "react";
import { type Option, useDictionary } from "../../../crud/dictionary.ts";
import { fieldLabel } from "../../../crud/labels.ts";
import { useI18n } from "../../../i18n/index.tsx";
import { AreaScopedPage } from "../area/AreaScopedPage.tsx";
import { AreaTreeLayout } from "../area/AreaTreeLayout.tsx";

const { roomMeter, meter, room } = resources;
/** A new link starts as an electric meter, so both pickers offer choices at once. */
const newLink = () => ({ energyType: 1 });
/** roomMeterPage filters by room, area, energy type and address, not by meter id. */
const searchOmit = ["meterId"] as const;

const named = (options: Option[], value: unknown) =>
  options.find((o) => o.value === String(value ?? ""))?.label ?? String(value ?? "");

/**
 * The room meter screen: areas on the left; on the right the links of the chosen area's rooms
 * as roommeter/roomMeterPage answers them, with room, owner, meter address and meter state.
 * Links are added and removed through the generic form, whose pickers offer only free rooms and
 * meters.
 */
export default function RoomMeterPage() {
  const { language } = useI18n();
  const energy = useDictionary(roomMeter.fields.energyType, language);
  const account = useDictionary(meter.fields.accountStatus, language);
  const switching = useDictionary(meter.fields.switchStatus, language);
  const online = useDictionary(meter.fields.onlineStatus, language);

  const columns = useMemo(() => {
    const text = (key: string, title: string, render?: (row: Row) => string, width?: number) => ({
      key,
      dataIndex: key,
      title,
      width,
      ellipsis: true,
      render: (_: unknown, row: Row) => (render ? render(row) : String(row[key] ?? "")),
    });
    const joined: TableColumnsType<Row> = [
      text("areaName", fieldLabel(room, "areaId", language)),
      text("roomName", fieldLabel(roomMeter, "roomId", language)),
      text("ownerName", fieldLabel(resources.ownerRoom, "ownerId", language)),
      text("energyType", fieldLabel(roomMeter, "energyType", language), (r) => named(energy, r.energyType)),
      // Addresses are read digit by digit: never cut short.
      text("productCode", fieldLabel(meter, "productCode", language), undefined, 140),
      text("meterName", fieldLabel(meter, "meterName", language)),
      text("accountStatus", fieldLabel(meter, "accountStatus", language), (r) =>
        named(account, r.accountStatus),
      ),
      text("switchStatus", fieldLabel(meter, "switchStatus", language), (r) =>
        named(switching, r.switchStatus),
      ),
      text("onlineStatus", fieldLabel(meter, "onlineStatus", language), (r) => named(online, r.onlineStatus)),
    ];
    return () => joined;
  }, [language, energy, account, switching, online]);

  return (
    <AreaTreeLayout>
      {({ areaId }) => (
        <AreaScopedPage
          def={roomMeter}
          areaId={areaId}
          listVerb="roomMeterPage"
          columns={columns}
          newRow={newLink}
          searchOmit={searchOmit}
        />
      )}
    </AreaTreeLayout>
  );
}
