import { defineResource } from "../resource/types.ts";

/** System parameters (spec §2 system parameter screen, contract §10.6). Global. */
export const param = defineResource({
  name: "param",
  table: "sys_param",
  service: "blade-system",
  path: "param",
  listVerb: "list",
  tenantScoped: false,
  softDelete: true,
  audit: true,
  fields: {
    paramName: { type: "string", required: true, maxLength: 255, search: "like", span: 24 },
    paramKey: { type: "string", required: true, maxLength: 255, search: "like", unique: true, span: 24 },
    paramValue: { type: "text", required: true, maxLength: 255, span: 24 },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
  sort: [{ field: "id" }],
});

/** Posts (contract §10.3). Per tenant. */
export const post = defineResource({
  name: "post",
  table: "sys_post",
  service: "blade-system",
  path: "post",
  listVerb: "list",
  extraVerbs: ["select"],
  tenantScoped: true,
  softDelete: true,
  audit: true,
  fields: {
    category: { type: "int", required: true, dict: "post_category", search: "equal" },
    postCode: { type: "string", required: true, maxLength: 12, search: "like", unique: true },
    postName: { type: "string", required: true, maxLength: 64, search: "like" },
    sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
  sort: [{ field: "sort" }, { field: "id" }],
});
