import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { BatchJobItem, BatchJobSummary, Page } from "@meterline/contracts";
import { type FleetHandle, planFleet, plannedSecret, startFleet } from "@meterline/simulator";
import { freePort } from "../scripts/free-port.mjs";
import { expectAccessible } from "./axe.ts";
import { openResource, settled } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, eventually, newOperator, signInOperator } from "./registry-helpers.ts";

/** The gateway's port, chosen here so that this suite's own simulated fleet can dial it. */
const gatewayPort = await freePort();

const suite = useBrowserSuite({
  env: {
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_PORT: String(gatewayPort),
    // The bus carries the writes, not polls.
    POLL_INTERVAL_SECONDS: "86400",
    GATEWAY_REQUEST_TIMEOUT_MS: "1500",
  },
});

// 200 local-prepaid electric meters on four DTUs that answer quickly.
const PLAN = { meters: 200, dtus: 4, waterRatio: 0, prepaidRatio: 1, seed: "e2e-batch-jobs" } as const;
/** These meters answer every write with an abnormal reply: their writes fail. */
const FAILING = 5;
const pms = "/api/blade-pms";

let fleet: FleetHandle | undefined;
after(async () => {
  await fleet?.close();
});

/** Runs `work` over `items`, a few at a time (the setup's calls, without flooding the server). */
async function inTurns<T>(items: readonly T[], work: (item: T) => Promise<void>, width = 8) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

test("a price write to 200 meters shows its progress, and 重试失败 makes a job of exactly the failed meters", async () => {
  const { page } = suite.session;
  const { baseUrl } = suite.server;
  const operator = await newOperator(baseUrl, "批量任务公司");
  const post = <T = { id: string }>(path: string, body: unknown) =>
    call<T>(baseUrl, operator.token, `${pms}/${path}`, { body });
  const get = <T>(path: string, query: Record<string, string>) =>
    call<T>(baseUrl, operator.token, `${pms}/${path}`, { query });

  // The registry: DTUs with their secrets, a room and an owner per meter, a flat price.
  const plan = planFleet(PLAN);
  const area = (await post("area/save", { areaName: "批量园区", areaType: 1 })).id;
  const scheme = (
    await post("chargingscheme/submit", {
      schemeName: "批量电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    })
  ).id;
  const owner = (await post("owner/submit", { ownerName: "批量业主", ownerCode: "BJ1" })).id;
  const collectors = new Map<string, string>();
  for (const dtu of plan.dtuIds)
    collectors.set(
      dtu,
      (
        await post("collector/submit", {
          collectorName: dtu,
          collectorCode: dtu,
          registrationSecret: plannedSecret(plan, dtu),
        })
      ).id,
    );
  const meterIds = new Map<string, string>();
  await inTurns(plan.meters, async (meter) => {
    const room = (await post("room/save", { areaId: area, roomName: `R${meter.address.slice(-3)}` })).id;
    await post("ownerroom/submit", { ownerId: owner, roomId: room });
    const id = (
      await post("meter/save", {
        productCode: meter.address,
        collectorId: collectors.get(meter.collectorId),
        controlStatus: 0,
        chargingSchemeId: scheme,
      })
    ).id;
    await post("roommeter/submit", { roomId: room, energyType: 1, meterId: id });
    meterIds.set(meter.address, id);
  });

  fleet = await startFleet({ ...PLAN, replyDelayMs: 5, gateway: { host: "127.0.0.1", port: gatewayPort } });
  // An account opens once the meter's purchase count is known (read when its DTU registers).
  await inTurns(plan.meters, async (meter) => {
    await eventually(async () => {
      await post("message/openAccount", { meterId: meterIds.get(meter.address), deposit: "100" });
    }, 60_000);
  });
  // The openings' own writes settle before the batch (a pending price write would leave a meter out).
  await eventually(async () => {
    for (const state of ["queued", "sent"]) {
      const pending = await get<Page<unknown>>("metercommand/list", { state, size: "1" });
      assert.equal(pending.total, 0, `${state} commands`);
    }
  }, 90_000);
  const failing = plan.meters.slice(0, FAILING).map((m) => m.address);
  for (const address of failing) fleet.injectFault(address, "errorReply", 50);

  // The operator ticks every meter on one page of 200 and writes the prices.
  await signInOperator(page, operator);
  const meters = await openResource(page, "/pms/meter", "meter");
  await meters.locator(".ant-pagination-options .ant-select").click();
  await page.locator(".ant-select-dropdown:visible").getByText("200", { exact: false }).click();
  await settled(meters);
  await meters.locator(".ant-table-thead .ant-checkbox-input").check();
  await meters.getByTestId("meter-write-price").click();
  await page.getByTestId("meter-write-price-ok").click();

  // The job's progress, live, until every meter has settled.
  const dialog = page.getByTestId("job-dialog");
  await dialog.waitFor();
  const firstJob = String(await dialog.getAttribute("data-job-id"));
  const progress = dialog.getByTestId("job-progress");
  await eventually(async () => assert.equal(await progress.getAttribute("data-total"), "200"), 30_000);
  await eventually(async () => assert.equal(await progress.getAttribute("data-settled"), "200"), 120_000);
  assert.match(await textOf(dialog.getByTestId("job-count-fail")), new RegExp(`失败\\s*${FAILING}\\b`));
  assert.match(
    await textOf(dialog.getByTestId("job-count-success")),
    new RegExp(`成功\\s*${200 - FAILING}\\b`),
  );
  const failedItems = await get<Page<BatchJobItem>>("batchjob/items", {
    id: firstJob,
    state: "fail",
    size: "50",
  });
  assert.deepEqual(failedItems.records.map((i) => i.productCode).sort(), [...failing].sort());

  // 重试失败: a new job of exactly the failed meters, which the dialog follows.
  await page.getByTestId("job-dialog-retry").click();
  await page.getByTestId("batch-job-confirm-ok").click();
  await eventually(async () => assert.notEqual(await dialog.getAttribute("data-job-id"), firstJob));
  const retryJob = String(await dialog.getAttribute("data-job-id"));
  const retried = await get<BatchJobSummary>("batchjob/detail", { id: retryJob });
  assert.equal(retried.retryOf, firstJob);
  assert.equal(retried.total, FAILING);
  const retriedItems = await get<Page<BatchJobItem>>("batchjob/items", { id: retryJob, size: "50" });
  assert.deepEqual(retriedItems.records.map((i) => i.productCode).sort(), [...failing].sort());

  // The job is on 批量任务 too: the link opens it there, with its meters by state.
  await page.getByTestId("job-dialog-open").click();
  const detail = page.getByTestId("job-detail");
  await detail.waitFor();
  assert.equal(await detail.getAttribute("data-job-id"), retryJob);
  // Its items arrive after the drawer opens: wait for them rather than read an empty table.
  await eventually(async () => {
    const shown = await detail.getByTestId("job-item-meter").allInnerTexts();
    assert.deepEqual(shown.map((s) => s.trim()).sort(), [...failing].sort());
  }, 30_000);
  await expectAccessible(page, "a batch job's detail");
});
