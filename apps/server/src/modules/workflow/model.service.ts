import { badRequest, notFound } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { BpmnInvalid, parseBpmn } from "./bpmn-parse.ts";
import { deploy, type ManagerScope } from "./deployment.service.ts";
import { insertModel, modelIdOfKey, readModel, updateModel } from "./model.repository.ts";

/** A designer's save: the XML is the truth of the model's key; name and description default from it. */
export interface ModelInput {
  id?: string;
  bpmnXml: string;
  name?: string;
  category?: string;
  description?: string;
}

/** The same bound as an uploaded file: a model is deployed as one. */
export const MAX_MODEL_BYTES = 1024 * 1024;

export const CATEGORY = /^flow_\d{1,9}$/;

async function readXml(xml: string) {
  if (Buffer.byteLength(xml, "utf8") > MAX_MODEL_BYTES)
    throw badRequest(`bpmnXml: 不能超过 ${MAX_MODEL_BYTES / 1024}KB`);
  try {
    return await parseBpmn(xml);
  } catch (error) {
    if (error instanceof BpmnInvalid) throw badRequest(`bpmnXml: 不是有效的 BPMN 文件: ${error.message}`);
    throw error;
  }
}

/**
 * Creates a model in the caller's tenant or saves over one the caller may edit. Refused: XML the
 * parser rejects (its reason), and a process key another model of the same tenant already holds.
 * Returns the model id.
 */
export async function submitModel(
  tx: Queryable,
  scope: ManagerScope,
  caller: { tenantId: string; userId: string | null },
  input: ModelInput,
): Promise<string> {
  const process = await readXml(input.bpmnXml);
  if (input.category !== undefined && input.category !== "" && !CATEGORY.test(input.category))
    throw badRequest("category: 流程类型无效");
  const name = (input.name ?? process.name).trim();
  if (!name || name.length > 255) throw badRequest("name: 请填写模型名称, 不超过255字");
  const description = input.description ?? process.description;
  if (description.length > 1000) throw badRequest("description: 长度不能超过1000");
  const existing = input.id ? await readModel(tx, scope, input.id, true) : undefined;
  if (input.id && !existing) throw notFound("id: 模型不存在");
  const tenantId = existing?.tenant_id ?? caller.tenantId;
  // Two saves of one key at once: the second waits and then sees the first's row.
  await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`wf-model:${tenantId}:${process.key}`]);
  const holder = await modelIdOfKey(tx, tenantId, process.key);
  if (holder && holder !== existing?.id)
    throw badRequest(`bpmnXml: 流程标识 ${process.key} 已被另一个模型使用`);
  const write = {
    key: process.key,
    name,
    category: input.category ?? existing?.category ?? "",
    description,
    xml: input.bpmnXml,
    userId: caller.userId,
  };
  if (existing) {
    await updateModel(tx, existing.id, write);
    return existing.id;
  }
  const id = nextId();
  await insertModel(tx, id, tenantId, write);
  return id;
}

/**
 * Deploys a model's XML as a deployment of each chosen tenant ('' = common) through the
 * deployment service, under the category asked or the model's own. Returns the definition ids.
 */
export async function deployModel(
  tx: Queryable,
  scope: ManagerScope,
  input: { modelId: string; category?: string; tenantIds: string[]; userId: string | null },
): Promise<string[]> {
  const model = await readModel(tx, scope, input.modelId);
  if (!model) throw notFound("modelId: 部署失败,未找到流程");
  const category = input.category || model.category;
  if (!CATEGORY.test(category)) throw badRequest("category: 请选择流程类型");
  return deploy(tx, {
    tenantIds: input.tenantIds,
    category,
    files: [{ name: `${model.model_key}.bpmn20.xml`, xml: model.bpmn_xml }],
    userId: input.userId,
  });
}
