// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template literals
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance, InjectOptions } from "fastify";
import { runDueTimers } from "../src/modules/workflow/timer-runner.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { BASIC, multipartFile, reopenApp, startTestServer, type TestServer } from "./helpers.ts";

const FLOW = "/api/blade-flow";
const LEAVE = "/api/blade-desk/process/leave";
const HOUR = 3_600_000;

/**
 * The chosen reviewer has an hour: untouched, the task escalates to any holder of role `hr`.
 * Either way the instance then cools off two hours before it ends.
 */
const ESCALATING = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" targetNamespace="test">
  <process id="Escalating" name="超时升级" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="toReview" sourceRef="start" targetRef="review"/>
    <userTask id="review" name="审核" flowable:assignee="\${taskUser}"/>
    <boundaryEvent id="late" name="一小时未办" attachedToRef="review">
      <timerEventDefinition><timeDuration xsi:type="tFormalExpression">PT1H</timeDuration></timerEventDefinition>
    </boundaryEvent>
    <sequenceFlow id="toEscalated" sourceRef="late" targetRef="escalated"/>
    <userTask id="escalated" name="上级审核" flowable:candidateGroups="hr"/>
    <sequenceFlow id="reviewed" sourceRef="review" targetRef="cooling"/>
    <sequenceFlow id="escalatedDone" sourceRef="escalated" targetRef="cooling"/>
    <intermediateCatchEvent id="cooling" name="冷静期">
      <timerEventDefinition><timeDuration>PT2H</timeDuration></timerEventDefinition>
    </intermediateCatchEvent>
    <sequenceFlow id="toEnd" sourceRef="cooling" targetRef="end"/>
    <endEvent id="end" name="完成"/>
  </process>
