import assert from "node:assert/strict";
import { test } from "node:test";
import { loadLanguage, translate } from "../src/i18n/index.tsx";
import type { MessageKey } from "../src/i18n/zh.ts";
import { apiTitle } from "../src/pages/log/api-title.ts";

await loadLanguage("en");
const zh = (key: MessageKey) => translate("zh", key);
const en = (key: MessageKey) => translate("en", key);

test("the API log titles a generic resource call in the reader's language", () => {
  const row = { requestUri: "/api/blade-log/usual/list", title: "List logUsual" };
  assert.equal(apiTitle(row, "zh", zh), "通用日志 查询");
  assert.match(apiTitle(row, "en", en), /^[A-Za-z ]+: list$/);
  assert.equal(apiTitle({ requestUri: "/api/blade-pms/meter/submit", title: "" }, "zh", zh), "电表 保存");
});

test("a call of a module route keeps the title stored with it", () => {
  const row = { requestUri: "/api/blade-pms/message/switch", title: "Switch one electric meter's relay" };
  assert.equal(apiTitle(row, "zh", zh), "Switch one electric meter's relay");
});
