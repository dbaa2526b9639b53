// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template literals
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { BASIC, multipartFile, startTestServer, type TestServer } from "./helpers.ts";

const FLOW = "/api/blade-flow";

/** The designer's kind of file: a process with two user tasks, the first for the chosen approver. */
const model = (key: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:flowable="http://flowable.org/bpmn" id="Defs_1" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${key}" name="${name}" isExecutable="true">
    <bpmn:startEvent id="begin"/>
    <bpmn:sequenceFlow id="f1" sourceRef="begin" targetRef="review"/>
    <bpmn:userTask id="review" name="审核" flowable:assignee="\${taskUser}"/>
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="approve"/>
    <bpmn:userTask id="approve" name="批准" flowable:assignee="\${taskUser}"/>
    <bpmn:sequenceFlow id="f3" sourceRef="approve" targetRef="finish"/>
    <bpmn:endEvent id="finish"/>
  </bpmn:process>
</bpmn:definitions>`;

describe("workflow models: designer saves, deploy, diagrams", () => {
  let server: TestServer;
  let admin: string;
  let tenantA: string;
  let tenantB: string;
  const token: Record<string, string> = {};
  const userId: Record<string, string> = {};
  const as = (who: string) => token[who] ?? admin;
  const get = (who: string, url: string) => server.call("GET", url, as(who));
  const post = (who: string, url: string, body?: unknown) => server.call("POST", url, as(who), body ?? {});

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    const a = await provisionTenant(server, admin, "甲物业");
    const b = await provisionTenant(server, admin, "乙物业");
    tenantA = a.tenantId;
    tenantB = b.tenantId;
    // A new tenant's administrator holds 流程管理 and so the model screen (tenant.default.menuCode).
    token.adminA = a.token;
    token.adminB = b.token;
    userId.staff = await addUser(server.db, {
      tenantId: tenantA,
      account: "staff",
      password: "Secret#2026",
      roleIds: [await addRole(server.db, tenantA, "staff")],
    });
    token.staff = (await server.login("staff", "Secret#2026", tenantA)).access_token;
    userId.outsider = await addUser(server.db, {
      tenantId: tenantB,
      account: "outsider",
      password: "Secret#2026",
      roleIds: [await addRole(server.db, tenantB, "staff")],
    });
    token.outsider = (await server.login("outsider", "Secret#2026", tenantB)).access_token;
  });
  after(async () => {
    await server?.close();
  });

  test("the menu and its buttons are seeded under 流程管理", async () => {
    const rows = await server.db.query<{ code: string; parent_id: string; path: string | null }>(
      "select code, parent_id::text, path from sys_menu where id = 1800 or id between 1830 and 1849 order by id",
    );
    assert.deepEqual(
      rows.map((r) => r.code),
      [
        "flow",
        "flow_model",
        "flow_model_create",
        "flow_model_update",
        "flow_model_deploy",
        "flow_model_download",
        "flow_model_delete",
      ],
    );
    assert.equal(rows.find((r) => r.code === "flow_model")?.path, "/flow/model");
  });

  test("submit creates and saves a model; invalid XML is refused with the parser's reason", async () => {
    const bad = await post("adminA", `${FLOW}/model/submit`, { bpmnXml: "<bpmn:definitions" });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.json().msg, /^bpmnXml: 不是有效的 BPMN 文件: ./);
    const noStart = await post("adminA", `${FLOW}/model/submit`, {
      bpmnXml: model("X", "x")
        .replace('<bpmn:startEvent id="begin"/>', "")
        .replace('<bpmn:sequenceFlow id="f1" sourceRef="begin" targetRef="review"/>', ""),
    });
    assert.equal(noStart.statusCode, 400);
    assert.match(noStart.json().msg, /bpmnXml: .*开始事件/);
    assert.equal(
      (await post("adminA", `${FLOW}/model/submit`, {})).json().msg,
      "bpmnXml: 请提供流程图 BPMN XML",
    );
    assert.match(
      (await post("adminA", `${FLOW}/model/submit`, { bpmnXml: model("X", "x"), category: "x" })).json().msg,
      /^category:/,
    );

    const created = await post("adminA", `${FLOW}/model/submit`, { bpmnXml: model("Purchase", "采购审批") });
    assert.equal(created.statusCode, 200, created.body);
    const { id } = created.json().data;
    const saved = await post("adminA", `${FLOW}/model/submit`, {
      id,
      bpmnXml: model("Purchase", "采购审批二"),
      category: "flow_2",
    });
    assert.equal(saved.statusCode, 200, saved.body);
    const detail = (await get("adminA", `${FLOW}/model/detail?id=${id}`)).json().data;
    assert.equal(detail.modelKey, "Purchase");
    assert.equal(detail.name, "采购审批二");
    assert.equal(detail.version, 2);
    assert.equal(detail.category, "flow_2");
    assert.match(detail.bpmnXml, /采购审批二/);

    // One model per key in a tenant; another tenant may use the same key.
    const twin = await post("adminA", `${FLOW}/model/submit`, { bpmnXml: model("Purchase", "again") });
    assert.equal(twin.statusCode, 400);
    assert.match(twin.json().msg, /^bpmnXml: 流程标识 Purchase/);
    assert.equal(
      (await post("adminB", `${FLOW}/model/submit`, { bpmnXml: model("Purchase", "乙的采购") })).statusCode,
      200,
    );

    // Search and paging; each tenant sees its own models, the platform administrator all.
    const page = (await get("adminA", `${FLOW}/model/list?current=1&size=10&name=采购`)).json().data;
    assert.equal(page.total, 1);
    assert.equal(page.records[0].id, id);
    assert.equal(page.records[0].modelType, 0);
    assert.equal((await get("adminA", `${FLOW}/model/list?name=none`)).json().data.total, 0);
    const all = (await get("admin", `${FLOW}/model/list?size=100&name=Purchase`)).json().data;
    assert.equal(all.total, 2);
  });

  test("tenant isolation and permissions on every call by id", async () => {
    const { id } = (
      await post("adminA", `${FLOW}/model/submit`, { bpmnXml: model("Isolated", "隔离") })
    ).json().data;
    assert.equal((await get("adminB", `${FLOW}/model/detail?id=${id}`)).statusCode, 404);
    assert.equal(
      (await post("adminB", `${FLOW}/model/submit`, { id, bpmnXml: model("Isolated", "篡改") })).statusCode,
      404,
    );
    assert.equal((await post("adminB", `${FLOW}/model/deploy`, { modelId: id })).statusCode, 404);
    assert.equal((await post("adminB", `${FLOW}/model/remove?ids=${id}`)).statusCode, 400);
    assert.equal((await get("staff", `${FLOW}/model/list`)).statusCode, 403);
    assert.equal((await post("staff", `${FLOW}/model/remove?ids=${id}`)).statusCode, 403);
    assert.equal((await get("adminA", `${FLOW}/model/detail?id=${id}`)).json().data.name, "隔离");

    assert.equal((await post("adminA", `${FLOW}/model/remove?ids=${id}`)).statusCode, 200);
    assert.equal((await get("adminA", `${FLOW}/model/detail?id=${id}`)).statusCode, 404);
  });

  test("deploy a model to a tenant, start it, and read the instance's diagram", async () => {
    const { id } = (
      await post("admin", `${FLOW}/model/submit`, { bpmnXml: model("TwoSteps", "两步") })
    ).json().data;
    assert.match((await post("admin", `${FLOW}/model/deploy`, { modelId: id })).json().msg, /^category:/);
    assert.equal(
      (
        await post("admin", `${FLOW}/model/deploy`, {
          modelId: id,
          category: "flow_1",
          tenantIds: "999999999",
        })
      ).statusCode,
      400,
    );
    const deployed = await post("admin", `${FLOW}/model/deploy`, {
      modelId: id,
      category: "flow_1",
      tenantIds: tenantA,
    });
    assert.equal(deployed.statusCode, 200, deployed.body);
    const [definitionId] = deployed.json().data as string[];
    assert.match(definitionId!, /^TwoSteps:1:\d+$/);
    const listed = (await get("admin", `${FLOW}/manager/list?size=100`)).json().data.records;
    const row = listed.find((r: { id: string }) => r.id === definitionId);
    assert.equal(row?.tenantId, tenantA);
    assert.equal(row?.category, "flow_1");
    // A tenant's administrator deploys for the own tenant only.
    const { id: modelA } = (
      await post("adminA", `${FLOW}/model/submit`, { bpmnXml: model("OwnFlow", "本租户") })
    ).json().data;
    assert.equal(
      (
        await post("adminA", `${FLOW}/model/deploy`, {
          modelId: modelA,
          category: "flow_1",
          tenantIds: tenantB,
        })
      ).statusCode,
      403,
    );

    const started = await post("staff", "/api/blade-desk/process/leave/start-process", {
      processDefinitionId: definitionId,
      taskUser: userId.staff,
      startTime: "2026-12-01 09:00:00",
      endTime: "2026-12-02 09:00:00",
      reason: "走流程",
    });
    assert.equal(started.statusCode, 200, started.body);
    const { processInstanceId } = started.json().data;
    const first = (await get("staff", `${FLOW}/work/todo-list`)).json().data.records[0];
    assert.equal(first.processInstanceId, processInstanceId);
    assert.equal(
      (
        await post("staff", `${FLOW}/work/complete-task`, {
          taskId: first.taskId,
          flag: "ok",
          comment: "同意",
        })
      ).statusCode,
      200,
    );

    const diagram = await get("staff", `${FLOW}/process/diagram-view?processInstanceId=${processInstanceId}`);
    assert.equal(diagram.statusCode, 200, diagram.body);
    const view = diagram.json().data;
    assert.equal(view.processDefinitionId, definitionId);
    assert.match(view.bpmnXml, /id="TwoSteps"/);
    assert.deepEqual([...view.doneActivityIds].sort(), ["begin", "review"]);
    assert.deepEqual(view.currentActivityIds, ["approve"]);
    assert.equal(view.finished, false);
    // Another tenant's user, and no token at all, see nothing.
    assert.equal(
      (await get("outsider", `${FLOW}/process/diagram-view?processInstanceId=${processInstanceId}`))
        .statusCode,
      404,
    );
    const anonymous = await server.inject({
      method: "GET",
      url: `${FLOW}/process/diagram-view?processInstanceId=${processInstanceId}`,
    });
    assert.equal(anonymous.statusCode, 401);
    assert.equal((await get("staff", `${FLOW}/process/diagram-view`)).statusCode, 400);

    // The platform administrator may narrow the look-up to a tenant: the right one or nothing.
    const viewOf = (tenantId: string) =>
      get(
        "admin",
        `${FLOW}/process/diagram-view?processInstanceId=${processInstanceId}&tenantId=${tenantId}`,
      );
    assert.equal((await viewOf(tenantA)).statusCode, 200);
    assert.equal((await viewOf(tenantB)).statusCode, 404);
    // Anyone else cannot widen it.
    const widened = await get(
      "outsider",
      `${FLOW}/process/diagram-view?processInstanceId=${processInstanceId}&tenantId=${tenantA}`,
    );
    assert.equal(widened.statusCode, 404);

    const xml = await get(
      "staff",
      `${FLOW}/process/resource-view?processDefinitionId=${definitionId}&resourceType=xml`,
    );
    assert.equal(xml.statusCode, 200);
    assert.match(xml.headers["content-type"] as string, /xml/);
    assert.match(xml.body, /id="TwoSteps"/);
    assert.equal(
      (await get("outsider", `${FLOW}/process/resource-view?processDefinitionId=${definitionId}`)).statusCode,
      404,
    );
  });

  test("check-upload reads the file's name and content", async () => {
    const check = async (filename: string, content: string, who = "admin") => {
      const body = multipartFile(filename, Buffer.from(content));
      return server.inject({
        method: "POST",
        url: `${FLOW}/manager/check-upload`,
        payload: body.payload,
        headers: { ...body.headers, authorization: BASIC, "blade-auth": `bearer ${as(who)}` },
      });
    };
    const good = await check("two.bpmn20.xml", model("Checked", "检查"));
    assert.equal(good.statusCode, 200, good.body);
    assert.deepEqual(good.json().data, { name: "two.bpmn20.xml", success: true });
    const named = (await check("two.txt", model("Checked", "检查"))).json();
    assert.equal(named.data.success, false);
    assert.match(named.msg, /^file:/);
    const broken = (await check("two.bpmn", "<definitions")).json();
    assert.equal(broken.data.success, false);
    assert.match(broken.msg, /^file: 不是有效的 BPMN 文件: ./);
    assert.equal((await check("two.bpmn", model("Checked", "检查"), "staff")).statusCode, 403);
    assert.equal(
      (await server.inject({ method: "POST", url: `${FLOW}/manager/check-upload` })).statusCode,
      401,
    );
  });
});
