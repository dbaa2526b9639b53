import assert from "node:assert/strict";
import { test } from "node:test";
import {
  closeAllTabs,
  closeOtherTabs,
  closeTab,
  filterTabs,
  homeTab,
  isClosable,
  openTab,
  type Tab,
  tabHref,
  tabTitle,
} from "../src/store/tabs.ts";

const tab = (value: string, label = value): Tab => ({ label, value, params: {}, query: {}, meta: {} });
const values = (tabs: Tab[]) => tabs.map((item) => item.value);

test("openTab appends new tabs and refreshes open ones in place", () => {
  const tabs = openTab([homeTab, tab("/a")], tab("/b"));
  assert.deepEqual(values(tabs), ["/wel/index", "/a", "/b"]);
  const again = openTab(tabs, { ...tab("/a", "A2"), query: { x: "1" } });
  assert.deepEqual(values(again), ["/wel/index", "/a", "/b"]);
  assert.equal(again[1]?.label, "A2");
  assert.equal(tabHref(again[1] as Tab), "/a?x=1");
});

test("tabs are closable unless only one remains", () => {
  assert.equal(isClosable([homeTab]), false);
  assert.equal(isClosable([homeTab, tab("/a")]), true);
  assert.deepEqual(closeTab([homeTab], homeTab.value, homeTab.value), { tabs: [homeTab], activate: null });
});

test("closing the active tab activates the previous one, or the first", () => {
  const tabs = [homeTab, tab("/a"), tab("/b")];
  const middle = closeTab(tabs, "/a", "/a");
  assert.deepEqual(values(middle.tabs), ["/wel/index", "/b"]);
  assert.equal(middle.activate?.value, "/wel/index");
  const last = closeTab(tabs, "/b", "/b");
  assert.equal(last.activate?.value, "/a");
  const first = closeTab(tabs, "/wel/index", "/wel/index");
  assert.equal(first.activate?.value, "/a");
  const other = closeTab(tabs, "/b", "/a");
  assert.equal(other.activate, null);
});

test("close others keeps the active and home tabs; close all leaves home", () => {
  const tabs = [homeTab, tab("/a"), tab("/b"), tab("/c")];
  assert.deepEqual(values(closeOtherTabs(tabs, "/b")), ["/wel/index", "/b"]);
  assert.deepEqual(values(closeAllTabs()), ["/wel/index"]);
});

test("the tag search filters by label or path, case-insensitively", () => {
  const tabs = [homeTab, tab("/wel/dashboard", "Dashboard"), tab("/test/index", "Test")];
  const label = (item: Tab) => item.label;
  assert.deepEqual(values(filterTabs(tabs, "dASH", label)), ["/wel/dashboard"]);
  assert.deepEqual(values(filterTabs(tabs, "/test", label)), ["/test/index"]);
  assert.equal(filterTabs(tabs, " ", label).length, 3);
});

test("a tab with a subject is called by its label, then the subject", () => {
  const tr = (key: string | undefined, fallback: string) => (key === "detail.tab.room" ? "Room" : fallback);
  const room: Tab = {
    ...tab("/pms/room/detail/1", "房间"),
    meta: { i18n: "detail.tab.room", subject: "2号楼 305" },
  };
  assert.equal(tabTitle(room, tr), "Room 2号楼 305");
  assert.equal(tabTitle(tab("/a", "甲"), tr), "甲");
});
