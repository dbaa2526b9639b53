import { call, type Operator } from "./registry-helpers.ts";

export interface MoneySite {
  owner: string;
  /** Electric meters, each in its own room of the owner, ready to open (remote control, priced). */
  meters: { id: string; productCode: string }[];
}

/**
 * Through the API: an area, a flat charging scheme, a collector, one owner and `rooms` rooms of
 * that owner with an electric meter each; meters numbered from `firstCode` (12 digits).
 */
export async function seedMoneySite(
  baseUrl: string,
  operator: Operator,
  options: { rooms: number; firstCode: number; ownerName: string; phone: string },
): Promise<MoneySite> {
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(baseUrl, operator.token, `/api/blade-pms/${path}`, { body });
  const area = (await post("area/save", { areaName: "收费园区", areaType: 1 })).id;
  const scheme = (
    await post("chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    })
  ).id;
  const collector = (
    await post("collector/submit", {
      collectorName: "收费DTU",
      collectorCode: `E2E-MONEY-${operator.tenantId}`,
    })
  ).id;
  const owner = (await post("owner/submit", { ownerName: options.ownerName, phone: options.phone })).id;
  const meters: MoneySite["meters"] = [];
  for (let i = 0; i < options.rooms; i++) {
    const room = (await post("room/save", { areaId: area, roomName: `M${101 + i}` })).id;
    await post("ownerroom/submit", { ownerId: owner, roomId: room });
    const productCode = String(options.firstCode + i).padStart(12, "0");
    const meter = (
      await post("meter/submit", {
        productCode,
        collectorId: collector,
        controlStatus: 1,
        chargingSchemeId: scheme,
      })
    ).id;
    await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });
    meters.push({ id: meter, productCode });
  }
  return { owner, meters };
}
