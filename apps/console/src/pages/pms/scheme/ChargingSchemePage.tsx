import { resources } from "@meterline/contracts";
import { ResourcePage } from "../../../crud/ResourcePage.tsx";
import { chargingForm } from "./charging-form.ts";

/** The charging scheme screen: the generic table, with a form that edits tiers and time slots as tables. */
export default function ChargingSchemePage() {
  return <ResourcePage def={resources.chargingScheme} form={chargingForm} dialogWidth={900} />;
}
