import type { setupZh } from "./setup.zh.ts";

export const setupEn: Record<keyof typeof setupZh, string> = {
  "setup.title": "Getting started",
  "setup.intro":
    "Take these steps in order to take the site's first top-up. Areas, rooms, owners and meters can also be made at once with Import on the Rooms screen.",
  "setup.count": "{count} so far",
  "setup.go": "Set up",
  "setup.step.areas": "Areas",
  "setup.step.rooms": "Rooms",
  "setup.step.chargingSchemes": "Charging schemes",
  "setup.step.alarmSchemes": "Alarm schemes",
  "setup.step.collectors": "Collectors",
  "setup.step.meters": "Electric and water meters",
  "setup.step.owners": "Owners",
  "setup.step.accounts": "Open accounts",
  "setup.step.recharges": "First top-up",
  "setup.hint.areas": "Parks, buildings, units",
  "setup.hint.rooms": "Each room belongs to an area",
  "setup.hint.chargingSchemes": "Flat, tiered or time-of-use prices",
  "setup.hint.alarmSchemes": "Low-balance lines and the arrears cut line",
  "setup.hint.collectors": "Registration codes of concentrators or DTUs",
  "setup.hint.meters": "Meter number, collector, control mode and charging scheme",
  "setup.hint.owners": "Owners and their rooms",
  "setup.hint.accounts": "Open each meter's account on the meter screens",
  "setup.hint.recharges": "Top up an owner's account at the counter",
};
