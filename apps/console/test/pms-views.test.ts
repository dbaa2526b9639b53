import assert from "node:assert/strict";
import { test } from "node:test";
import { filterForest, forestKeys, titleOf } from "../src/pages/pms/area/area-forest.ts";
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
