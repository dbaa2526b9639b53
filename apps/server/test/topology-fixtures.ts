import type { TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

/** A supply point with a master meter, a building node under it, two room meters and a common-area meter. */
export async function buildTopology(server: TestServer, token: string) {
  const site = await buildSite(server, token);
  const meter = (code: string) => created(server, token, "meter/save", { productCode: code });
  const master = await meter("100000000900");
  const buildingMaster = await meter("100000000901");
  const room102 = await meter("100000000102");
  const corridor = await meter("100000000990");
  await created(server, token, "roommeter/submit", { roomId: site.room102, energyType: 1, meterId: room102 });
  const supply = await created(server, token, "meteringnode/submit", {
    nodeTitle: "1号变压器",
    energyType: 1,
    nodeKind: 1,
    masterMeterId: master,
  });
  const building = await created(server, token, "meteringnode/submit", {
    parentId: supply,
    nodeTitle: "1号楼",
    energyType: 1,
    nodeKind: 2,
    areaId: site.building1,
    masterMeterId: buildingMaster,
  });
  const link = (meterId: string, meterRole: number) =>
    created(server, token, "meteringnodemeter/submit", {
      nodeId: building,
      energyType: 1,
      meterId,
      meterRole,
    });
  const links = [await link(site.meter, 1), await link(room102, 1), await link(corridor, 2)];
  return { site, master, buildingMaster, room102, corridor, supply, building, links };
}
