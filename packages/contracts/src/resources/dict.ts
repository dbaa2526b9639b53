import { defineResource, type ResourceDef } from "../resource/types.ts";

/**
 * A dictionary is a root row (parent 0, key -1, value = title) and child rows sharing its code
 * (contract §10.4). System dictionaries are global platform enumerations; business dictionaries are
 * per tenant and editable by the tenant (contract §10.5). Both carry an English label so that
 * selects follow the console's language.
 */
const dictFields = {
  parentId: {
    type: "id",
    default: "0",
    readOnlyOnEdit: true,
    list: false,
    ref: { resource: "dict", label: "dictValue" },
  },
  code: { type: "string", required: true, maxLength: 255, search: "like" },
  dictKey: { type: "string", maxLength: 255, unique: ["code"] },
  dictValue: { type: "string", required: true, maxLength: 255, search: "like" },
  dictValueEn: { type: "string", maxLength: 255 },
  sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
  isSealed: { type: "int", required: true, dict: "yes_no", default: 0 },
  remark: { type: "text", maxLength: 255, list: false, span: 24 },
} as const satisfies ResourceDef["fields"];

export const dict = defineResource({
  name: "dict",
  table: "sys_dict",
  service: "blade-system",
  path: "dict",
  listVerb: "list",
  extraVerbs: ["tree"],
  tenantScoped: false,
  softDelete: true,
  audit: false,
  tree: { parent: "parentId", title: "dictValue", treeIgnores: ["code"] },
  fields: dictFields,
  sort: [{ field: "sort" }, { field: "id" }],
});

export const dictBiz = defineResource({
  name: "dictBiz",
  menuCode: "dictbiz",
  table: "sys_dict_biz",
  service: "blade-system",
  path: "dict-biz",
  listVerb: "list",
  extraVerbs: ["tree"],
  tenantScoped: true,
  tenantStrict: true,
  softDelete: true,
  audit: false,
  tree: { parent: "parentId", title: "dictValue", treeIgnores: ["code"] },
  fields: {
    ...dictFields,
    parentId: { ...dictFields.parentId, ref: { resource: "dictBiz", label: "dictValue" } },
  },
  sort: [{ field: "sort" }, { field: "id" }],
});