</definitions>`;

/** Escalates to an assignee the instance never names: its timer's step fails every time. */
const BROKEN = ESCALATING.replace('id="Escalating" name="超时升级"', 'id="Broken" name="无人可升级"').replace(
  'flowable:candidateGroups="hr"',
  'flowable:assignee="${nobodyNamed}"',
);

describe("workflow timers: escalation, waits, suspension and restarts", () => {
  let server: TestServer;
  let app: FastifyInstance;
  let restarted: FastifyInstance | undefined;
  let admin: string;
  let tenantA: string;
  let definitionId: string;
  const token: Record<string, string> = {};
  const userId: Record<string, string> = {};

  const call = (method: "GET" | "POST", url: string, who: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: BASIC, "blade-auth": `bearer ${token[who] ?? admin}` },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions["payload"] }),
    });
  const records = async (who: string, url: string) => {
    const res = await call("GET", url, who);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records as Record<string, unknown>[];
  };
  const taskOf = async (who: string, list: "todo-list" | "claim-list", instanceId: string) =>
    (await records(who, `${FLOW}/work/${list}`)).find((r) => r.processInstanceId === instanceId);
  const deploy = async (xml: string) => {
    const file = multipartFile("process.bpmn20.xml", Buffer.from(xml));
    const boundary = file.headers["content-type"].split("boundary=")[1];
    const fields = `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nflow_1\r\n--${boundary}\r\nContent-Disposition: form-data; name="tenantIds"\r\n\r\n${tenantA}\r\n`;
    const deployed = await app.inject({
      method: "POST",
      url: `${FLOW}/manager/deploy-upload`,
      payload: Buffer.concat([Buffer.from(fields), file.payload]),
      headers: { ...file.headers, authorization: BASIC, "blade-auth": `bearer ${admin}` },
    });
    assert.equal(deployed.statusCode, 200, deployed.body);
    return (deployed.json().data as string[])[0]!;
  };
  const start = async (processDefinitionId = definitionId) => {
    const res = await call("POST", `${LEAVE}/start-process`, "staff", {
      startTime: "2026-12-01 09:00:00",
      endTime: "2026-12-02 09:00:00",
      reason: "审核",
      processDefinitionId,
      taskUser: userId.leader,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.processInstanceId as string;
  };
  const timersOf = (instanceId: string) =>
    server.db.query<{ element_id: string; due_time: Date }>(
      "select element_id, due_time from wf_timer where instance_id = $1 order by element_id",
      [instanceId],
    );
  const statusOf = async (instanceId: string) =>
    (
      await server.db.query<{ status: string }>("select status from wf_instance where id = $1", [instanceId])
    )[0]?.status;

  before(async () => {
    server = await startTestServer();
    app = server.app;
    admin = (await server.login()).access_token;
    const a = await provisionTenant(server, admin, "甲物业");
    tenantA = a.tenantId;
    const hr = await addRole(server.db, tenantA, "hr");
    for (const [account, roleIds] of [
      ["staff", [a.roleId]],
      ["leader", [a.roleId]],
      ["hr1", [hr]],
    ] as const) {
      userId[account] = await addUser(server.db, {
        tenantId: tenantA,
        account,
        password: "Secret#2026",
        roleIds: [...roleIds],
      });
      token[account] = (await server.login(account, "Secret#2026", tenantA)).access_token;
    }
    definitionId = await deploy(ESCALATING);
  });
  after(async () => {
    await restarted?.close();
    await server?.close();
  });

  test("an untouched task escalates when its timer is due; a timer event waits; the system's steps are in the history", async () => {
    const before = Date.now();
    const instanceId = await start();
    const review = await taskOf("leader", "todo-list", instanceId);
    assert.equal(review?.taskName, "审核");
    const [late] = await timersOf(instanceId);
    assert.equal(late?.element_id, "late");
    const due = late!.due_time.getTime();
    assert.ok(due >= before + HOUR && due <= Date.now() + HOUR, "due an hour after the task opened");

    // Not yet due: nothing moves.
    assert.equal(await runDueTimers(server.db, new Date(due - 1000)), 0);
    assert.ok(await taskOf("leader", "todo-list", instanceId));

    // Due: two runners at once (as two server processes would) fire it once.
    const fired = await Promise.all([
      runDueTimers(server.db, new Date(due + 1000)),
      runDueTimers(server.db, new Date(due + 1000)),
    ]);
    assert.equal(fired[0]! + fired[1]!, 1);
    assert.equal(await taskOf("leader", "todo-list", instanceId), undefined, "the reviewer's task is gone");
    const escalated = await taskOf("hr1", "claim-list", instanceId);
    assert.equal(escalated?.taskName, "上级审核");
    const [reviewRow] = await server.db.query<{ state: string }>(
      "select state from wf_task where instance_id = $1 and task_key = 'review'",
      [instanceId],
    );
    assert.equal(reviewRow?.state, "cancelled");
    assert.deepEqual(await timersOf(instanceId), []);

    // The escalated task done, the instance waits on its cooling-off timer.
    const taskId = escalated!.taskId as string;
    assert.equal((await call("POST", `${FLOW}/work/claim-task?taskId=${taskId}`, "hr1")).statusCode, 200);
    const completed = await call("POST", `${FLOW}/work/complete-task`, "hr1", { taskId, flag: "ok" });
    assert.equal(completed.statusCode, 200, completed.body);
    const [cooling] = await timersOf(instanceId);
    assert.equal(cooling?.element_id, "cooling");
    assert.equal(await statusOf(instanceId), "running");
    assert.equal(await runDueTimers(server.db, new Date(cooling!.due_time.getTime() - 1000)), 0);
    assert.equal(await runDueTimers(server.db, new Date(cooling!.due_time.getTime() + 1000)), 1);
    assert.equal(await statusOf(instanceId), "finished");
    assert.deepEqual(await timersOf(instanceId), []);

    const history = await call(
      "GET",
      `${FLOW}/process/history-flow-list?processInstanceId=${instanceId}`,
      "staff",
    );
    assert.equal(history.statusCode, 200, history.body);
    const steps = history.json().data as Record<string, string>[];
    assert.deepEqual(
      steps.map((s) => s.historyActivityId),
      ["start", "review", "late", "escalated", "cooling", "end"],
    );
    const timerSteps = steps.filter((s) => s.historyActivityType === "timerEvent");
    assert.equal(timerSteps.length, 2);
    for (const step of timerSteps) {
      assert.equal(step.assignee, "", "no person took a timer's step");
      assert.equal(step.assigneeName, "系统");
      assert.notEqual(step.endTime, "");
    }
  });

  test("a suspended definition neither fires timers nor completes tasks; an instance survives a restart", async () => {
    const instanceId = await start();
    const review = await taskOf("leader", "todo-list", instanceId);
    assert.ok(review);
    const suspend = await call("POST", `${FLOW}/manager/change-state`, "admin", {
      state: "suspend",
      processId: definitionId,
    });
    assert.equal(suspend.statusCode, 200, suspend.body);
    const refused = await call("POST", `${FLOW}/work/complete-task`, "leader", {
      taskId: review.taskId,
      flag: "ok",
    });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /挂起/);
    assert.equal(await runDueTimers(server.db, new Date(Date.now() + 5 * HOUR)), 0);
    assert.ok(await taskOf("leader", "todo-list", instanceId), "still the reviewer's while suspended");

    // A restart: the first server is gone; a new one on the same database continues the instance.
    await server.app.close();
    restarted = await reopenApp(server);
    app = restarted;
    const activate = await call("POST", `${FLOW}/manager/change-state`, "admin", {
      state: "active",
      processId: definitionId,
    });
    assert.equal(activate.statusCode, 200, activate.body);
    const done = await call("POST", `${FLOW}/work/complete-task`, "leader", {
      taskId: review.taskId,
      flag: "ok",
    });
    assert.equal(done.statusCode, 200, done.body);
    // Done in time: the escalation is dropped, the cooling-off timer waits.
    assert.deepEqual(
      (await timersOf(instanceId)).map((t) => t.element_id),
      ["cooling"],
    );
    assert.equal(await taskOf("hr1", "claim-list", instanceId), undefined);
    assert.equal(await runDueTimers(server.db, new Date(Date.now() + 3 * HOUR)), 1);
    assert.equal(await statusOf(instanceId), "finished");
  });

  test("a timer whose step fails is put off with the reason and holds up no other", async () => {
    const brokenId = await start(await deploy(BROKEN));
    const goodId = await start();
    const [broken] = await timersOf(brokenId);
    const [good] = await timersOf(goodId);
    const now = new Date(Math.max(broken!.due_time.getTime(), good!.due_time.getTime()) + 1000);
    const failures: unknown[] = [];
    assert.equal(await runDueTimers(server.db, now, { onError: (e) => failures.push(e) }), 1);
    assert.equal(failures.length, 1);
    assert.equal((await taskOf("hr1", "claim-list", goodId))?.taskName, "上级审核");
    const [kept] = await server.db.query<{ due_time: Date; attempts: number; last_error: string }>(
      "select due_time, attempts, last_error from wf_timer where instance_id = $1",
      [brokenId],
    );
    assert.equal(kept?.attempts, 1);
    assert.match(kept!.last_error, /找不到办理人/);
    assert.equal(kept!.due_time.getTime(), now.getTime() + 10 * 60_000);
    assert.ok(
      await taskOf("leader", "todo-list", brokenId),
      "the untouched task stays until it can escalate",
    );
    assert.equal(await statusOf(brokenId), "running");
  });
});
