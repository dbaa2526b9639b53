import assert from "node:assert/strict";
import { test } from "node:test";
import { MENU_ICON_CLASSES } from "@meterline/contracts";
import { hasMenuIcon, iconKey } from "../src/layout/icon-registry.tsx";

test("every family icon class of the seed reads back to the icon Meterline showed for it", () => {
  for (const [name, cls] of Object.entries(MENU_ICON_CLASSES)) {
    assert.match(cls, /^iconfont icon(icon_|-)\w/, name);
    assert.equal(iconKey(cls), name, cls);
    assert.ok(hasMenuIcon(name), `${name} has no icon of its own`);
  }
  const classes = Object.values(MENU_ICON_CLASSES);
  assert.equal(new Set(classes).size, classes.length, "two icons share a class");
});

test("plain names and other class spellings still name their icons", () => {
  assert.equal(iconKey("setting"), "setting");
  assert.equal(iconKey("SettingOutlined"), "setting");
  assert.equal(iconKey("iconfont icon-setting"), "setting");
  assert.equal(iconKey("el-icon-user"), "user");
  assert.equal(hasMenuIcon(iconKey("iconfont iconicon_no_such")), false);
});
