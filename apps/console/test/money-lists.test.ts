import assert from "node:assert/strict";
import { test } from "node:test";
import { pickerCodesOf } from "@meterline/contracts";
import dayjs from "dayjs";
import { toMoneyQuery } from "../src/pages/money/money-filters.ts";
import { removablePayment } from "../src/pages/money/money-labels.ts";
import { defaultPeriod, periodProblem, statementQuery } from "../src/pages/money/statement-period.ts";

test("a money search sends trimmed texts, chosen keys and the day range; empty boxes are left out", () => {
  const query = toMoneyQuery({
    ownerName: "  张三 ",
    productCode: "",
    areaId: "42",
    rechargeType: "2",
    energyType: undefined,
    period: [dayjs("2026-11-01 15:30:00"), dayjs("2026-11-25")],
  });
  assert.deepEqual(query, {
    ownerName: "张三",
    areaId: "42",
    rechargeType: "2",
    startTime: "2026-11-01",
    endTime: "2026-11-25",
  });
  assert.deepEqual(toMoneyQuery({ period: [null, dayjs("2026-11-25")] }), { endTime: "2026-11-25" });
  assert.deepEqual(toMoneyQuery({}), {});
});

test("a statement covers this month so far by default and at most 366 days", () => {
  const [from, to] = defaultPeriod(dayjs("2026-11-25 13:04:00"));
  assert.deepEqual(statementQuery("7", from, to), {
    accountId: "7",
    startDay: "2026-11-01",
    endDay: "2026-11-25",
  });
  assert.equal(periodProblem(from, to), undefined);
  assert.equal(periodProblem(null, to), "statement.pickAccount");
  assert.equal(periodProblem(to, from), "statement.badPeriod");
  assert.equal(periodProblem(dayjs("2025-01-01"), dayjs("2026-01-03")), "statement.periodTooLong");
  assert.equal(periodProblem(dayjs("2025-01-01"), dayjs("2026-01-02")), undefined);
});

test("only unpaid and failed payments offer removal", () => {
  assert.deepEqual([0, 1, 2, "0", "1"].map(removablePayment), [true, false, true, true, false]);
});

test("the money lists may use the area and room pickers their search bars show", () => {
  for (const screen of ["dataRecharge", "payment", "dataOpenAccount", "dataCloseAccount"]) {
    assert.ok(pickerCodesOf("area").includes(screen), `area picker for ${screen}`);
    assert.ok(pickerCodesOf("room").includes(screen), `room picker for ${screen}`);
  }
});
