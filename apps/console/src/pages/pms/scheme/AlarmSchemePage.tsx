import { resources } from "@meterline/contracts";
import { ResourcePage } from "../../../crud/ResourcePage.tsx";
import { alarmForm } from "./alarm-form.ts";

/** The alarm scheme screen: the generic table, with editors for protection windows, dates and channels. */
export default function AlarmSchemePage() {
  return <ResourcePage def={resources.alarmScheme} form={alarmForm} />;
}
