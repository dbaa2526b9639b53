import { resources } from "@meterline/contracts";
import { moneyFilterDef } from "../money/money-filters.ts";
import { useDictionaryLabel } from "../money/money-labels.ts";

const meter = resources.meter.fields;
const command = resources.meterCommand.fields;
const money = moneyFilterDef.fields;

/** The names of the coded values the detail pages show, in the user's language. */
export function useDetailLabels() {
  return {
    online: useDictionaryLabel(meter.onlineStatus),
    supply: useDictionaryLabel(meter.switchStatus),
    run: useDictionaryLabel(meter.runStatus),
    meterType: useDictionaryLabel(meter.meterType),
    control: useDictionaryLabel(meter.controlStatus),
    protocol: useDictionaryLabel(meter.protocol),
    modbusModel: useDictionaryLabel(meter.modbusModel),
    collectorType: useDictionaryLabel(resources.collector.fields.collectorType),
    commandType: useDictionaryLabel(command.commandType),
    commandState: useDictionaryLabel(command.state),
    rechargeType: useDictionaryLabel(money.rechargeType),
    paymentMethod: useDictionaryLabel(money.paymentMethod),
    roomType: useDictionaryLabel(resources.room.fields.roomType),
    ownerType: useDictionaryLabel(resources.owner.fields.ownerType),
  };
}

export type DetailLabels = ReturnType<typeof useDetailLabels>;
