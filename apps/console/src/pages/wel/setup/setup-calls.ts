import type { SetupProgress, SetupStep } from "@meterline/contracts";
import { api } from "../../../app/api.ts";

/** Silent: the home page shows the checklist or not; a failed read is no reason for a toast. */
export const loadSetupProgress = () =>
  api
    .request("/api/blade-pms/setup/progress", { silent: true })
    .then((answer) => (answer as { data: SetupProgress }).data);

/** The screen each step is done on (menu codes of the family's seed). */
export const STEP_SCREENS: Record<SetupStep, string> = {
  areas: "area",
  rooms: "room",
  chargingSchemes: "chargingScheme",
  alarmSchemes: "alarmScheme",
  collectors: "collector",
  meters: "meter",
  owners: "owner",
  accounts: "meter",
  recharges: "ownerRecharge",
};
