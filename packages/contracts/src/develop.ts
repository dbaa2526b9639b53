import { defineResource } from "./resource/types.ts";

/**
 * The 数据源 and 代码生成 screens (contract §14). Their routes are the develop module's (allow list,
 * encryption, the generator), not the generic engine's, so these definitions describe the screens
 * only and are not among the plain resources the server registers.
 */
export const datasourceScreen = defineResource({
  name: "datasource",
  table: "blade_datasource",
  service: "blade-develop",
  path: "datasource",
  listVerb: "list",
  tenantScoped: false,
  softDelete: true,
  audit: false,
  guard: "administrator",
  fields: {
    name: { type: "string", required: true, maxLength: 100, search: "equal" },
    url: { type: "string", maxLength: 500, span: 24, width: 320 },
    username: { type: "string", maxLength: 50 },
    password: { type: "string", maxLength: 50, encrypted: true, list: false },
    remark: { type: "string", maxLength: 255, span: 24 },
  },
});

export const codeScreen = defineResource({
  name: "code",
  table: "blade_code",
  service: "blade-develop",
  path: "code",
  listVerb: "list",
  tenantScoped: false,
  softDelete: true,
  audit: false,
  guard: "administrator",
  fields: {
    codeName: { type: "string", required: true, maxLength: 64, search: "like" },
    codeNameEn: { type: "string", maxLength: 64, list: false },
    datasourceId: { type: "id", required: true, list: false },
    tableName: { type: "string", required: true, maxLength: 63, search: "like" },
    tablePrefix: { type: "string", maxLength: 64, list: false },
    pkName: { type: "string", maxLength: 32, default: "id", list: false },
    serviceName: { type: "string", required: true, maxLength: 64 },
    resourceName: { type: "string", maxLength: 40 },
    resourcePath: { type: "string", maxLength: 64 },
    listFields: { type: "string", maxLength: 2000, list: false, span: 24 },
    searchFields: { type: "string", maxLength: 2000, list: false, span: 24 },
    formFields: { type: "string", maxLength: 2000, list: false, span: 24 },
  },
});

type Labels<T extends { fields: object }> = { title: string; fields: Record<keyof T["fields"], string> };

export const developScreensZh: {
  datasource: Labels<typeof datasourceScreen>;
  code: Labels<typeof codeScreen>;
} = {
  datasource: {
    title: "数据源",
    fields: { name: "名称", url: "连接地址", username: "用户名", password: "密码", remark: "备注" },
  },
  code: {
    title: "代码生成",
    fields: {
      codeName: "模块名",
      codeNameEn: "英文模块名",
      datasourceId: "数据源",
      tableName: "表名",
      tablePrefix: "表前缀",
      pkName: "主键",
      serviceName: "服务名",
      resourceName: "资源名",
      resourcePath: "资源路径",
      listFields: "列表字段",
      searchFields: "搜索字段",
      formFields: "表单字段",
    },
  },
};

export const developScreensEn: typeof developScreensZh = {
  datasource: {
    title: "Data sources",
    fields: { name: "Name", url: "URL", username: "User name", password: "Password", remark: "Remark" },
  },
  code: {
    title: "Code generation",
    fields: {
      codeName: "Module",
      codeNameEn: "Module (English)",
      datasourceId: "Data source",
      tableName: "Table",
      tablePrefix: "Table prefix",
      pkName: "Primary key",
      serviceName: "Service",
      resourceName: "Resource name",
      resourcePath: "Resource path",
      listFields: "List columns",
      searchFields: "Search columns",
      formFields: "Form columns",
    },
  },
};
