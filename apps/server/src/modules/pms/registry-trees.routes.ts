import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import type { Db } from "../../db/client.ts";
import { type MeterFilter, RegistryRepository, type RoomFilter } from "./registry.repository.ts";
import { registryTenant, requirePicker } from "./registry-access.ts";
import { buildRegistryTree, type RegistryNode } from "./tree-builder.ts";

const base = "/api/blade-pms";

/**
 * The registry's trees (spec §7): areas with rooms, owners and meters hung under them, each
 * narrowed to what a picker needs (rooms without an owner, meters whose account can be opened).
 * Node `type` and `selectable` tell the console which nodes may be chosen.
 */
export async function registryTreeRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const tree = (
    path: string,
    summary: string,
    resource: string,
    build: (repo: RegistryRepository, params: Record<string, unknown>) => Promise<RegistryNode[]>,
  ) =>
    app.get(
      `${base}/${path}`,
      { config: { resource }, schema: { tags: [resource], summary } },
      async (request: FastifyRequest) => {
        const user = await requirePicker(db, request, resource);
        const params = readParams(request);
        return ok(await build(new RegistryRepository(db, registryTenant(user, params)), params));
      },
    );

  const roomTree = async (repo: RegistryRepository, filter: RoomFilter) =>
    buildRegistryTree(await repo.areas(), await repo.rooms(filter), { prune: filter !== "all" });
  const meterTree = async (repo: RegistryRepository, filter: MeterFilter) => {
    const [areas, rooms, meters] = [await repo.areas(), await repo.rooms(), await repo.meters(filter)];
    return buildRegistryTree([...areas, ...rooms], meters, {
      prune: true,
      orphanRoot: { id: "uninstalled", title: "未安装的表" },
    });
  };

  tree("room/tree", "Areas with their rooms", "room", (repo) => roomTree(repo, "all"));
  tree(
    "room/unbindTree",
    "Rooms without a meter of the energy type (1 electric, 2 water)",
    "room",
    (repo, params) => {
      const energyType = optionalString(params, "energyType") ?? "1";
      if (energyType !== "1" && energyType !== "2") throw badParam("energyType");
      return roomTree(repo, { withoutMeterOf: Number(energyType) as 1 | 2 });
    },
  );
  tree("room/unbindOwnerTree", "Rooms without an owner", "room", (repo) => roomTree(repo, "withoutOwner"));

  tree("owner/tree", "Areas and rooms with their owners", "owner", async (repo) =>
    buildRegistryTree([...(await repo.areas()), ...(await repo.rooms())], await repo.ownersByRoom(), {
      prune: true,
      orphanRoot: { id: "roomless", title: "未绑定房间的业主" },
    }),
  );
  tree("owner/unbindRoomTree", "Owners without a room", "owner", async (repo) =>
    buildRegistryTree([], await repo.ownersWithoutRoom(), {
      prune: false,
      orphanRoot: { id: "roomless", title: "未绑定房间的业主" },
    }),
  );

  tree("meter/tree", "Areas and rooms with their electric meters", "meter", (repo) => meterTree(repo, "all"));
  tree("meter/treeOpenAccount", "Electric meters whose account can be opened", "meter", (repo) =>
    meterTree(repo, "openable"),
  );
  tree("meter/treeOpenAccountNew", "Electric and water meters whose account can be opened", "meter", (repo) =>
    meterTree(repo, "openableAny"),
  );
  tree(
    "meter/treeCloseAccount",
    "Meters whose account can be closed (energyType 1 electric, the default; 2 water)",
    "meter",
    (repo, params) => {
      const energyType = optionalString(params, "energyType") ?? "1";
      if (energyType !== "1" && energyType !== "2") throw badParam("energyType");
      return meterTree(repo, energyType === "2" ? "closableWater" : "closable");
    },
  );
  tree("meter/unbindTree", "Electric meters not installed in a room, by collector", "meter", async (repo) =>
    buildRegistryTree(await repo.collectors(), await repo.meters("unbound"), {
      prune: true,
      orphanRoot: { id: "nocollector", title: "未分配采集器" },
    }),
  );
  // Not in the spec's call list: the room-meter form needs the free water meters as meter/unbindTree gives the electric ones.
  tree("water/unbindTree", "Water meters not installed in a room, by collector", "water", async (repo) =>
    buildRegistryTree(await repo.collectors(), await repo.meters("unboundWater"), {
      prune: true,
      orphanRoot: { id: "nocollector", title: "未分配采集器" },
    }),
  );
}
