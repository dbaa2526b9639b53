import type { FastifyInstance } from "fastify";
import { done, ok, page } from "../../contract/envelope.ts";
import { badParam, badRequest, notFound } from "../../contract/errors.ts";
import {
  idList,
  optionalId,
  optionalString,
  paging,
  readParams,
  requiredString,
} from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";
import { BpmnInvalid, parseBpmn } from "./bpmn-parse.ts";
import { deployTenants } from "./deploy-tenants.ts";
import type { ManagerScope } from "./deployment.service.ts";
import { definitionXml, instanceDiagram } from "./diagram.service.ts";
import { flowTime } from "./flow-items.ts";
import { requireInstanceReader } from "./instance-readers.ts";
import { deleteModels, type ModelRow, modelPage, readModel } from "./model.repository.ts";
import { CATEGORY, deployModel, submitModel } from "./model.service.ts";

const BASE = "/api/blade-flow";
const tags = ["workflow"];

const scopeOf = (user: CurrentUser): ManagerScope =>
  isAdministrator(user) ? { all: true } : { all: false, tenantId: user.tenantId };

/** A model row as the family's model list names its columns (contract §13.4), plus its category. */
function modelItem(row: ModelRow, timeZone: string) {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    modelKey: row.model_key,
    category: row.category,
    description: row.description,
    version: row.version,
    created: flowTime(row.create_time, timeZone),
    createdBy: row.create_user_name ?? "",
    lastUpdated: flowTime(row.update_time, timeZone),
    lastUpdatedBy: row.update_user_name ?? "",
    // The family's Flowable columns: a model here is BPMN XML, never editor JSON or a thumbnail.
    modelType: 0,
    modelEditorJson: "",
    modelComment: "",
    thumbnail: "",
  };
}

/**
 * Process models (contract §13.4 model/*, with submit and detail for the console's designer) and
 * the diagram calls of §13.3, which the family leaves public: here they need a signed-in caller
 * and answer only within the caller's tenant (the platform administrator's: any).
 */
