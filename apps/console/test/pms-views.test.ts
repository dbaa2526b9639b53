import assert from "node:assert/strict";
import { test } from "node:test";
import { filterForest, forestKeys, titleOf } from "../src/pages/pms/area/area-forest.ts";
import type { Topology } from "../src/pages/pms/area/topology/topology-calls.ts";
import {
  countByCategory,
  type TopologyLook,
  topologyOption,
} from "../src/pages/pms/area/topology/topology-option.ts";
import { describeLogContent, type LogWords } from "../src/pages/pms/owner/owner-log-text.ts";

const forest = [
  {
    key: "1",
    title: "阳光园区",
    children: [
      { key: "2", title: "1号楼", children: [{ key: "4", title: "3单元" }] },
      { key: "3", title: "2号楼" },
    ],
  },
];

test("the area search keeps matches with their ancestors, and a match keeps its subtree", () => {
  assert.deepEqual(forestKeys(filterForest(forest, "3单")), ["1", "2", "4"]);
  assert.deepEqual(forestKeys(filterForest(forest, "1号")), ["1", "2", "4"]);
  assert.deepEqual(filterForest(forest, "nothing"), []);
  assert.deepEqual(forestKeys(filterForest(forest, " ")), ["1", "2", "4", "3"]);
  assert.equal(titleOf(forest, "4"), "3单元");
});

const words: LogWords = {
  label: (key) =>
    ({ phone: "手机号码", ownerType: "业主类型", roomName: "房间", rooms: "房间", created: "新建业主" })[
      key
    ] ?? key,
  value: (key, value) => (key === "ownerType" && String(value) === "1" ? "个人" : String(value)),
  yes: "是",
  no: "否",
  empty: "（空）",
};

test("owner log entries read as labelled lines; ids are left out", () => {
  assert.deepEqual(describeLogContent('{"phone":{"from":"13900000009","to":null}}', words), [
    "手机号码: 13900000009 → （空）",
  ]);
  assert.deepEqual(describeLogContent('{"roomId":"7","roomName":"301"}', words), ["房间: 301"]);
  assert.deepEqual(describeLogContent('{"owner_type":1}', words), ["业主类型: 个人"]);
  assert.deepEqual(
    describeLogContent(
      '{"ownerName":"张三","created":true,"rooms":[{"roomId":"1","room":"301"},{"roomId":"2","room":"302"}]}',
      words,
    ),
    ["ownerName: 张三", "新建业主: 是", "房间: 301、302"],
  );
  assert.deepEqual(describeLogContent('{"owner_name":"李四","phone":null,"id_card":""}', words), [
    "ownerName: 李四",
  ]);
  assert.deepEqual(describeLogContent("plain text", words), ["plain text"]);
});

const look: TopologyLook = {
  names: { area: "区域", room: "房间", meter: "电表", water: "水表", collector: "采集器" },
  colours: { area: "#1", room: "#2", meter: "#3", water: "#4", collector: "#5" },
  text: "#000",
  line: "#ccc",
  offlineFill: "#fff",
  offlineBorder: "#f00",
  offlineWord: "离线",
  onlineWord: "在线",
  animate: false,
};

test("the topology option is a pannable graph with a legend per kind and offline nodes marked", () => {
  const topology: Topology = {
    nodes: [
      { id: "1", name: "园区", category: "area" },
      { id: "2", name: "301", category: "room" },
      { id: "3", name: "000000000001", category: "meter", online: 0 },
      { id: "4", name: "DTU", category: "collector", online: 1 },
    ],
    links: [
      { source: "1", target: "2" },
      { source: "2", target: "3" },
      { source: "3", target: "4" },
    ],
    truncated: false,
  };
  const option = topologyOption(topology, look);
  const [series] = option.series;
  assert.equal(series?.roam, true);
  assert.deepEqual(option.legend[0]?.data, ["区域", "房间", "电表", "水表", "采集器"]);
  assert.deepEqual(
    series?.data.map((n) => [n.name, series.categories[n.category]?.name, n.offline]),
    [
      ["园区", "区域", false],
      ["301", "房间", false],
      ["000000000001", "电表", true],
      ["DTU", "采集器", false],
    ],
  );
  assert.equal(series?.data[2]?.itemStyle?.borderType, "dashed");
  assert.equal(series?.links.length, 3);
  assert.deepEqual(countByCategory(topology), { area: 1, room: 1, meter: 1, water: 0, collector: 1 });
});
