/** Posts one body to `/api/blade-pms/<path>` as the operator and answers the row's id. */
export type PmsPost = (path: string, body: unknown) => Promise<{ id: string }>;

/** What the owner-page tests build on: an area, a DTU and a one-yuan electricity scheme. */
export interface OwnerSite {
  areaId: string;
  collectorId: string;
  schemeId: string;
}

export async function ownerSite(
  pms: PmsPost,
  names: { areaName: string; collectorName: string; collectorCode: string },
): Promise<OwnerSite> {
  const areaId = (await pms("area/save", { areaName: names.areaName, areaType: 1 })).id;
  const schemeId = (
    await pms("chargingscheme/submit", { schemeName: "一元电", energyType: 1, priceMode: 1, price: "1" })
  ).id;
  const collectorId = (
    await pms("collector/submit", { collectorName: names.collectorName, collectorCode: names.collectorCode })
  ).id;
  return { areaId, collectorId, schemeId };
}

/** An owner in a room of the site (a meter there too when `productCode` is given, remote prepaid). */
export async function housedOwner(
  pms: PmsPost,
  site: OwnerSite,
  owner: { ownerName: string; phone: string; roomName: string; productCode?: string },
): Promise<{ ownerId: string; roomId: string; meterId?: string }> {
  const ownerId = (await pms("owner/submit", { ownerName: owner.ownerName, phone: owner.phone })).id;
  const roomId = (await pms("room/save", { areaId: site.areaId, roomName: owner.roomName })).id;
  await pms("ownerroom/submit", { ownerId, roomId });
  if (!owner.productCode) return { ownerId, roomId };
  const meterId = (
    await pms("meter/submit", {
      productCode: owner.productCode,
      collectorId: site.collectorId,
      controlStatus: 1,
      chargingSchemeId: site.schemeId,
    })
  ).id;
  await pms("roommeter/submit", { roomId, energyType: 1, meterId });
  return { ownerId, roomId, meterId };
}