export async function modelRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(`${BASE}/model/list`, { schema: { tags, summary: "Process models" } }, async (request) => {
    const caller = await requirePermission(db, request, ["flow_model"], "admin");
    const params = readParams(request);
    const paged = paging(params);
    const search = optionalString(params, "name")?.trim() || optionalString(params, "modelKey")?.trim();
    if (search && search.length > 100) throw badRequest("name: 长度不能超过100");
    const category = optionalString(params, "category");
    if (category && !CATEGORY.test(category)) throw badParam("category");
    const { rows, total } = await modelPage(
      db,
      scopeOf(caller),
      { ...(search ? { search } : {}), ...(category ? { category } : {}) },
      paged,
    );
    return ok(
      page(
        rows.map((r) => modelItem(r, timeZone)),
        total,
        paged.current,
        paged.size,
      ),
    );
  });

  app.get(
    `${BASE}/model/detail`,
    { schema: { tags, summary: "A model with its BPMN XML" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["flow_model"], "admin");
      const id = optionalId(readParams(request), "id");
      if (!id) throw badRequest("id: 请选择模型");
      const row = await readModel(db, scopeOf(caller), id);
      if (!row) throw notFound("id: 模型不存在");
      return ok({ ...modelItem(row, timeZone), bpmnXml: row.bpmn_xml });
    },
  );

  app.post(
    `${BASE}/model/submit`,
    { schema: { tags, summary: "Create a model or save its BPMN XML" } },
    async (request) => {
      const params = readParams(request);
      const id = optionalId(params, "id");
      const caller = await requirePermission(
        db,
        request,
        [id ? "flow_model_update" : "flow_model_create"],
        "admin",
      );
      const bpmnXml = optionalString(params, "bpmnXml");
      if (!bpmnXml?.trim()) throw badRequest("bpmnXml: 请提供流程图 BPMN XML");
      const name = optionalString(params, "name");
      const category = optionalString(params, "category");
      const description = optionalString(params, "description");
      const saved = await db.transaction((tx) =>
        submitModel(
          tx,
          scopeOf(caller),
          { tenantId: caller.tenantId, userId: caller.userId || null },
          {
            bpmnXml,
            ...(id ? { id } : {}),
            ...(name !== undefined ? { name } : {}),
            ...(category !== undefined ? { category } : {}),
            ...(description !== undefined ? { description } : {}),
          },
        ),
      );
      return ok({ id: saved }, "保存成功");
    },
  );

  app.post(`${BASE}/model/remove`, { schema: { tags, summary: "Remove models (ids)" } }, async (request) => {
    const caller = await requirePermission(db, request, ["flow_model_delete"], "admin");
    const ids = idList(readParams(request), "ids");
    if (ids.length > 100) throw badRequest("ids: 一次最多 100 个");
    const removed = await db.transaction((tx) => deleteModels(tx, scopeOf(caller), ids));
    if (removed === 0) throw badRequest("ids: 模型不存在");
    return done("删除成功");
  });

  app.post(
    `${BASE}/model/deploy`,
    { schema: { tags, summary: "Deploy a model to chosen tenants (none = common)" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["flow_model_deploy"], "admin");
      const params = readParams(request);
      const modelId = optionalId(params, "modelId");
      if (!modelId) throw badRequest("modelId: 请选择模型");
      const category = optionalString(params, "category");
      if (category && !CATEGORY.test(category)) throw badRequest("category: 请选择流程类型");
      const tenantIds = await deployTenants(db, caller, optionalString(params, "tenantIds"));
      const ids = await db.transaction((tx) =>
        deployModel(tx, scopeOf(caller), {
          modelId,
          ...(category ? { category } : {}),
          tenantIds,
          userId: caller.userId || null,
        }),
      );
      return ok(ids, "部署成功");
    },
  );

  app.post(
    `${BASE}/manager/check-upload`,
    { schema: { tags, summary: "Check one BPMN file before deploying it (multipart file)" } },
    async (request) => {
      await requirePermission(db, request, ["flow_deploy", "flow_manager"], "admin");
      if (!request.isMultipart()) throw badRequest("file: 请以 multipart/form-data 上传流程文件");
      let part: Awaited<ReturnType<typeof request.file>>;
      let xml: string;
      try {
        part = await request.file();
        xml = part ? (await part.toBuffer()).toString("utf8") : "";
      } catch (error) {
        // The multipart reader's bounds (the same as deploy-upload's) are the caller's to respect.
        const code = (error as { code?: unknown }).code;
        if (typeof code === "string" && code.startsWith("FST_")) throw badRequest("file: 文件过大");
        throw error;
      }
      if (!part) throw badRequest("file: 请选择流程文件");
      const name = part.filename.slice(0, 255);
      // The family checks the name only; the content is read too, so a bad file is told now.
      if (!/\.(bpmn|bpmn20\.xml)$/i.test(name))
        return ok({ name, success: false }, "file: 不是 .bpmn 或 .bpmn20.xml 文件");
      try {
        await parseBpmn(xml);
      } catch (error) {
        if (error instanceof BpmnInvalid)
          return ok({ name, success: false }, `file: 不是有效的 BPMN 文件: ${error.message}`);
        throw error;
      }
      return ok({ name, success: true });
    },
  );

  app.get(
    `${BASE}/process/diagram-view`,
    { schema: { tags, summary: "An instance's diagram: BPMN XML with done and current node ids" } },
    async (request) => {
      const caller = await requirePermission(db, request, []);
      const params = readParams(request);
      const instanceId = optionalId(params, "processInstanceId");
      if (!instanceId) throw badRequest("processInstanceId: 请选择流程实例");
      // Only the platform administrator may name another tenant; everyone else reads the own.
      const asked = optionalString(params, "tenantId");
      if (asked !== undefined && !/^\d{6,12}$/.test(asked)) throw badParam("tenantId");
      const tenantId = isAdministrator(caller) ? (asked ?? null) : caller.tenantId;
      await requireInstanceReader(db, caller, instanceId);
      return ok(await instanceDiagram(db, tenantId, instanceId));
    },
  );

  app.get(
    `${BASE}/process/resource-view`,
    { schema: { tags, summary: "A definition's BPMN XML" } },
    async (request, reply) => {
      const caller = await requirePermission(db, request, []);
      const params = readParams(request);
      const definitionId = requiredString(params, "processDefinitionId");
      if (definitionId.length > 200) throw badParam("processDefinitionId");
      // The family draws a PNG by default; the console here renders the XML itself.
      const type = optionalString(params, "resourceType") ?? "xml";
      if (type !== "xml") throw badRequest("resourceType: 仅提供 xml");
      const row = await definitionXml(db, isAdministrator(caller) ? null : caller.tenantId, definitionId);
      return reply
        .type("application/xml; charset=utf-8")
        .header("content-disposition", `inline; filename="${encodeURIComponent(row.resource_name)}"`)
        .send(row.bpmn_xml);
    },
  );
}
