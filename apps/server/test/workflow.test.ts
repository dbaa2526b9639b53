// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template literals
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance, InjectOptions } from "fastify";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { BASIC, reopenApp, startTestServer, type TestServer } from "./helpers.ts";

const FLOW = "/api/blade-flow";
const LEAVE = "/api/blade-desk/process/leave";

/** A two-step process: the chosen approver, then anyone holding role `checker`. */
const TWO_STEP = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  targetNamespace="test">
  <process id="TwoStep" name="两步审批" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="a" sourceRef="start" targetRef="first"/>
    <userTask id="first" name="第一步" flowable:assignee="\${taskUser}"/>
    <sequenceFlow id="b" sourceRef="first" targetRef="second"/>
    <userTask id="second" name="第二步" flowable:candidateGroups="checker"/>
    <sequenceFlow id="c" sourceRef="second" targetRef="end"/>
    <endEvent id="end" name="完成"/>
  </process>
</definitions>`;

function multipart(files: { name: string; content: string }[], fields: Record<string, string>) {
  const boundary = "----meterline-flow";
  const parts: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  for (const file of files) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\n` +
        `Content-Type: application/xml\r\n\r\n${file.content}\r\n`,
    );
  }
  return {
    payload: Buffer.from(`${parts.join("")}--${boundary}--\r\n`),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

describe("workflow: deployments, work lists and the leave process", () => {
  let server: TestServer;
  let admin: string;
  let tenantA: string;
  let tenantB: string;
  const token: Record<string, string> = {};
  const userId: Record<string, string> = {};

  /** The server answering now: replaced when a test restarts it. */
  let app: FastifyInstance;
  let restarted: FastifyInstance | undefined;
  const call = (method: "GET" | "POST", url: string, who: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: BASIC, "blade-auth": `bearer ${token[who] ?? admin}` },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions["payload"] }),
    });
  const get = (who: string, url: string) => call("GET", url, who);
  const post = (who: string, url: string, body?: unknown) => call("POST", url, who, body);
  const records = async (who: string, url: string) => {
    const res = await get(who, url);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records as Record<string, unknown>[];
  };
  const upload = (
    who: string,
    files: { name: string; content: string }[],
    fields: Record<string, string>,
  ) => {
    const body = multipart(files, fields);
    return app.inject({
      method: "POST",
      url: `${FLOW}/manager/deploy-upload`,
      payload: body.payload,
      headers: { ...body.headers, authorization: BASIC, "blade-auth": `bearer ${token[who] ?? admin}` },
    });
  };
  const startLeave = (who: string, body: Record<string, unknown>) =>
    post(who, `${LEAVE}/start-process`, { startTime: "2026-12-01 09:00:00", reason: "探亲", ...body });
  const taskOf = async (who: string, list: "todo-list" | "claim-list", instanceId: string) =>
    (await records(who, `${FLOW}/work/${list}`)).find((r) => r.processInstanceId === instanceId);

  before(async () => {
    server = await startTestServer();
    app = server.app;
    admin = (await server.login()).access_token;
    const a = await provisionTenant(server, admin, "甲物业");
    const b = await provisionTenant(server, admin, "乙物业");
    tenantA = a.tenantId;
    tenantB = b.tenantId;
    token.adminA = a.token;
    const managerA = await addRole(server.db, tenantA, "manager");
    const hrA = await addRole(server.db, tenantA, "hr");
    const checkerA = await addRole(server.db, tenantA, "checker");
    const hrB = await addRole(server.db, tenantB, "hr");
    // An employee without the tenant administrator's role (which holds 流程管理 since seed 035).
    const staffA = await addRole(server.db, tenantA, "staff");
    const people: [string, string, string[]][] = [
      ["staff", tenantA, [staffA]],
      ["leader", tenantA, [managerA]],
      ["hr1", tenantA, [hrA, checkerA]],
      ["hr2", tenantA, [hrA]],
      ["outsider", tenantB, [hrB]],
    ];
    for (const [account, tenantId, roleIds] of people) {
      userId[account] = await addUser(server.db, { tenantId, account, password: "Secret#2026", roleIds });
      await server.db.query("update sys_user set dept_id = $2 where id = $1", [
        userId[account],
        tenantId === tenantA ? a.deptId : b.deptId,
      ]);
      token[account] = (await server.login(account, "Secret#2026", tenantId)).access_token;
    }
  });
  after(async () => {
    await restarted?.close();
    await server?.close();
  });

  test("the leave process is shipped and startable by every tenant", async () => {
    // Its category's route (spec §3 flow route entry) is the dictionary item's remark.
    const routes = await server.db.query<{ dict_key: string; remark: string }>(
      "select dict_key, remark from sys_dict where code = 'flow' and parent_id > 0 order by dict_key",
    );
    assert.deepEqual(
      routes.map((r) => [r.dict_key, r.remark]),
      [
        ["1", "leave"],
        ["2", "expense"],
        // The money approval's pages (seed 048): every shipped process has a form page.
        ["3", "money"],
      ],
    );
    for (const who of ["staff", "outsider"]) {
      const rows = await records(who, `${FLOW}/work/start-list`);
      const leave = rows.find((r) => r.key === "Leave");
      assert.ok(leave, `${who} sees the leave process`);
      assert.equal(leave.category, "flow_1");
      assert.equal(leave.categoryName, "请假流程");
      assert.equal(leave.suspensionState, 1);
    }
  });

  test("a long leave: the department leader claims and passes, two HR claim at once, one rejects", async () => {
    const started = await startLeave("staff", { endTime: "2026-12-06 09:00:00" });
    assert.equal(started.statusCode, 200, started.body);
    const { leaveId, processInstanceId } = started.json().data;

    // The starter's department leader is a candidate; the other tenant sees nothing.
    assert.equal(await taskOf("hr1", "claim-list", processInstanceId), undefined);
    assert.equal(await taskOf("outsider", "claim-list", processInstanceId), undefined);
    const leaderTask = await taskOf("leader", "claim-list", processInstanceId);
    assert.ok(leaderTask);
    assert.equal(leaderTask.taskName, "部门审批");
    assert.equal(leaderTask.businessTable, "blade_process_leave");
    assert.equal(leaderTask.businessId, leaveId);
    assert.equal(leaderTask.status, "claim");
    const taskId = leaderTask.taskId as string;

    // Not claimed yet: completing is refused; another tenant cannot claim or complete it.
    assert.equal(
      (await post("leader", `${FLOW}/work/complete-task`, { taskId, flag: "ok", comment: "同意" }))
        .statusCode,
      400,
    );
    assert.equal((await post("outsider", `${FLOW}/work/claim-task?taskId=${taskId}`)).statusCode, 404);
    assert.equal((await post("hr1", `${FLOW}/work/claim-task?taskId=${taskId}`)).statusCode, 403);
    assert.equal(
      (await post("leader", `${FLOW}/work/claim-task?taskId=${taskId}`)).json().msg,
      "签收事务成功",
    );
    const todo = await taskOf("leader", "todo-list", processInstanceId);
    assert.equal(todo?.assignee, `taskUser_${userId.leader}`);
    assert.notEqual(todo?.claimTime, "");
    assert.equal(
      (await post("outsider", `${FLOW}/work/complete-task`, { taskId, flag: "ok" })).statusCode,
      404,
    );
    assert.equal((await post("staff", `${FLOW}/work/complete-task`, { taskId, flag: "ok" })).statusCode, 403);
    const passed = await post("leader", `${FLOW}/work/complete-task`, {
      taskId,
      flag: "ok",
      comment: "准假",
    });
    assert.equal(passed.statusCode, 200, passed.body);
    const again = await post("leader", `${FLOW}/work/complete-task`, { taskId, flag: "ok", comment: "准假" });
    assert.equal(again.statusCode, 409);

    // Five days: HR's turn. Both HR users see it; two claims at once, one wins.
    const hrTask = await taskOf("hr1", "claim-list", processInstanceId);
    assert.equal(hrTask?.taskName, "人事审批");
    assert.ok(await taskOf("hr2", "claim-list", processInstanceId));
    const hrTaskId = hrTask!.taskId as string;
    const claims = await Promise.all(
      ["hr1", "hr2"].map((who) => post(who, `${FLOW}/work/claim-task?taskId=${hrTaskId}`)),
    );
    const codes = claims.map((c) => c.statusCode).sort();
    assert.deepEqual(codes, [200, 409]);
    const loser = claims.find((c) => c.statusCode === 409)!;
    assert.match(loser.json().msg, /已被他人签收/);
    const winner = claims[0]!.statusCode === 200 ? "hr1" : "hr2";
    const other = winner === "hr1" ? "hr2" : "hr1";
    assert.equal(await taskOf(other, "claim-list", processInstanceId), undefined);
    const rejected = await post(winner, `${FLOW}/work/complete-task`, {
      taskId: hrTaskId,
      comment: "年底人手不足",
    });
    assert.equal(rejected.statusCode, 200, rejected.body);

    const sent = (await records("staff", `${FLOW}/work/send-list`)).find(
      (r) => r.processInstanceId === processInstanceId,
    );
    assert.equal(sent?.processIsFinished, "finished");
    const doneRow = (await records(winner, `${FLOW}/work/done-list`)).find((r) => r.taskId === hrTaskId);
    assert.equal(doneRow?.comment, "年底人手不足");
    assert.equal(doneRow?.pass, false);

    const history = await get(
      "staff",
      `${FLOW}/process/history-flow-list?processInstanceId=${processInstanceId}`,
    );
    const steps = history.json().data as Record<string, string>[];
    assert.deepEqual(
      steps.map((s) => [s.historyActivityId, s.assignee, s.comment]),
      [
        ["start", `taskUser_${userId.staff}`, ""],
        ["leaderTask", `taskUser_${userId.leader}`, "准假"],
        ["hrTask", `taskUser_${userId[winner]}`, "年底人手不足"],
        ["rejectedEnd", "", ""],
      ],
    );
    assert.equal(
      (
        await get("outsider", `${FLOW}/process/history-flow-list?processInstanceId=${processInstanceId}`)
      ).json().data.length ?? 0,
      0,
    );

    const detail = await get("staff", `${LEAVE}/detail?businessId=${leaveId}`);
    assert.equal(detail.json().data.days, 5);
    assert.equal(detail.json().data.flow.assigneeName, "staff");
    assert.equal((await get("outsider", `${LEAVE}/detail?businessId=${leaveId}`)).statusCode, 404);
  });

  test("a short leave to a chosen approver ends after one approval", async () => {
    const started = await startLeave("staff", { endTime: "2026-12-02 18:00:00", taskUser: userId.hr2 });
    assert.equal(started.statusCode, 200, started.body);
    const { processInstanceId } = started.json().data;
    const task = await taskOf("hr2", "todo-list", processInstanceId);
    assert.ok(task, "a chosen approver gets a todo without claiming");
    // The same approval sent twice at once (a double click, two servers): one step is taken.
    const both = await Promise.all(
      [1, 2].map(() =>
        post("hr2", `${FLOW}/work/complete-task`, { taskId: task.taskId, flag: "ok", comment: "同意" }),
      ),
    );
    assert.deepEqual(both.map((r) => r.statusCode).sort(), [200, 409]);
    const sent = (await records("staff", `${FLOW}/work/send-list`)).find(
      (r) => r.processInstanceId === processInstanceId,
    );
    assert.equal(sent?.processIsFinished, "finished");
    const steps = (
      await get("staff", `${FLOW}/process/history-flow-list?processInstanceId=${processInstanceId}`)
    ).json().data as Record<string, string>[];
    assert.deepEqual(
      steps.map((s) => s.historyActivityId),
      ["start", "leaderTask", "approvedEnd"],
    );
    // An approver from another tenant is nobody here.
    assert.equal(
      (await startLeave("staff", { endTime: "2026-12-02 18:00:00", taskUser: userId.outsider })).statusCode,
      400,
    );
  });

  test("deploy-upload: files checked by the parser, deployed to the chosen tenant only", async () => {
    const bad = await upload("admin", [{ name: "broken.bpmn20.xml", content: "<definitions><process" }], {
      category: "flow_1",
      tenantIds: tenantA,
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.json().msg, /^files: broken\.bpmn20\.xml 不是有效的 BPMN 文件: /);
    const badCondition = TWO_STEP.replace(
      '<sequenceFlow id="b" sourceRef="first" targetRef="second"/>',
      '<sequenceFlow id="b" sourceRef="first" targetRef="second"><conditionExpression>${a >>> 1}</conditionExpression></sequenceFlow>',
    );
    assert.equal(
      (await upload("admin", [{ name: "c.bpmn", content: badCondition }], { category: "flow_1" })).statusCode,
      400,
    );
    const wrongName = await upload("admin", [{ name: "two.txt", content: TWO_STEP }], { category: "flow_1" });
    assert.equal(wrongName.statusCode, 400, wrongName.body);
    assert.equal(
      (await upload("admin", [{ name: "two.bpmn", content: TWO_STEP }], { category: "x" })).statusCode,
      400,
    );
    const huge = await upload("admin", [{ name: "big.bpmn", content: TWO_STEP + " ".repeat(1024 * 1024) }], {
      category: "flow_1",
    });
    assert.equal(huge.statusCode, 400, huge.body);
    // A tenant user cannot deploy; a tenant admin cannot deploy to another tenant.
    assert.equal(
      (await upload("staff", [{ name: "two.bpmn", content: TWO_STEP }], { category: "flow_1" })).statusCode,
      403,
    );
    assert.equal(
      (
        await upload("adminA", [{ name: "two.bpmn", content: TWO_STEP }], {
          category: "flow_1",
          tenantIds: tenantB,
        })
      ).statusCode,
      403,
    );

    const ok = await upload("admin", [{ name: "two.bpmn20.xml", content: TWO_STEP }], {
      category: "flow_1",
      tenantIds: tenantA,
    });
    assert.equal(ok.statusCode, 200, ok.body);
    const [definitionId] = ok.json().data as string[];
    assert.match(definitionId!, /^TwoStep:1:\d+$/);
    assert.ok((await records("staff", `${FLOW}/work/start-list?mode=2`)).some((r) => r.id === definitionId));
    assert.ok(!(await records("outsider", `${FLOW}/work/start-list`)).some((r) => r.key === "TwoStep"));
    const foreign = await startLeave("outsider", {
      endTime: "2026-12-02 09:00:00",
      processDefinitionId: definitionId,
      taskUser: userId.outsider,
    });
    assert.equal(foreign.statusCode, 404);
  });

  test("suspend and resume, restart mid-instance, delete with and without running instances", async () => {
    const deployed = await upload("admin", [{ name: "two.bpmn", content: TWO_STEP }], {
      category: "flow_1",
      tenantIds: tenantA,
    });
    const [definitionId] = deployed.json().data as string[];
    const started = await startLeave("staff", {
      endTime: "2026-12-02 09:00:00",
      processDefinitionId: definitionId,
      taskUser: userId.leader,
    });
    assert.equal(started.statusCode, 200, started.body);
    const { processInstanceId } = started.json().data;
    const first = await taskOf("leader", "todo-list", processInstanceId);
    assert.equal(first?.taskName, "第一步");

    const suspend = await post("admin", `${FLOW}/manager/change-state`, {
      state: "suspend",
      processId: definitionId,
    });
    assert.equal(suspend.json().msg, `挂起ID为 [${definitionId}] 的流程成功`);
    const twice = await post("admin", `${FLOW}/manager/change-state`, {
      state: "suspend",
      processId: definitionId,
    });
    assert.equal(twice.json().msg, `ID为 [${definitionId}] 的流程已是此状态，无需操作`);
    const refused = await post("leader", `${FLOW}/work/complete-task`, { taskId: first!.taskId, flag: "ok" });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /挂起/);
    assert.equal(
      (
        await startLeave("staff", {
          endTime: "2026-12-02 09:00:00",
          processDefinitionId: definitionId,
          taskUser: userId.leader,
        })
      ).statusCode,
      400,
    );
    assert.ok(!(await records("staff", `${FLOW}/work/start-list`)).some((r) => r.id === definitionId));
    // Another tenant's administrator cannot touch the common definitions.
    const leaveId = (await records("staff", `${FLOW}/work/start-list`)).find((r) => r.key === "Leave")!.id;
    const foreignState = await post("adminA", `${FLOW}/manager/change-state`, {
      state: "suspend",
      processId: leaveId,
    });
    assert.ok([403, 404].includes(foreignState.statusCode), foreignState.body);
    const activate = await post("admin", `${FLOW}/manager/change-state`, {
      state: "active",
      processId: definitionId,
    });
    assert.equal(activate.json().msg, `激活ID为 [${definitionId}] 的流程成功`);

    // A restart: the first server is gone, a new one on the same database takes the next step.
    await server.app.close();
    restarted = await reopenApp(server);
    app = restarted;
    const afterRestart = await post("leader", `${FLOW}/work/complete-task`, {
      taskId: first!.taskId,
      flag: "ok",
    });
    assert.equal(afterRestart.statusCode, 200, afterRestart.body);
    const second = await taskOf("hr1", "claim-list", processInstanceId);
    assert.equal(second?.taskName, "第二步");
    assert.equal(await taskOf("hr2", "claim-list", processInstanceId), undefined, "hr2 lacks role checker");

    const follow = await records("admin", `${FLOW}/follow/list?processDefinitionKey=TwoStep`);
    assert.ok(
      follow.some((r) => r.processInstanceId === processInstanceId && r.taskDefinitionKey === "second"),
    );
    assert.equal(
      (
        await post("outsider", `${FLOW}/follow/delete-process-instance`, {
          processInstanceId,
          deleteReason: "x",
        })
      ).statusCode,
      403,
    );

    const deploymentId = definitionId!.split(":")[2];
    const busy = await post("admin", `${FLOW}/manager/delete-deployment?deploymentIds=${deploymentId}`);
    assert.equal(busy.statusCode, 409);
    assert.match(busy.json().msg, /运行中的流程实例/);
    // The tenant's administrator manages the tenant's deployments: refused alike while instances run.
    assert.equal(
      (await post("adminA", `${FLOW}/manager/delete-deployment?deploymentIds=${deploymentId}`)).statusCode,
      409,
    );
    assert.equal(
      (await post("staff", `${FLOW}/manager/delete-deployment?deploymentIds=${deploymentId}`)).statusCode,
      403,
    );
    const cascade = await post(
      "admin",
      `${FLOW}/manager/delete-deployment?deploymentIds=${deploymentId}&cascade=true`,
    );
    assert.equal(cascade.statusCode, 200, cascade.body);
    assert.equal(await taskOf("hr1", "claim-list", processInstanceId), undefined);

    // Without running instances a deployment goes without asking.
    const idle = await upload("admin", [{ name: "two.bpmn", content: TWO_STEP }], {
      category: "flow_1",
      tenantIds: tenantA,
    });
    const idleDeployment = (idle.json().data[0] as string).split(":")[2];
    assert.equal(
      (await post("admin", `${FLOW}/manager/delete-deployment?deploymentIds=${idleDeployment}`)).statusCode,
      200,
    );
    const listed = await records("admin", `${FLOW}/manager/list?size=100`);
    assert.ok(!listed.some((r) => r.deploymentId === idleDeployment));
  });

  test("follow: a running leave is ended with a reason and leaves every work list", async () => {
    const started = await startLeave("staff", { endTime: "2026-12-03 09:00:00", taskUser: userId.hr1 });
    const { processInstanceId } = started.json().data;
    assert.ok(await taskOf("hr1", "todo-list", processInstanceId));
    const noReason = await post("admin", `${FLOW}/follow/delete-process-instance`, { processInstanceId });
    assert.equal(noReason.statusCode, 400);
    const ended = await post("admin", `${FLOW}/follow/delete-process-instance`, {
      processInstanceId,
      deleteReason: "重复申请",
    });
    assert.equal(ended.statusCode, 200, ended.body);
    assert.equal(await taskOf("hr1", "todo-list", processInstanceId), undefined);
    const again = await post("admin", `${FLOW}/follow/delete-process-instance`, {
      processInstanceId,
      deleteReason: "重复申请",
    });
    assert.equal(again.statusCode, 409);
    const steps = (
      await get("staff", `${FLOW}/process/history-flow-list?processInstanceId=${processInstanceId}`)
    ).json().data as Record<string, string>[];
    assert.equal(steps.at(-1)?.comment, "重复申请");
  });

  test("bad input answers 400 naming the field", async () => {
    assert.equal(
      (await startLeave("staff", { endTime: "2026-11-30 09:00:00", taskUser: userId.hr1 })).statusCode,
      400,
    );
    assert.equal((await startLeave("staff", { endTime: "tomorrow", taskUser: userId.hr1 })).statusCode, 400);
    assert.equal((await get("staff", `${FLOW}/work/todo-list?category=drop`)).statusCode, 400);
    const vars = await post("staff", `${FLOW}/work/complete-task`, { taskId: "1", variables: { "a b": 1 } });
    assert.equal(vars.statusCode, 400);
    assert.match(vars.json().msg, /^variables\./);
    assert.equal((await post("staff", `${FLOW}/work/complete-task`, { taskId: "1" })).statusCode, 404);
  });
});
