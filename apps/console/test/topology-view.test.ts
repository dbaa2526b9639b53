import assert from "node:assert/strict";
import { test } from "node:test";
import type { TopologyBranch } from "../src/pages/pms/area/topology/topology-calls.ts";
import {
  drawnSize,
  type TopologyLook,
  topologyOption,
} from "../src/pages/pms/area/topology/topology-option.ts";
import {
  CHILDREN_SHOWN,
  defaultExpanded,
  expandLevel,
  search,
  visibleCount,
} from "../src/pages/pms/area/topology/topology-view.ts";

const node = (
  id: string,
  name: string,
  category: TopologyBranch["category"],
  children: TopologyBranch[] = [],
  extra: Partial<TopologyBranch> = {},
): TopologyBranch => ({
  id,
  name,
  category,
  children,
  meters: children.reduce((sum, c) => sum + c.meters, category === "meter" || category === "water" ? 1 : 0),
  offline: children.reduce((sum, c) => sum + c.offline, 0),
  ...extra,
});

/** A park of `buildings` buildings, each with `dtus` collectors of `meters` meters (rooms 101…). */
function site(buildings: number, dtus: number, meters: number): TopologyBranch[] {
  const park = Array.from({ length: buildings }, (_, b) =>
    node(
      `b${b + 1}`,
      `${b + 1}号楼`,
      "area",
      Array.from({ length: dtus }, (_, d) =>
        node(
          `b${b + 1}-d${d + 1}`,
          `${b + 1}号楼 DTU ${d + 1}`,
          "collector",
          Array.from({ length: meters }, (_, m) =>
            node(
              `m${b + 1}-${d + 1}-${m + 1}`,
              `20100${b + 1}${d + 1}${String(m + 1).padStart(4, "0")}`,
              "meter",
              [],
              {
                room: String(101 + d * meters + m),
                online: m % 7 === 0 ? 0 : 1,
                offline: m % 7 === 0 ? 1 : 0,
              },
            ),
          ),
          { online: 1 },
        ),
      ),
    ),
  );
  return [node("park", "阳光园区", "area", park)];
}

test("a 10,000-meter site opens at its buildings: a few dozen nodes, collectors closed", () => {
  const roots = site(40, 5, 50);
  assert.equal(roots[0]?.meters, 10_000);
  const expanded = defaultExpanded(roots);
  assert.deepEqual([...expanded], ["park"]);
  assert.equal(visibleCount(roots, expanded), 41);
  // A small site opens down to its collectors' level, collectors still closed.
  const small = site(2, 2, 3);
  const open = defaultExpanded(small);
  assert.deepEqual([...open].sort(), ["b1", "b2", "park"]);
  assert.equal(visibleCount(small, expandLevel(small, open)), 1 + 2 + 4 + 12);
});

test("search opens the path of what matches: a building and a room, or a meter's last digits", () => {
  const roots = site(4, 2, 10);
  const found = search(roots, "2号楼 105", defaultExpanded(roots));
  assert.deepEqual([...found.matches], ["m2-1-5"]);
  assert.equal(found.total, 1);
  assert.ok(found.expanded.has("b2") && found.expanded.has("b2-d1"));
  assert.ok(!found.expanded.has("b1-d1"));
  const byDigits = search(roots, "320007", new Set());
  assert.deepEqual([...byDigits.matches], ["m3-2-7"]);
  assert.equal(search(roots, "  ", new Set()).matches.size, 0);
  assert.equal(search(roots, "9号楼", new Set()).total, 0);
});

const look: TopologyLook = {
  names: { area: "区域", collector: "采集器", direct: "直连表计", meter: "电表", water: "水表" },
  colours: { area: "#1", collector: "#2", direct: "#3", meter: "#4", water: "#5" },
  text: "#000",
  line: "#ccc",
  offlineFill: "#fff",
  offlineBorder: "#f00",
  matchBackground: "#ff0",
  offlineWord: "离线",
  onlineWord: "在线",
  areaLabel: (n) => `${n.name}（${n.meters}）`,
  collectorLabel: (n) => `${n.name}（${n.meters}）`,
  more: (count) => `还有 ${count} 块`,
};

test("the drawing holds only open nodes, closed ones marked +, offline meters dashed, matches bold", () => {
  const roots = site(2, 1, 3);
  const found = search(roots, "1号楼 102", defaultExpanded(roots));
  const option = topologyOption(roots, found, look);
  const [series] = option.series;
  type Drawn = { name: string; children?: Drawn[] };
  const data = (series?.data ?? []) as unknown as Drawn[];
  const [park] = data as (Drawn & { children: Drawn[] })[];
  assert.equal(park?.name, "阳光园区（6）");
  assert.deepEqual(
    park?.children.map((b) => b.name),
    ["1号楼（3）", "2号楼（3）"],
  );
  assert.equal(park?.children[1]?.children?.[0]?.name, "+ 2号楼 DTU 1（3）");
  const meters = park?.children[0]?.children?.[0]?.children as {
    name: string;
    match: boolean;
    itemStyle: { borderType?: string };
  }[];
  assert.deepEqual(
    meters.map((m) => [m.name, m.match, m.itemStyle.borderType ?? ""]),
    [
      ["101 · 20100110001", false, "dashed"],
      ["102 · 20100110002", true, ""],
      ["103 · 20100110003", false, ""],
    ],
  );
  assert.deepEqual(drawnSize(data as never), { leaves: 4, depth: 4 });
});

test("a collector with more meters than are drawn shows the rest as one counted node, matches first", () => {
  const roots = site(1, 1, CHILDREN_SHOWN + 50);
  const last = `m1-1-${CHILDREN_SHOWN + 50}`;
  const found = search(roots, String(CHILDREN_SHOWN + 50).padStart(4, "0"), new Set());
  assert.ok(found.matches.has(last));
  const option = topologyOption(roots, found, look);
  type Drawn = { value: string; name: string; children?: Drawn[] };
  const [park] = (option.series[0]?.data ?? []) as unknown as Drawn[];
  const collector = park?.children?.[0]?.children?.[0];
  const drawn = collector?.children ?? [];
  assert.equal(drawn.length, CHILDREN_SHOWN + 1);
  assert.equal(drawn[0]?.value, last);
  assert.equal(drawn.at(-1)?.name, "还有 50 块");
});
