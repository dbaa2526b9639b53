import assert from "node:assert/strict";
import { test } from "node:test";
import { resources } from "@meterline/contracts";
import { createElement, Fragment } from "react";
import { dataColumns } from "../src/crud/columns.tsx";
import { actionsOf } from "../src/crud/RowActions.tsx";

test("a page's own row buttons are read as actions, through fragments and wrappers, skipping nothing shown", () => {
  const calls: string[] = [];
  const button = (label: string, testId?: string) =>
    createElement(
      "button",
      { type: "button", onClick: () => calls.push(label), "data-testid": testId },
      label,
    );
  // As pages pass them: a fragment, a hidden button (false), one wrapped in another element.
  const actions = actionsOf(
    createElement(
      Fragment,
      null,
      button("拉合闸", "row-switch"),
      false,
      createElement("span", null, button("开户", "row-account-open")),
      button("详情"),
    ),
  );
  assert.deepEqual(
    actions.map((a) => [a.key, a.label, a.testId]),
    [
      ["row-switch", "拉合闸", "row-switch"],
      ["row-account-open", "开户", "row-account-open"],
      ["extra-2", "详情", undefined],
    ],
  );
  for (const action of actions) action.onClick();
  assert.deepEqual(calls, ["拉合闸", "开户", "详情"]);
});

test("meter numbers are read whole, fitted to the longest on the page; other columns ellipsise", () => {
  const rows = [{ id: "1", productCode: "201000000000", meterName: "电表 1" }];
  const columns = dataColumns(resources.meter, "zh", rows);
  const number = columns.find((c) => c.key === "productCode") as { width: number; ellipsis: unknown };
  const name = columns.find((c) => c.key === "meterName") as { width: number; ellipsis: unknown };
  assert.equal(number.ellipsis, false);
  const longer = dataColumns(resources.meter, "zh", [{ id: "1", productCode: "2010000000001234567890" }]);
  assert.ok((longer.find((c) => c.key === "productCode") as { width: number }).width > number.width);
  assert.deepEqual(name.ellipsis, { showTitle: false });
});
